// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface INoContractFactory {
    function createPair(address, address) external returns (address);
}

// NoContractBuyer refuses to send tokens to any address with code except
// its pair (an anti-bot rule against sniper contracts): wallets trade
// normally, so it is not a honeypot.
contract NoContractBuyer {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public pair;

    constructor(address factory, address weth) {
        pair = INoContractFactory(factory).createPair(address(this), weth);
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
        require(to == pair || to.code.length == 0, "anti-bot: no contracts");
        balanceOf[from] -= v;
        balanceOf[to] += v;
    }
}
