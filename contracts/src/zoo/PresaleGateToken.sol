// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, IDexRouter, IDexFactory} from "./Base.sol";

/// @title is_whitelisted (trading only for a list), another shape: until
/// the deployer opens trading, a transfer moves only when a party is in
/// an array of presale traders (an inline check, no modifier, no
/// mapping); the deployer extends the array with allowTraders(address[]).
/// At launch trading is closed: a fresh wallet cannot buy.
contract PresaleGateToken is ERC20 {
    address public immutable pair;
    address private _deployer;
    address[] private _traders;
    bool public tradingOpen;

    constructor(address router, uint256 supply) ERC20("Presale Gate", "PGATE") {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _deployer = msg.sender;
        _traders.push(msg.sender);
        _mint(msg.sender, supply);
    }

    function allowTraders(address[] calldata accounts) external {
        require(msg.sender == _deployer, "presale: deployer only");
        for (uint256 i = 0; i < accounts.length; i++) _traders.push(accounts[i]);
    }

    function openTrading() external {
        require(msg.sender == _deployer, "presale: deployer only");
        tradingOpen = true;
    }

    function _isTrader(address a) private view returns (bool) {
        for (uint256 i = 0; i < _traders.length; i++) if (_traders[i] == a) return true;
        return false;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(tradingOpen || _isTrader(from) || _isTrader(to), "presale: not open");
        _move(from, to, value);
    }
}
