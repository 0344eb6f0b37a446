// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title The owner can destroy the contract (SELFDESTRUCT).
contract LegacyToken is ERC20, Ownable {
    constructor(uint256 supply) ERC20("Legacy Coin", "LEGACY") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function emergencyShutdown() external onlyOwner {
        selfdestruct(payable(msg.sender));
    }
}
