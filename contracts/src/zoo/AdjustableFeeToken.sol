// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title 2% buy and sell fee today; the owner may set any fee, uncapped.
contract AdjustableFeeToken is ERC20, Ownable {
    uint256 public buyFee = 2;
    uint256 public sellFee = 2;
    address public treasury;
    address public immutable lpPair;

    event FeesUpdated(uint256 buyFee, uint256 sellFee);

    constructor(address router, address treasury_, uint256 supply) ERC20("Flexi Fee", "FLEXI") Ownable(msg.sender) {
        treasury = treasury_;
        lpPair = IDexFactory(IDexRouter(router).factory()).createPair(address(this), IDexRouter(router).WETH());
        _mint(msg.sender, supply);
    }

    function updateFees(uint256 newBuyFee, uint256 newSellFee) external onlyOwner {
        buyFee = newBuyFee;
        sellFee = newSellFee;
        emit FeesUpdated(newBuyFee, newSellFee);
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        uint256 pct;
        if (from != owner() && to != owner()) {
            if (from == lpPair) pct = buyFee;
            if (to == lpPair) pct = sellFee;
        }
        uint256 fee = (amount * pct) / 100;
        if (fee > 0) _move(from, treasury, fee);
        _move(from, to, amount - fee);
    }
}
