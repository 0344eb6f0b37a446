// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title The owner can blacklist any address, freezing its tokens.
contract GuardedToken is ERC20, Ownable {
    mapping(address => bool) public isBlacklisted;

    event BlacklistUpdated(address indexed account, bool value);

    constructor(uint256 supply) ERC20("Guardian", "GUARD") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function blacklistAddress(address account, bool value) external onlyOwner {
        isBlacklisted[account] = value;
        emit BlacklistUpdated(account, value);
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        require(!isBlacklisted[from] && !isBlacklisted[to], "Blacklisted address");
        _move(from, to, amount);
    }
}
