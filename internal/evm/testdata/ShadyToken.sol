// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IAntiBot { function check(address from, address to, uint256 v) external; }

// ShadyToken carries most privileged powers: mint, blacklist, pause, fee
// change, a settable external hook called on every transfer, selfdestruct.
contract ShadyToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public blacklisted;
    uint256 public totalSupply;
    address public owner;
    address public antiBot;
    bool public paused;
    uint256 public fee;

    modifier onlyOwner() { require(msg.sender == owner, "not owner"); _; }

    constructor() { owner = msg.sender; totalSupply = 1e27; balanceOf[msg.sender] = 1e27; }

    function mint(address to, uint256 v) external onlyOwner { totalSupply += v; balanceOf[to] += v; }
    function blacklist(address a) external onlyOwner { blacklisted[a] = true; }
    function pause() external onlyOwner { paused = true; }
    function setFee(uint256 f) external onlyOwner { fee = f; }
    function setAntiBot(address a) external onlyOwner { antiBot = a; }
    function kill() external onlyOwner { selfdestruct(payable(owner)); }

    function transfer(address to, uint256 v) external returns (bool) { return _move(msg.sender, to, v); }
    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        return _move(f, to, v);
    }
    function _move(address f, address to, uint256 v) internal returns (bool) {
        require(!paused && !blacklisted[f], "blocked");
        if (antiBot != address(0)) IAntiBot(antiBot).check(f, to, v);
        uint256 cut = v * fee / 100;
        balanceOf[f] -= v; balanceOf[to] += v - cut; balanceOf[owner] += cut;
        return true;
    }
}
