// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title Anti-whale token with a tight cap: no transfer may exceed 0.005% of
/// the supply (a fraction of an ordinary trade), and the owner sets the cap
/// in tokens with setMaxTxAmount.
contract TightCapToken is ERC20, Ownable {
    uint256 public maxTxAmount;
    mapping(address => bool) public isExcludedFromLimit;

    constructor(uint256 supply) ERC20("Narrow Gate", "GATE") Ownable(msg.sender) {
        _mint(msg.sender, supply);
        maxTxAmount = supply / 20_000;
        isExcludedFromLimit[msg.sender] = true;
    }

    function setMaxTxAmount(uint256 amount) external onlyOwner {
        maxTxAmount = amount;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        if (!isExcludedFromLimit[from] && !isExcludedFromLimit[to]) {
            require(amount <= maxTxAmount, "Transfer amount exceeds the maxTxAmount.");
        }
        _move(from, to, amount);
    }
}
