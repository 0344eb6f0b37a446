// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title Anti-whale token: no transfer may exceed the max transaction
/// amount (1% of supply), which the owner may change.
contract LimitedToken is ERC20, Ownable {
    uint256 public maxTxAmount;
    mapping(address => bool) private _isExcludedFromLimit;

    constructor(uint256 supply) ERC20("Capped Whale", "CAPW") Ownable(msg.sender) {
        _mint(msg.sender, supply);
        maxTxAmount = supply / 100;
        _isExcludedFromLimit[msg.sender] = true;
    }

    function setMaxTxPercent(uint256 maxTxPercent) external onlyOwner {
        maxTxAmount = (totalSupply() * maxTxPercent) / 100;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        if (!_isExcludedFromLimit[from] && !_isExcludedFromLimit[to]) {
            require(amount <= maxTxAmount, "Transfer amount exceeds the maxTxAmount.");
        }
        _move(from, to, amount);
    }
}
