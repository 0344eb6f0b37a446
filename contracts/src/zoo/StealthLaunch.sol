// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title Trading switch: until the owner calls openTrading, only the owner
/// (and the contract) can move tokens, so liquidity can be added but nobody
/// can buy.
contract StealthLaunch is ERC20, Ownable {
    bool public tradingOpen;
    mapping(address => bool) private _isExcluded;

    constructor(uint256 supply) ERC20("Stealth Launch", "STEALTH") Ownable(msg.sender) {
        _isExcluded[msg.sender] = true;
        _isExcluded[address(this)] = true;
        _mint(msg.sender, supply);
    }

    function openTrading() external onlyOwner {
        tradingOpen = true;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        if (!tradingOpen) {
            require(_isExcluded[from] || _isExcluded[to], "Trading is not active.");
        }
        _move(from, to, amount);
    }
}
