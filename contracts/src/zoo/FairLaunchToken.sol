// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "./Base.sol";

/// @title Benign look-alike: an honest, fixed max wallet (3% of supply,
/// immutable, no owner). Buys that would take a wallet past it revert;
/// sells and ordinary holdings are never limited.
contract FairLaunchToken is ERC20 {
    uint256 public immutable maxWallet;
    address public immutable launcher;
    address public pool;

    constructor(uint256 supply) ERC20("Fair Launch", "FAIR") {
        maxWallet = (supply * 3) / 100;
        launcher = msg.sender;
        _mint(msg.sender, supply);
    }

    /// @notice Names the pool once (exempt from the max wallet).
    function setPool(address p) external {
        require(msg.sender == launcher && pool == address(0), "FAIR: once");
        pool = p;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        _move(from, to, value);
        if (to != pool && to != launcher && pool != address(0)) {
            require(balanceOf(to) <= maxWallet, "FAIR: max wallet");
        }
    }
}
