// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IGuardFactory {
    function createPair(address, address) external returns (address);
}

// OriginGuardToken lets a wallet buy only for itself (tx.origin must be
// the receiver of a buy), a common anti-bot rule: it is not a honeypot.
contract OriginGuardToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public pair;

    constructor(address factory, address weth) {
        pair = IGuardFactory(factory).createPair(address(this), weth);
        balanceOf[msg.sender] = totalSupply;
    }

    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; return true; }
    function transfer(address to, uint256 v) external returns (bool) { _transfer(msg.sender, to, v); return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        _transfer(f, to, v);
        return true;
    }

    function _transfer(address from, address to, uint256 v) internal {
        if (from == pair) require(tx.origin == to, "buy for yourself only");
        balanceOf[from] -= v;
        balanceOf[to] += v;
    }
}
