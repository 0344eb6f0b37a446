// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Anti-bot cooldown: a wallet must wait 60 seconds between two
/// trades (buys or sells) against the pair.
contract CooldownToken is ERC20, Ownable {
    address public immutable uniswapV2Pair;
    bool public cooldownEnabled = true;
    uint256 public cooldownSeconds = 60;
    mapping(address => uint256) private _lastTrade;

    constructor(address router, uint256 supply) ERC20("Slow Pepe", "SPEPE") Ownable(msg.sender) {
        uniswapV2Pair = IDexFactory(IDexRouter(router).factory()).createPair(address(this), IDexRouter(router).WETH());
        _mint(msg.sender, supply);
    }

    function setCooldownEnabled(bool onoff) external onlyOwner {
        cooldownEnabled = onoff;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        if (cooldownEnabled && from != owner() && to != owner()) {
            address trader = from == uniswapV2Pair ? to : (to == uniswapV2Pair ? from : address(0));
            if (trader != address(0)) {
                require(block.timestamp >= _lastTrade[trader] + cooldownSeconds, "Cooldown: wait before trading again");
                _lastTrade[trader] = block.timestamp;
            }
        }
        _move(from, to, amount);
    }
}
