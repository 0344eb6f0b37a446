// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {V4PoolKey, V4SwapParams, V4ModifyLiquidityParams, IV4PoolManager, IV4UnlockCallback, IV4ERC20, V4Delta} from "./V4Types.sol";

/// @title A minimal router for Uniswap V4 pools on the devnet: adds
/// liquidity and swaps exact input, taking the PoolManager's lock
/// (unlock -> unlockCallback), paying what the pool asks (sync, transfer,
/// settle; native by value) and taking what it owes. The payer is the
/// caller: it approves this router for ERC-20 input. Positions belong to
/// the router (the PoolManager keys them by caller), one salt per owner.
contract V4Router is IV4UnlockCallback {
    using V4Delta for int256;

    IV4PoolManager public immutable manager;

    struct Call {
        uint8 op; // 1 = add liquidity, 2 = swap exact input
        address payer;
        address recipient;
        V4PoolKey key;
        int24 tickLower;
        int24 tickUpper;
        uint256 liquidity;
        bool zeroForOne;
        uint256 amountIn;
        uint256 minOut;
    }

    constructor(IV4PoolManager manager_) {
        manager = manager_;
    }

    receive() external payable {}

    /// @notice Adds `liquidity` between the ticks; native input comes from
    /// msg.value (the rest is refunded), ERC-20 input by transferFrom.
    function addLiquidity(V4PoolKey calldata key, int24 tickLower, int24 tickUpper, uint256 liquidity)
        external
        payable
    {
        Call memory c;
        c.op = 1;
        c.payer = msg.sender;
        c.key = key;
        c.tickLower = tickLower;
        c.tickUpper = tickUpper;
        c.liquidity = liquidity;
        manager.unlock(abi.encode(c));
        _refund();
    }

    /// @notice Swaps exactly `amountIn` of one currency for the other, paid
    /// to `recipient`; reverts when fewer than `minOut` arrive there.
    function swapExactIn(V4PoolKey calldata key, bool zeroForOne, uint256 amountIn, uint256 minOut, address recipient)
        external
        payable
        returns (uint256 out)
    {
        Call memory c;
        c.op = 2;
        c.payer = msg.sender;
        c.recipient = recipient;
        c.key = key;
        c.zeroForOne = zeroForOne;
        c.amountIn = amountIn;
        c.minOut = minOut;
        out = abi.decode(manager.unlock(abi.encode(c)), (uint256));
        _refund();
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        require(msg.sender == address(manager), "V4Router: only the PoolManager");
        Call memory c = abi.decode(data, (Call));
        if (c.op == 1) {
            (int256 delta,) = manager.modifyLiquidity(
                c.key,
                V4ModifyLiquidityParams(c.tickLower, c.tickUpper, int256(c.liquidity), bytes32(uint256(uint160(c.payer)))),
                ""
            );
            _settle(c.key.currency0, c.payer, delta.amount0());
            _settle(c.key.currency1, c.payer, delta.amount1());
            return "";
        }
        int256 swapDelta = manager.swap(
            c.key,
            V4SwapParams(c.zeroForOne, -int256(c.amountIn), c.zeroForOne ? 4295128740 : 1461446703485210103287273052203988822378723970341),
            ""
        );
        (address inC, address outC) = c.zeroForOne ? (c.key.currency0, c.key.currency1) : (c.key.currency1, c.key.currency0);
        (int128 inD, int128 outD) =
            c.zeroForOne ? (swapDelta.amount0(), swapDelta.amount1()) : (swapDelta.amount1(), swapDelta.amount0());
        _settle(inC, c.payer, inD);
        uint256 before = _balance(outC, c.recipient);
        if (outD > 0) manager.take(outC, c.recipient, uint128(outD));
        uint256 got = _balance(outC, c.recipient) - before;
        require(got >= c.minOut, "V4Router: too little received");
        return abi.encode(got);
    }

    /// @dev Pays a negative delta: native from this contract's value, an
    /// ERC-20 from the payer straight to the PoolManager.
    function _settle(address currency, address payer, int128 delta) private {
        if (delta >= 0) {
            if (delta > 0) manager.take(currency, payer, uint128(delta));
            return;
        }
        uint256 owed = uint128(-delta);
        if (currency == address(0)) {
            manager.settle{value: owed}();
            return;
        }
        manager.sync(currency);
        require(IV4ERC20(currency).transferFrom(payer, address(manager), owed), "V4Router: transferFrom failed");
        manager.settle();
    }

    function _balance(address currency, address who) private view returns (uint256) {
        return currency == address(0) ? who.balance : IV4ERC20(currency).balanceOf(who);
    }

    function _refund() private {
        uint256 left = address(this).balance;
        if (left > 0) {
            (bool ok,) = msg.sender.call{value: left}("");
            require(ok, "V4Router: refund failed");
        }
    }
}
