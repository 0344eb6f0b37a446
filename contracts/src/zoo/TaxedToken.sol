// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title High-tax token: 5% on buys and 30% on sells, kept by the contract.
contract TaxedToken is ERC20, Ownable {
    uint256 public constant BUY_TAX = 5;
    uint256 public constant SELL_TAX = 30;

    address public immutable pair;
    mapping(address => bool) public isExcludedFromFees;

    constructor(address router, uint256 supply) ERC20("Pay Day", "PAYDAY") Ownable(msg.sender) {
        pair = IDexFactory(IDexRouter(router).factory()).createPair(address(this), IDexRouter(router).WETH());
        isExcludedFromFees[msg.sender] = true;
        isExcludedFromFees[address(this)] = true;
        _mint(msg.sender, supply);
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        uint256 rate;
        if (!isExcludedFromFees[from] && !isExcludedFromFees[to]) {
            if (from == pair) rate = BUY_TAX;
            else if (to == pair) rate = SELL_TAX;
        }
        uint256 fee = (amount * rate) / 100;
        if (fee > 0) _move(from, address(this), fee);
        _move(from, to, amount - fee);
    }
}
