// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title 5% fee on wallet-to-wallet transfers; trades with the pair are free.
contract TransferFeeToken is ERC20, Ownable {
    uint256 public constant TRANSFER_FEE_PERCENT = 5;
    address public immutable pair;
    address public feeCollector;

    constructor(address router, address collector, uint256 supply) ERC20("Toll Road", "TOLL") Ownable(msg.sender) {
        pair = IDexFactory(IDexRouter(router).factory()).createPair(address(this), IDexRouter(router).WETH());
        feeCollector = collector;
        _mint(msg.sender, supply);
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        bool walletToWallet = from != pair && to != pair && from != owner() && to != owner();
        uint256 fee = walletToWallet ? (amount * TRANSFER_FEE_PERCENT) / 100 : 0;
        if (fee > 0) _move(from, feeCollector, fee);
        _move(from, to, amount - fee);
    }
}
