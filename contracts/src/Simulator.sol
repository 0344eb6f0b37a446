// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface ISimWrapped {
    function deposit() external payable;
}

interface ISimV2Pair {
    function token0() external view returns (address);
    function getReserves() external view returns (uint112, uint112, uint32);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
    function sync() external;
}

interface ISimV3Pool {
    function token0() external view returns (address);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256, int256);
}

/// @title Honeypot simulator, placed by state override at a throwaway address
/// with a native balance. One eth_call buys the token from a pool by calling
/// the pool directly, transfers part of it to a second address and sells the
/// rest back, measuring every step. Nothing here is ever deployed: it runs on
/// a copy of the chain's state.
/// @dev It is also the router of the wallet path: a wallet (an address with
/// no code) sends routeBuy, which pays the pool and swaps to the wallet, and
/// after the wallet's own transfer to the pool, routeSell, which swaps what
/// the pool received to the wallet (on a V3 pool routeSell pulls the
/// wallet's approved tokens in the callback, as Uniswap's router does). The
/// token then sees what a router's trade shows it: the pool, the wallet
/// and the router, with the wallet as tx.origin.
/// @dev Sizes adapt: a buy the token refuses is retried at half the size,
/// down to a millionth of it, and a sell the token refuses at a quarter,
/// so a max-transaction cap reads as a limit, not a honeypot (buyRefused,
/// sellRefused say what was refused). Taxes are what the token withholds:
/// a V2 sell is priced on the pool's reserves right before the seller's
/// own swap, after any swap the token made inside the seller's transfer
/// (swap-back, liquify); that swap's price impact is measured apart
/// (xferDropPpm, sellDropPpm: the token's price drop inside the transfer
/// test and inside the sell, in parts per million).
contract Simulator {
    struct Params {
        address token;
        address pool;
        address quote; // the pool's other token
        address wrapped; // wrapped native, deposited to get the quote
        address fundPool; // V2 wrapped/quote pool that buys the quote when quote != wrapped (or zero)
        uint8 poolKind; // 1 = Uniswap V2 style, 2 = Uniswap V3 style
        uint256 feeBps; // V2 swap fee in basis points (fundPool too)
        uint256 amountIn; // quote to spend on the buy
        address recipient; // receiver of the transfer test
        uint256 gasPerStep; // gas cap of each external step
        uint8 steps; // bit 0 buy, bit 1 transfer, bit 2 sell
    }

    struct Result {
        bool buyOk;
        bytes buyError;
        uint256 buyGas;
        uint256 buyExpected; // token the pool sent (V3) or we asked for (V2)
        uint256 buyReceived; // token balance increase
        uint256 quoteSpent;
        bool transferOk;
        bytes transferError;
        uint256 transferSent;
        uint256 transferReceived;
        bool sellOk;
        bytes sellError;
        uint256 sellGas;
        uint256 sellSent; // token we sent
        uint256 sellPoolReceived; // token the pool actually got
        uint256 sellExpected; // quote the pool should pay for what it got
        uint256 sellReceived; // quote balance increase
        uint256 buyFull; // token the full-size buy asked for (V2; 0 on V3)
        uint256 buyRefused; // smallest size refused before the one that worked (token on V2, quote on V3), 0 if none
        uint256 sellRefused; // token of the full-size sell the token refused, 0 if none
        uint256 xferDropPpm; // token price drop in the pool inside the transfer test (V2)
        uint256 sellDropPpm; // token price drop inside the seller's transfer, before the seller's swap (V2)
    }

    /// @dev A wallet's sell is measured over several routeSell calls (one
    /// after each transfer of its ladder): their sum.
    struct SellTally {
        bool ok;
        uint256 poolReceived;
        uint256 expected;
        uint256 received;
        uint256 dropPpm;
        bytes error;
    }

    uint160 private constant MIN_SQRT_RATIO_PLUS_ONE = 4295128740;
    uint160 private constant MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341;

    // The pool whose V3 callback is expected, and what it pays with.
    address private activePool;
    address private activePayToken;
    // The wallet whose approved tokens a V3 callback pulls, as a router
    // does (zero: the simulator pays from its own balance).
    address private activePayer;

    // The pool's reserves (token side, quote side) at the last mark: the
    // price a later transfer's drop is measured from.
    uint256 private markToken;
    uint256 private markQuote;
    SellTally private tally;

    uint256 private constant PPM = 1_000_000;
    // Adaptive sizes: a refused buy is retried at half the size and a
    // refused sell at a quarter, down to a millionth of the full size.
    uint256 private constant BUY_HALVINGS = 20;
    uint256 private constant SELL_QUARTERS = 10;

    /// @notice Runs the steps of p and reports every measurement; never
    /// reverts for the token's sake (failures are reported).
    function simulate(Params calldata p) external payable returns (Result memory r) {
        if (p.steps & 1 != 0) {
            _buy(p, r, address(this));
            if (!r.buyOk) return r;
        }
        _mark(p);
        if (p.steps & 2 != 0) _transferTest(p, r);
        r.xferDropPpm = _mark(p);
        if (p.steps & 4 != 0) _sell(p, r);
    }

    /// @notice Wallet path, buy: funds p.amountIn of the quote, pays the pool
    /// and swaps the token to the caller (a wallet, also tx.origin).
    function routeBuy(Params calldata p) external returns (Result memory r) {
        _buy(p, r, msg.sender);
    }

    /// @notice Wallet path: marks the pool's price (V2) and starts a new
    /// sell tally; returns the token's price drop since the previous mark
    /// in ppm (the wallet's transfer test sits between two marks).
    function routeMark(Params calldata p) external returns (uint256 dropPpm) {
        delete tally;
        return _mark(p);
    }

    /// @notice Wallet path, sell. On a V2-style pool it runs after each of
    /// the wallet's own transfers to the pool: it swaps what the pool
    /// received above its reserve to the caller and adds the measurements
    /// to the tally since routeMark (nothing received: the tally as is). On
    /// a V3 pool it sells 99.9% of the caller's holding the way Uniswap's
    /// router does (the callback pulls the caller's tokens, approved to
    /// this router), a quarter of it at a time while the token refuses.
    function routeSell(Params calldata p) external returns (Result memory r) {
        uint256 quoteBefore = _balance(p.quote, msg.sender);
        uint256 g = gasleft();
        if (p.poolKind == 1) {
            r.sellOk = tally.ok;
            r.sellPoolReceived = tally.poolReceived;
            r.sellExpected = tally.expected;
            r.sellReceived = tally.received;
            r.sellDropPpm = tally.dropPpm;
            r.sellError = tally.error;
            (uint256 rIn,,) = _reserves(p.pool, p.token);
            if (_balance(p.token, p.pool) <= rIn) return r; // the last transfer moved nothing
            bool ok = _swapPoolExcess(p, r, msg.sender);
            if (ok) r.sellReceived += _gain(_balance(p.quote, msg.sender), quoteBefore);
            tally = SellTally(r.sellOk, r.sellPoolReceived, r.sellExpected, r.sellReceived, r.sellDropPpm, r.sellError);
        } else {
            uint256 held = _balance(p.token, msg.sender);
            activePayer = msg.sender;
            _sellSized(p, r, held - held / 1000, msg.sender, SELL_QUARTERS);
            activePayer = address(0);
            if (r.sellOk) r.sellReceived = _gain(_balance(p.quote, msg.sender), quoteBefore);
        }
        r.sellGas = g - gasleft();
    }

    /// @notice Wallet path, router sell: sells `ppm` millionths of the
    /// caller's holding the way a DEX router does (Uniswap V2's
    /// swapExactTokensForETHSupportingFeeOnTransferTokens): this contract,
    /// approved by the caller, moves the tokens with transferFrom(caller,
    /// pool, amount) and swaps what the pool received to the caller. The
    /// token sees a router's sell: msg.sender the router, from the wallet,
    /// tx.origin the wallet (a trap on transferFrom alone, which a direct
    /// transfer never meets, shows here). With `exact` that size alone is
    /// tried (the whole holding against 99.9% of it); otherwise a refused
    /// size is retried at a quarter, as every sell is.
    /// @return r the sell's measurements; held the caller's holding before.
    function routeSellFrom(Params calldata p, uint256 ppm, bool exact) external returns (Result memory r, uint256 held) {
        held = _balance(p.token, msg.sender);
        uint256 quoteBefore = _balance(p.quote, msg.sender);
        if (ppm > PPM) ppm = PPM;
        uint256 amount = (held / PPM) * ppm + ((held % PPM) * ppm) / PPM;
        _mark(p);
        activePayer = msg.sender;
        uint256 g = gasleft();
        _sellSized(p, r, amount, msg.sender, exact ? 0 : SELL_QUARTERS);
        r.sellGas = g - gasleft();
        activePayer = address(0);
        if (r.sellOk) {
            r.sellError = "";
            r.sellReceived = _gain(_balance(p.quote, msg.sender), quoteBefore);
        }
    }

    /// @dev Gets p.amountIn of the quote token: wraps native, and when the
    /// quote is another token buys exactly that much of it on fundPool.
    function _fund(Params calldata p) private returns (uint256 quoteIn, bytes memory err) {
        if (p.quote == p.wrapped) {
            ISimWrapped(p.wrapped).deposit{value: p.amountIn}();
            return (p.amountIn, "");
        }
        if (p.fundPool == address(0)) return (0, bytes("simulator: no funding pool for the quote token"));
        (uint256 rW, uint256 rQ, bool w0) = _reserves(p.fundPool, p.wrapped);
        if (p.amountIn >= rQ || rW == 0 || p.feeBps >= 10000) return (0, bytes("simulator: funding pool too shallow"));
        // Uniswap's getAmountIn, plus a 1% margin for a different pool fee.
        uint256 wrappedIn = ((rW * p.amountIn * 10000) / ((rQ - p.amountIn) * (10000 - p.feeBps)) + 1) * 101 / 100;
        if (wrappedIn > address(this).balance) return (0, bytes("simulator: not enough native to fund"));
        ISimWrapped(p.wrapped).deposit{value: wrappedIn}();
        if (!_send(p.wrapped, p.fundPool, wrappedIn)) return (0, bytes("simulator: funding transfer failed"));
        uint256 before = _balance(p.quote, address(this));
        (bool ok, bytes memory ret) = p.fundPool.call{gas: p.gasPerStep}(
            abi.encodeCall(ISimV2Pair.swap, (w0 ? 0 : p.amountIn, w0 ? p.amountIn : 0, address(this), ""))
        );
        if (!ok) return (0, ret);
        return (_gain(_balance(p.quote, address(this)), before), "");
    }

    /// @dev Buys with p.amountIn of the quote; the pool pays `trader`.
    function _buy(Params calldata p, Result memory r, address trader) private {
        (uint256 quoteIn, bytes memory err) = _fund(p);
        if (quoteIn == 0) {
            r.buyError = err;
            return;
        }
        r.quoteSpent = quoteIn;
        uint256 before = _balance(p.token, trader);
        uint256 g = gasleft();
        if (p.poolKind == 1) {
            if (!_send(p.quote, p.pool, quoteIn)) {
                r.buyError = bytes("simulator: quote transfer to pool failed");
                return;
            }
            _v2Buy(p, r, quoteIn, trader);
        } else {
            // Exact input: a refused size is retried with half the quote.
            uint256 amount = quoteIn;
            for (uint256 i = 0; i <= BUY_HALVINGS && amount > 0 && !r.buyOk; i++) {
                (bool ok, bytes memory ret, uint256 sent) = _v3Swap(p.pool, p.quote, amount, p.gasPerStep, trader);
                if (ok) {
                    r.buyOk = true;
                    r.buyExpected = sent;
                    if (i > 0) r.buyRefused = amount * 2;
                } else if (i == 0) {
                    r.buyError = ret;
                }
                amount /= 2;
            }
        }
        r.buyGas = g - gasleft();
        if (r.buyOk) {
            r.buyError = "";
            r.buyReceived = _gain(_balance(p.token, trader), before);
        }
    }

    /// @dev Swaps the quote already paid into a V2 pool for the token, to
    /// `trader`: full size; then a margin for a pool fee above the
    /// configured one; then half the size at a time, under a
    /// max-transaction limit (the pool keeps the quote paid for the full
    /// size, which only moves its price by that much).
    function _v2Buy(Params calldata p, Result memory r, uint256 quoteIn, address trader) private {
        (uint256 rIn, uint256 rOut, bool quoteIs0) = _reserves(p.pool, p.quote);
        uint256 out = _amountOut(quoteIn, rIn, rOut, p.feeBps);
        r.buyFull = out;
        uint256 ask = out;
        for (uint256 i = 0; i <= BUY_HALVINGS + 1 && ask > 0 && !r.buyOk; i++) {
            (bool ok, bytes memory ret) = p.pool.call{gas: p.gasPerStep}(
                abi.encodeCall(ISimV2Pair.swap, (quoteIs0 ? 0 : ask, quoteIs0 ? ask : 0, trader, ""))
            );
            if (ok) {
                r.buyOk = true;
                r.buyExpected = ask;
                if (i > 1) r.buyRefused = ask * 2;
            } else if (i == 0) {
                r.buyError = ret;
            }
            ask = i == 0 ? (out * 99) / 100 : (out * 99) / (100 << i);
        }
    }

    function _transferTest(Params calldata p, Result memory r) private {
        uint256 held = _balance(p.token, address(this));
        r.transferSent = held / 10;
        if (r.transferSent == 0) {
            r.transferError = bytes("simulator: nothing to transfer");
            return;
        }
        uint256 before = _balance(p.token, p.recipient);
        (bool ok, bytes memory ret) = p.token.call{gas: p.gasPerStep}(abi.encodeWithSelector(0xa9059cbb, p.recipient, r.transferSent));
        if (_succeeded(ok, ret)) {
            r.transferOk = true;
            r.transferReceived = _gain(_balance(p.token, p.recipient), before);
        } else {
            r.transferError = ok ? bytes("simulator: transfer returned false") : ret;
        }
    }

    function _sell(Params calldata p, Result memory r) private {
        // 99.9% of the holding: some tokens refuse to sell a wallet empty.
        uint256 held = _balance(p.token, address(this));
        uint256 quoteBefore = _balance(p.quote, address(this));
        uint256 g = gasleft();
        _sellSized(p, r, held - held / 1000, address(this), SELL_QUARTERS);
        r.sellGas = g - gasleft();
        if (r.sellOk) {
            r.sellError = "";
            r.sellReceived = _gain(_balance(p.quote, address(this)), quoteBefore);
        }
    }

    /// @dev Sells `amount` of the token from this contract (or, with
    /// activePayer set, from the payer by transferFrom, as a router does);
    /// when the token refuses the transfer, a quarter of the size at a
    /// time, up to `quarters` times. The full size's failure is the one
    /// reported.
    function _sellSized(Params calldata p, Result memory r, uint256 amount, address to, uint256 quarters) private {
        if (amount == 0) {
            r.sellError = bytes("simulator: nothing to sell");
            return;
        }
        for (uint256 i = 0; i <= quarters && amount > 0; i++) {
            bool ok;
            bytes memory ret;
            uint256 sent;
            if (p.poolKind == 1) {
                if (activePayer == address(0)) {
                    (ok, ret) = p.token.call{gas: p.gasPerStep}(abi.encodeWithSelector(0xa9059cbb, p.pool, amount));
                } else {
                    (ok, ret) = p.token.call{gas: p.gasPerStep}(abi.encodeWithSelector(0x23b872dd, activePayer, p.pool, amount));
                }
                if (ok && !_succeeded(ok, ret)) {
                    ok = false;
                    ret = bytes("simulator: transfer to pool returned false");
                }
            } else {
                (ok, ret, sent) = _v3Swap(p.pool, p.token, amount, p.gasPerStep, to);
            }
            if (ok) {
                r.sellSent = amount;
                if (i > 0) r.sellRefused = amount << (2 * i);
                if (p.poolKind == 1) {
                    _swapPoolExcess(p, r, to);
                } else {
                    r.sellOk = true;
                    r.sellPoolReceived = amount;
                    r.sellExpected = sent;
                }
                return;
            }
            if (i == 0) r.sellError = ret;
            amount /= 4;
        }
    }

    /// @dev Swaps what a V2 pool holds of the token above its reserve for the
    /// quote, paid to `to`, adding to r's sell measurements. The pool's
    /// reserves are read after the seller's transfer, before the swap: a
    /// token that sold its own fees inside the transfer has moved them
    /// already, so the seller's price is the one the seller really gets,
    /// and that move is recorded apart as sellDropPpm.
    function _swapPoolExcess(Params calldata p, Result memory r, address to) private returns (bool ok) {
        (uint256 rIn, uint256 rOut, bool tokenIs0) = _reserves(p.pool, p.token);
        uint256 drop = _drop(markToken, markQuote, rIn, rOut);
        if (drop > r.sellDropPpm) r.sellDropPpm = drop;
        uint256 got = _gain(_balance(p.token, p.pool), rIn);
        uint256 out = _amountOut(got, rIn, rOut, p.feeBps);
        if (out == 0) {
            r.sellError = bytes("simulator: pool received nothing");
            return false;
        }
        uint256[2] memory tries = [out, (out * 99) / 100];
        for (uint256 i = 0; i < tries.length; i++) {
            bytes memory ret;
            (ok, ret) = p.pool.call{gas: p.gasPerStep}(
                abi.encodeCall(ISimV2Pair.swap, (tokenIs0 ? 0 : tries[i], tokenIs0 ? tries[i] : 0, to, ""))
            );
            if (ok) {
                r.sellOk = true;
                r.sellPoolReceived += got;
                r.sellExpected += tries[i];
                (markToken, markQuote,) = _reserves(p.pool, p.token);
                return true;
            }
            if (i == 0) r.sellError = ret;
        }
    }

    /// @dev Records the pool's reserves as the price later drops are
    /// measured from, after syncing away any balance above them (a
    /// reflection token credits the pool without a transfer, which is no
    /// part of a later seller's sale); returns the drop since the previous
    /// mark. V2-style pools only (a V3 sell is priced before the token's
    /// transfer runs, so a token's own swap cannot move it).
    function _mark(Params calldata p) private returns (uint256 dropPpm) {
        if (p.poolKind != 1) return 0;
        (uint256 rT, uint256 rQ,) = _reserves(p.pool, p.token);
        dropPpm = _drop(markToken, markQuote, rT, rQ);
        (bool synced,) = p.pool.call{gas: p.gasPerStep}(abi.encodeCall(ISimV2Pair.sync, ()));
        synced; // a pool without sync() keeps its reserves: measured as they are
        (markToken, markQuote,) = _reserves(p.pool, p.token);
    }

    /// @dev The token's price drop, in ppm, from reserves (t0, q0) to (t1,
    /// q1); 0 when it rose or a reserve is unknown.
    function _drop(uint256 t0, uint256 q0, uint256 t1, uint256 q1) private pure returns (uint256) {
        if (t0 == 0 || q0 == 0 || t1 == 0) return 0;
        // Reserves are uint112, so the products fit.
        uint256 ratio = (q1 * t0 * PPM) / (t1 * q0);
        return ratio >= PPM ? 0 : PPM - ratio;
    }

    /// @dev Swaps exact `amountIn` of `payToken` on a V3 pool, paying `to`;
    /// returns what the pool says it sent.
    function _v3Swap(address pool, address payToken, uint256 amountIn, uint256 gasCap, address to)
        private
        returns (bool ok, bytes memory ret, uint256 sent)
    {
        (bool t0ok, bytes memory t0) = pool.staticcall(abi.encodeCall(ISimV3Pool.token0, ()));
        if (!t0ok || t0.length < 32) return (false, bytes("simulator: pool token0 failed"), 0);
        bool zeroForOne = abi.decode(t0, (address)) == payToken;
        activePool = pool;
        activePayToken = payToken;
        (ok, ret) = pool.call{gas: gasCap}(
            abi.encodeCall(
                ISimV3Pool.swap,
                (to, zeroForOne, int256(amountIn), zeroForOne ? MIN_SQRT_RATIO_PLUS_ONE : MAX_SQRT_RATIO_MINUS_ONE, "")
            )
        );
        activePool = address(0);
        if (ok && ret.length >= 64) {
            (int256 a0, int256 a1) = abi.decode(ret, (int256, int256));
            int256 out = zeroForOne ? -a1 : -a0;
            sent = out > 0 ? uint256(out) : 0;
        }
    }

    /// @notice Uniswap V3 (and PancakeSwap V3) swap callback: pays the pool.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _pay(amount0Delta, amount1Delta);
    }

    /// @notice PancakeSwap V3 names its callback differently.
    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        _pay(amount0Delta, amount1Delta);
    }

    function _pay(int256 amount0Delta, int256 amount1Delta) private {
        require(msg.sender == activePool, "simulator: unexpected callback");
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        if (activePayer == address(0)) {
            require(_send(activePayToken, msg.sender, owed), "simulator: callback payment failed");
            return;
        }
        (bool ok, bytes memory ret) =
            activePayToken.call(abi.encodeWithSelector(0x23b872dd, activePayer, msg.sender, owed));
        if (!ok) {
            // The token's own reason, so the report names what refused the sell.
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        require(_succeeded(ok, ret), "simulator: transferFrom returned false");
    }

    /// @dev Reserves of a V2 pool ordered (reserve of `tokenIn`, other), and
    /// whether tokenIn is token0.
    function _reserves(address pool, address tokenIn) private view returns (uint256 rIn, uint256 rOut, bool in0) {
        (uint112 r0, uint112 r1,) = ISimV2Pair(pool).getReserves();
        in0 = ISimV2Pair(pool).token0() == tokenIn;
        (rIn, rOut) = in0 ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    function _amountOut(uint256 amountIn, uint256 rIn, uint256 rOut, uint256 feeBps) private pure returns (uint256) {
        if (amountIn == 0 || rIn == 0 || rOut == 0 || feeBps >= 10000) return 0;
        uint256 inWithFee = amountIn * (10000 - feeBps);
        return (inWithFee * rOut) / (rIn * 10000 + inWithFee);
    }

    function _balance(address token, address who) private view returns (uint256) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(0x70a08231, who));
        if (!ok || ret.length < 32) return 0;
        return abi.decode(ret, (uint256));
    }

    function _send(address token, address to, uint256 amount) private returns (bool) {
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        return _succeeded(ok, ret);
    }

    /// @dev A token call succeeded: it did not revert and returned nothing
    /// (USDT style) or a non-zero word.
    function _succeeded(bool ok, bytes memory ret) private pure returns (bool) {
        if (!ok) return false;
        if (ret.length == 0) return true;
        return ret.length >= 32 && abi.decode(ret, (uint256)) != 0;
    }

    function _gain(uint256 afterAmount, uint256 beforeAmount) private pure returns (uint256) {
        return afterAmount > beforeAmount ? afterAmount - beforeAmount : 0;
    }

    receive() external payable {}
}
