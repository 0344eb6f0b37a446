// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Buy-side trading cooldown: after a buy, the same wallet must wait
/// buyDelay seconds (45) before buying again. Sells and transfers are
/// never delayed.
contract BuyThrottleToken is ERC20, Ownable {
    address public immutable pair;
    uint256 public buyDelay = 45;
    mapping(address => uint256) private _lastBuy;

    constructor(address router, uint256 supply) ERC20("Buy Throttle", "BTHR") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function setBuyDelay(uint256 secondsBetween) external onlyOwner {
        buyDelay = secondsBetween;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (from == pair && to != owner()) {
            require(block.timestamp >= _lastBuy[to] + buyDelay, "Throttle: buy again later");
            _lastBuy[to] = block.timestamp;
        }
        _move(from, to, value);
    }
}
