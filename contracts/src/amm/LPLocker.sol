// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Like} from "./Interfaces.sol";

/// @title Holds tokens (typically LP shares) until an unlock time; only the
/// locking address may withdraw them afterwards.
contract LPLocker {
    struct Lock {
        address token;
        address owner;
        uint256 amount;
        uint256 unlockTime;
        bool withdrawn;
    }

    Lock[] public locks;
    /// @notice Total amount currently locked per token.
    mapping(address => uint256) public lockedAmount;

    event Locked(uint256 indexed id, address indexed token, address indexed owner, uint256 amount, uint256 unlockTime);
    event Withdrawn(uint256 indexed id, address indexed token, address indexed owner, uint256 amount);

    function lockCount() external view returns (uint256) {
        return locks.length;
    }

    function lock(address token, uint256 amount, uint256 unlockTime) external returns (uint256 id) {
        require(amount > 0, "Locker: amount");
        require(unlockTime > block.timestamp, "Locker: unlock time in the past");
        uint256 before = IERC20Like(token).balanceOf(address(this));
        require(IERC20Like(token).transferFrom(msg.sender, address(this), amount), "Locker: transfer");
        uint256 received = IERC20Like(token).balanceOf(address(this)) - before;
        id = locks.length;
        locks.push(Lock({token: token, owner: msg.sender, amount: received, unlockTime: unlockTime, withdrawn: false}));
        lockedAmount[token] += received;
        emit Locked(id, token, msg.sender, received, unlockTime);
    }

    function withdraw(uint256 id) external {
        Lock storage l = locks[id];
        require(msg.sender == l.owner, "Locker: not the owner");
        require(block.timestamp >= l.unlockTime, "Locker: still locked");
        require(!l.withdrawn, "Locker: withdrawn");
        l.withdrawn = true;
        lockedAmount[l.token] -= l.amount;
        require(IERC20Like(l.token).transfer(l.owner, l.amount), "Locker: transfer");
        emit Withdrawn(id, l.token, l.owner, l.amount);
    }
}
