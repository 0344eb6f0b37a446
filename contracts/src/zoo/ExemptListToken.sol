// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Whitelist by fee exemption: trades against the pair pay 4% to the
/// token contract except for addresses the owner lists with
/// setFeeExempt(address,bool).
contract ExemptListToken is ERC20, Ownable {
    address public immutable pair;
    uint256 public constant FEE_BPS = 400;
    mapping(address => bool) public isFeeExempt;

    constructor(address router, uint256 supply) ERC20("Exempt List", "XLST") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        isFeeExempt[msg.sender] = true;
        isFeeExempt[address(this)] = true;
        _mint(msg.sender, supply);
    }

    function setFeeExempt(address account, bool exempt) external onlyOwner {
        isFeeExempt[account] = exempt;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if ((from == pair || to == pair) && !isFeeExempt[from] && !isFeeExempt[to]) {
            uint256 fee = (value * FEE_BPS) / 10_000;
            _move(from, address(this), fee);
            value -= fee;
        }
        _move(from, to, value);
    }
}
