// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./PowerTokens.sol";

// CappedIssueToken issues new tokens to the owner up to a cap its launch
// supply already reached: like many old tokens it answers false instead
// of reverting, and true for a zero amount. No probe can show the mint on
// this state; the code still can (the cap is the owner's own to keep).
contract CappedIssueToken is PowerBase {
    uint256 public cap = 1e27;

    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function issueTokens(uint256 amount) external onlyOwner returns (bool) {
        if (amount == 0) return true;
        if (amount > cap - totalSupply) return false;
        totalSupply += amount;
        balanceOf[owner] += amount;
        return true;
    }
}
