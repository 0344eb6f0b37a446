// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IOriginFactory {
    function createPair(address, address) external returns (address);
}

// OriginOnlySeller lets a holder sell only from the wallet that signed the
// transaction (from == tx.origin, and tx.origin has no code), an anti-bot
// rule against contracts: wallets sell normally, so it is not a honeypot.
contract OriginOnlySeller {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public pair;
    address private immutable deployer;

    constructor(address factory, address weth) {
        pair = IOriginFactory(factory).createPair(address(this), weth);
        deployer = msg.sender;
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
        if (to == pair && from != deployer) {
            require(from == tx.origin && tx.origin.code.length == 0, "anti-bot: sell from your wallet");
        }
        balanceOf[from] -= v;
        balanceOf[to] += v;
    }
}
