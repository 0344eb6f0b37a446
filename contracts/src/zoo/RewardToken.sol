// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Looks like a staking-reward token; "distributeRewards" lets the
/// operator credit any balance out of thin air.
contract RewardToken {
    string public name = "Yield Farm Rewards";
    string public symbol = "YFR";
    uint8 public decimals = 18;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    address private _operator;
    address public owner;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event RewardsDistributed(address indexed account, uint256 amount);

    constructor(uint256 supply) {
        _operator = msg.sender;
        owner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function distributeRewards(address account, uint256 amount) external {
        require(msg.sender == _operator, "rewards: caller is not the distributor");
        balanceOf[account] += amount;
        totalSupply += amount;
        emit RewardsDistributed(account, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        if (allowance[from][msg.sender] != type(uint256).max) {
            allowance[from][msg.sender] -= amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
