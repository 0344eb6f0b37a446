// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable} from "./Base.sol";

/// @notice Benign once renounced: a fixed-supply token that kept its
/// onlyOwner setters (a sell fee up to 100%, a fee wallet, fee exemptions)
/// after its owner renounced: only the zero address passes onlyOwner, so
/// nobody can use them. The fee is 0 and stays 0.
contract RetiredAdminToken is ERC20, Ownable {
    address public market;
    address public feeWallet;
    uint256 public sellFeeBps;
    mapping(address => bool) public feeExempt;

    constructor(uint256 supply) ERC20("Retired Admin", "RETA") Ownable(msg.sender) {
        feeWallet = msg.sender;
        _mint(msg.sender, supply);
    }

    function setMarket(address pair) external onlyOwner {
        market = pair;
    }

    function setSellFee(uint256 bps) external onlyOwner {
        require(bps <= 10_000, "fee");
        sellFeeBps = bps;
    }

    function setFeeWallet(address wallet) external onlyOwner {
        feeWallet = wallet;
    }

    function excludeFromFee(address account, bool exempt) external onlyOwner {
        feeExempt[account] = exempt;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        uint256 fee;
        if (to == market && !feeExempt[from]) fee = (value * sellFeeBps) / 10_000;
        if (fee > 0) _move(from, feeWallet, fee);
        _move(from, to, value - fee);
    }
}
