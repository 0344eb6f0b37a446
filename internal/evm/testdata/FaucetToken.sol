// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IFaucetFactory {
    function createPair(address, address) external returns (address);
}

// FaucetToken has an owner who keeps a copy of its address in storage, and
// a public faucet anyone can mint from: a power of everyone, not a hidden
// owner's.
contract FaucetToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public pair;
    address public owner;
    address private treasury;

    constructor(address factory, address weth) {
        pair = IFaucetFactory(factory).createPair(address(this), weth);
        owner = msg.sender;
        treasury = msg.sender;
        balanceOf[msg.sender] = totalSupply;
    }

    function renounce() external { require(msg.sender == owner); owner = address(0); }

    function drip(address to, uint256 v) external {
        totalSupply += v;
        balanceOf[to] += v;
    }

    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; return true; }
    function transfer(address to, uint256 v) external returns (bool) { _move(msg.sender, to, v); return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        _move(f, to, v);
        return true;
    }

    function _move(address from, address to, uint256 v) internal {
        balanceOf[from] -= v;
        balanceOf[to] += v;
    }
}
