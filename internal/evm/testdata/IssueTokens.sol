// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./PowerTokens.sol";

// RatedIssueToken sells newly created tokens for ether at a rate the
// owner sets (the crowdsale built into many old tokens): the owner raises
// the rate, then creates any amount for dust. Two calls, so no single
// probe shows it; the code does.
contract RatedIssueToken is PowerBase {
    uint256 public rate = 1000;

    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function changeRate(uint256 r) external onlyOwner {
        rate = r;
    }

    function buyTokens() external payable {
        require(msg.value > 0, "no ether");
        uint256 tokens = msg.value * rate;
        totalSupply += tokens;
        balanceOf[msg.sender] += tokens;
    }
}

// FixedIssueToken is the same sale at a rate fixed in the code: anyone
// pays the same price, which is no privileged power.
contract FixedIssueToken is PowerBase {
    uint256 public constant RATE = 1000;

    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function buyTokens() external payable {
        require(msg.value > 0, "no ether");
        uint256 tokens = msg.value * RATE;
        totalSupply += tokens;
        balanceOf[msg.sender] += tokens;
    }
}
