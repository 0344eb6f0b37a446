// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @title A standard fixed-supply token with renounceable ownership and no
/// other privileges.
contract CleanToken is ERC20, Ownable {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }
}
