// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title The owner can pause every transfer but its own.
contract PausableToken is ERC20, Ownable {
    bool public paused;

    event Paused(address account);
    event Unpaused(address account);

    constructor(uint256 supply) ERC20("Stoppable", "STOP") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function pause() external onlyOwner {
        paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external onlyOwner {
        paused = false;
        emit Unpaused(msg.sender);
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        require(!paused || from == owner(), "Pausable: paused");
        _move(from, to, amount);
    }
}
