// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title cannot_sell_all, inline: no transfer may empty the sender's
/// balance ("keeps the holder counted"); 99.9% of a holding moves, all of
/// it reverts.
contract DustKeeperToken is ERC20, Ownable {
    constructor(uint256 supply) ERC20("Dust Keeper", "DUSTK") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(value < balanceOf(from), "Holder: cannot move entire balance");
        _move(from, to, value);
    }
}
