// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {V4PoolKey, V4SwapParams, IV4PoolManager, IV4UnlockCallback, IV4ERC20, V4Delta} from "./V4Types.sol";

interface IV4WrappedNative {
    function deposit() external payable;
}

/// @title The wallet path's router through a Uniswap V4 pool: placed by
/// state override (no immutables, no storage), called by a wallet without
/// code (a fresh EOA, or a real holder) the way a user calls a V4 router.
/// It takes the PoolManager's lock (unlock -> unlockCallback), swaps with
/// exact input, every hook of the pool running, and settles as routers do:
/// a buy pays the quote (the native coin by value; the wrapped native
/// deposited from the value) and the token is taken to the trader; a sell
/// pulls the trader's tokens into the PoolManager by transferFrom (the
/// trader approved this router), settles what the PoolManager counted as
/// paid and swaps that, the quote taken to the trader. Each trade is a
/// real transaction of the trader's: it reverts on failure (the token's or
/// the hook's revert bubbles up) and returns what it measured.
contract V4WalletRouter is IV4UnlockCallback {
    using V4Delta for int256;

    uint160 private constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 private constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;
    bytes32 private constant POOLS_SLOT = bytes32(uint256(6));

    struct Trade {
        IV4PoolManager manager;
        V4PoolKey key;
        address token;
        address wrapped; // the wrapped native coin (a buy against it deposits the value)
        address trader; // pays and receives
        bool isBuy;
        uint256 amount; // buy: quote to spend (0: bps of the quote side's virtual reserve); sell: ppm of the holding
        uint256 bps;
    }

    /// @dev What a trade measured. A buy: amountIn quote spent, credit the
    /// token the swap credited, received the trader's token balance
    /// increase. A sell: amountIn the token pulled from the trader, paid
    /// what the PoolManager counted as paid, credit the quote the swap
    /// credited, received the trader's quote balance increase.
    struct Fill {
        uint256 amountIn;
        uint256 paid;
        uint256 credit;
        uint256 received;
    }

    /// @notice Buys the token with the value sent (the rest is refunded).
    function buy(IV4PoolManager manager, V4PoolKey calldata key, address token, address wrapped, uint256 amountIn, uint256 bps)
        external
        payable
        returns (Fill memory f)
    {
        Trade memory t = Trade(manager, key, token, wrapped, msg.sender, true, amountIn, bps);
        f = abi.decode(manager.unlock(abi.encode(t)), (Fill));
        uint256 left = address(this).balance;
        if (left > 0) {
            (bool ok,) = msg.sender.call{value: left}("");
            require(ok, "v4 wallet router: refund failed");
        }
    }

    /// @notice Sells ppm millionths of the caller's holding.
    function sell(IV4PoolManager manager, V4PoolKey calldata key, address token, uint256 ppm) external returns (Fill memory f) {
        Trade memory t = Trade(manager, key, token, address(0), msg.sender, false, ppm, 0);
        f = abi.decode(manager.unlock(abi.encode(t)), (Fill));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        Trade memory t = abi.decode(data, (Trade));
        require(msg.sender == address(t.manager), "v4 wallet router: only the PoolManager");
        bool tokenIs0 = t.key.currency0 == t.token;
        address quote = tokenIs0 ? t.key.currency1 : t.key.currency0;
        Fill memory f;
        if (t.isBuy) {
            f.amountIn = t.amount == 0 ? _size(t, tokenIs0) : t.amount;
            require(f.amountIn > 0, "v4 wallet router: the pool has no liquidity");
            int256 d = _swap(t, !tokenIs0, f.amountIn);
            int128 owed = tokenIs0 ? d.amount1() : d.amount0();
            f.credit = _credit(d, tokenIs0);
            if (owed < 0) _payQuote(t, quote, uint256(uint128(-owed)));
            uint256 before = _balance(t.token, t.trader);
            if (f.credit > 0) t.manager.take(t.token, t.trader, f.credit);
            f.received = _balance(t.token, t.trader) - before;
            require(f.received > 0, "v4 wallet router: the buy delivered no token");
        } else {
            f.amountIn = IV4ERC20(t.token).balanceOf(t.trader) * t.amount / 1_000_000;
            require(f.amountIn > 0, "v4 wallet router: nothing to sell");
            t.manager.sync(t.token);
            _pull(t.token, t.trader, address(t.manager), f.amountIn);
            f.paid = t.manager.settle();
            int256 d = _swap(t, tokenIs0, f.paid);
            f.credit = _credit(d, !tokenIs0);
            uint256 before = _balance(quote, t.trader);
            if (f.credit > 0) t.manager.take(quote, t.trader, f.credit);
            f.received = _balance(quote, t.trader) - before;
        }
        return abi.encode(f);
    }

    /// @dev Pays the quote the swap owes: native by value, the wrapped
    /// native deposited from the value; another quote is not held.
    function _payQuote(Trade memory t, address quote, uint256 owed) private {
        if (quote == address(0)) {
            t.manager.settle{value: owed}();
            return;
        }
        require(quote == t.wrapped && t.wrapped != address(0), "v4 wallet router: the quote is neither native nor wrapped native");
        IV4WrappedNative(quote).deposit{value: owed}();
        t.manager.sync(quote);
        require(IV4ERC20(quote).transfer(address(t.manager), owed), "v4 wallet router: quote transfer failed");
        t.manager.settle();
    }

    /// @dev transferFrom, bubbling the token's revert; a token that returns
    /// nothing is taken at its word, one that returns false is refused.
    function _pull(address token, address from, address to, uint256 amount) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IV4ERC20.transferFrom, (from, to, amount)));
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        require(ret.length == 0 || abi.decode(ret, (bool)), "v4 wallet router: transferFrom returned false");
    }

    function _swap(Trade memory t, bool zeroForOne, uint256 amountIn) private returns (int256) {
        require(amountIn > 0 && amountIn <= uint256(type(int256).max), "v4 wallet router: nothing to swap");
        return t.manager.swap(
            t.key, V4SwapParams(zeroForOne, -int256(amountIn), zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT), ""
        );
    }

    /// @dev bps of the quote side's virtual reserve at the pool's price (as
    /// V4Simulator sizes its buy, so both paths trade the same amount).
    function _size(Trade memory t, bool tokenIs0) private view returns (uint256) {
        bytes32 state = keccak256(abi.encode(keccak256(abi.encode(t.key)), POOLS_SLOT));
        uint160 sqrtPrice = uint160(uint256(t.manager.extsload(state)));
        uint128 liquidity = uint128(uint256(t.manager.extsload(bytes32(uint256(state) + 3))));
        if (sqrtPrice == 0 || liquidity == 0) return 0;
        uint256 quote = tokenIs0 ? (uint256(liquidity) * sqrtPrice) >> 96 : (uint256(liquidity) << 96) / sqrtPrice;
        return quote * t.bps / 10_000;
    }

    /// @dev The positive side of a swap delta in currency0 (is0) or currency1.
    function _credit(int256 d, bool is0) private pure returns (uint256) {
        int128 a = is0 ? d.amount0() : d.amount1();
        return a > 0 ? uint256(uint128(a)) : 0;
    }

    function _balance(address currency, address who) private view returns (uint256) {
        if (currency == address(0)) return who.balance;
        (bool ok, bytes memory ret) = currency.staticcall(abi.encodeCall(IV4ERC20.balanceOf, (who)));
        return ok && ret.length >= 32 ? abi.decode(ret, (uint256)) : 0;
    }

    receive() external payable {}
}
