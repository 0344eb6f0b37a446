// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, IDexRouter, IDexFactory} from "./Base.sol";

/// @title is_whitelisted, another shape: the list is an array searched on
/// every trade, the check inline: trades against the pair pay 5% unless a
/// party is a "partner"; the admin adds partners with onboard(address[]).
contract PartnerListToken is ERC20 {
    address public immutable pair;
    address private _admin;
    address[] private _partners;

    constructor(address router, uint256 supply) ERC20("Partner List", "PLST") {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _admin = msg.sender;
        _partners.push(msg.sender);
        _mint(msg.sender, supply);
    }

    function onboard(address[] calldata accounts) external {
        require(msg.sender == _admin, "admin only");
        for (uint256 i = 0; i < accounts.length; i++) _partners.push(accounts[i]);
    }

    function _isPartner(address a) private view returns (bool) {
        for (uint256 i = 0; i < _partners.length; i++) if (_partners[i] == a) return true;
        return false;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if ((from == pair || to == pair) && !_isPartner(from) && !_isPartner(to)) {
            uint256 fee = value / 20;
            _move(from, _admin, fee);
            value -= fee;
        }
        _move(from, to, value);
    }
}
