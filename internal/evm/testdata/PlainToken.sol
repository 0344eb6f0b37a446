// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// PlainToken is a fixed-supply ERC-20 with no owner and no privileges.
contract PlainToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply;
    string public name = "Plain";
    string public symbol = "PLN";
    uint8 public decimals = 18;

    constructor() { totalSupply = 1e27; balanceOf[msg.sender] = 1e27; }

    function transfer(address to, uint256 v) external returns (bool) { return _move(msg.sender, to, v); }
    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        return _move(f, to, v);
    }
    function _move(address f, address to, uint256 v) internal returns (bool) {
        balanceOf[f] -= v; balanceOf[to] += v; return true;
    }
}
