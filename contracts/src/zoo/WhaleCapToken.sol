// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title Anti-whale by a max transaction well above an ordinary trade: no
/// transfer may exceed 0.75% of supply (the engine's default buy is about
/// 0.15%); the owner changes it with setMaxTxAmount(uint256).
contract WhaleCapToken is ERC20, Ownable {
    uint256 public maxTxAmount;

    constructor(uint256 supply) ERC20("Whale Cap", "WCAP") Ownable(msg.sender) {
        maxTxAmount = (supply * 75) / 10_000;
        _mint(msg.sender, supply);
    }

    function setMaxTxAmount(uint256 amount) external onlyOwner {
        maxTxAmount = amount;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (from != owner() && to != owner()) {
            require(value <= maxTxAmount, "Transfer amount exceeds the maxTxAmount.");
        }
        _move(from, to, value);
    }
}
