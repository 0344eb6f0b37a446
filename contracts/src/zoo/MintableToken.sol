// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title The owner can mint any amount to anyone.
contract MintableToken is ERC20, Ownable {
    constructor(uint256 initialSupply) ERC20("Print Money", "PRINT") Ownable(msg.sender) {
        _mint(msg.sender, initialSupply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
