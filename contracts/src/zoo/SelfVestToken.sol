// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "./Base.sol";

/// @title Benign look-alike: lock(amount, until) and unlock() move only the
/// caller's own tokens into and out of a time lock. There is no owner; no
/// one can touch another holder's tokens.
contract SelfVestToken is ERC20 {
    struct Lock {
        uint256 amount;
        uint256 until;
    }

    mapping(address => Lock) public locks;

    constructor(uint256 supply) ERC20("Self Vest", "SVEST") {
        _mint(msg.sender, supply);
    }

    function lock(uint256 amount, uint256 until) external {
        require(until > block.timestamp, "past");
        _move(msg.sender, address(this), amount);
        locks[msg.sender].amount += amount;
        if (until > locks[msg.sender].until) locks[msg.sender].until = until;
    }

    function unlock() external {
        Lock memory l = locks[msg.sender];
        require(l.amount > 0 && block.timestamp >= l.until, "locked");
        delete locks[msg.sender];
        _move(address(this), msg.sender, l.amount);
    }
}
