// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "PowerTokens.sol";

// DripStockToken hands the owner one token of what the contract holds a
// call: far below the supply's rounding, but the owner receives it, and
// as many calls take it all.
contract DripStockToken is PowerBase {
    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function claimReward(bool) external onlyOwner {
        balanceOf[address(this)] -= 1e18;
        balanceOf[msg.sender] += 1e18;
    }
}

// SelfGuardStockToken refuses transfers to its own address, so a holder
// cannot give it tokens; what it holds (fees, or tokens credited to it
// some other way) still goes to the owner through its recover function.
contract SelfGuardStockToken is PowerBase {
    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function recover(address token, uint256 amount) external onlyOwner {
        PowerBase(token).transfer(owner, amount);
    }

    function _move(address from, address to, uint256 v) internal override {
        require(to != address(this), "not to the token");
        super._move(from, to, v);
    }
}
