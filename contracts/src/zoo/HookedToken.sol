// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @notice Called on every transfer of a HookedToken.
interface ITransferListener {
    function onTokenTransfer(address from, address to, uint256 amount) external;
}

/// @title Every transfer calls an external contract the owner can replace
/// at any time (it could start reverting or taxing).
contract HookedToken is ERC20, Ownable {
    address public listener;

    constructor(uint256 supply) ERC20("Hooked", "HOOK") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setListener(address newListener) external onlyOwner {
        listener = newListener;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        _move(from, to, amount);
        if (listener != address(0)) {
            ITransferListener(listener).onTokenTransfer(from, to, amount);
        }
    }
}

/// @title A harmless transfer listener that counts the calls it receives.
contract TransferCounter is ITransferListener {
    uint256 public calls;
    uint256 public volume;

    function onTokenTransfer(address, address, uint256 amount) external {
        calls += 1;
        volume += amount;
    }
}
