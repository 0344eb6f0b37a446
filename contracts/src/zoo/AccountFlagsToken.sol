// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title Whitelist by limit exemption, through a misnamed bit-flag setter:
/// no transfer may move more than 2% of supply unless the sender or
/// receiver has bit 1 set by the owner's configureAccount(address,uint8).
contract AccountFlagsToken is ERC20, Ownable {
    uint8 private constant UNLIMITED = 1;
    mapping(address => uint8) private _flags;
    uint256 public immutable txCap;

    constructor(uint256 supply) ERC20("Account Flags", "AFLG") Ownable(msg.sender) {
        txCap = supply / 50;
        _flags[msg.sender] = UNLIMITED;
        _mint(msg.sender, supply);
    }

    function configureAccount(address account, uint8 flags) external onlyOwner {
        _flags[account] = flags;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if ((_flags[from] | _flags[to]) & UNLIMITED == 0) {
            require(value <= txCap, "AFLG: over the limit");
        }
        _move(from, to, value);
    }
}
