// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title trading_cooldown (buy side), another shape: an "anti-MEV"
/// shield that stamps each buyer's last buy at a hashed slot with
/// assembly; a second buy by the same wallet within 60 seconds reverts.
/// Sells and wallet transfers are never delayed.
contract MevShieldToken is ERC20, Ownable {
    address public immutable pair;
    uint256 private constant SHIELD = 60;

    constructor(address router, uint256 supply) ERC20("MEV Shield", "SHLD") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (from == pair) {
            bytes32 slot = keccak256(abi.encodePacked("mev.shield", to));
            uint256 last;
            assembly {
                last := sload(slot)
            }
            require(last == 0 || block.timestamp >= last + SHIELD, "shield: wait");
            assembly {
                sstore(slot, timestamp())
            }
        }
        _move(from, to, value);
    }
}
