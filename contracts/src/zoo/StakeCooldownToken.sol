// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title Benign look-alike: a cooldown-named setter that only governs how
/// long a holder's own staked tokens wait before unstaking. Transfers and
/// trades are never delayed, limited or taxed.
contract StakeCooldownToken is ERC20, Ownable {
    uint256 public cooldownSeconds = 1 days;
    bool public cooldownEnabled = true;
    mapping(address => uint256) public staked;
    mapping(address => uint256) public unstakeRequested;

    constructor(uint256 supply) ERC20("Stake Cooldown", "STKC") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setCooldown(uint256 secondsToWait) external onlyOwner {
        require(secondsToWait <= 30 days, "too long");
        cooldownSeconds = secondsToWait;
    }

    function cooldownEnabledSet(bool on, uint8) external onlyOwner {
        cooldownEnabled = on;
    }

    function stake(uint256 amount) external {
        _move(msg.sender, address(this), amount);
        staked[msg.sender] += amount;
    }

    function requestUnstake() external {
        unstakeRequested[msg.sender] = block.timestamp;
    }

    function unstake() external {
        uint256 requested = unstakeRequested[msg.sender];
        require(requested != 0, "request first");
        if (cooldownEnabled) require(block.timestamp >= requested + cooldownSeconds, "cooling down");
        uint256 amount = staked[msg.sender];
        staked[msg.sender] = 0;
        unstakeRequested[msg.sender] = 0;
        _move(address(this), msg.sender, amount);
    }
}
