// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {V4PoolKey, V4SwapParams, V4ModifyLiquidityParams, IV4PoolManager, IV4UnlockCallback, IV4ERC20, V4Delta} from "./V4Types.sol";

/// @title The honeypot simulation through a Uniswap V4 pool, with every hook
/// the pool has running as it would for a user. Placed by state override;
/// one eth_call. It takes the PoolManager's lock (unlock -> unlockCallback),
/// buys the token with exact input, takes it (the token's own transfer from
/// the PoolManager), transfers half to a second address, pays the rest back
/// (sync, transfer, settle: what the PoolManager counts as paid) and sells
/// that with exact input, taking the quote. Every swap is repeated on a
/// hook-free twin of the pool (same currencies and price, the pool's
/// current LP fee, its in-range liquidity over the full range, a tick
/// spacing no real pool of the key uses), so what the hook took shows apart
/// from the token's own tax. Nothing is paid for: the callback reverts with
/// the measurements, so no delta is ever settled and no state is kept.
contract V4Simulator is IV4UnlockCallback {
    using V4Delta for int256;

    uint160 private constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 private constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;
    int24 private constant MAX_TICK = 887272;
    bytes32 private constant POOLS_SLOT = bytes32(uint256(6));

    struct Params {
        IV4PoolManager manager;
        V4PoolKey key;
        address token;
        uint256 amountIn; // quote currency to spend on the buy; 0: buyBps of the pool's quote-side virtual reserve
        uint256 buyBps; // the buy's size when amountIn is 0 (basis points)
        address recipient; // the transfer test's receiver
        uint256 gasPerStep;
    }

    struct Result {
        bool buyOk;
        bytes buyError;
        uint256 buyGas;
        uint256 buyCredit; // token the swap credited (after the hook's delta)
        uint256 buyTwin; // token the hook-free twin credited for the same input
        uint256 buyReceived; // token balance increase when taken
        bool transferOk;
        bytes transferError;
        uint256 transferGas;
        uint256 transferSent;
        uint256 transferReceived;
        bool sellOk;
        bytes sellError;
        uint256 sellGas;
        uint256 sellSent; // token sent to the PoolManager
        uint256 sellPaid; // what the PoolManager counted as paid (settle)
        uint256 sellCredit; // quote the swap credited (after the hook's delta)
        uint256 sellTwin; // quote the twin credited for the same token
        uint256 sellReceived; // quote balance increase when taken
        bool twinOk; // the twin could be built (else buyTwin/sellTwin are 0)
        uint24 lpFee; // the pool's LP fee now (hundredths of a bp)
        uint256 amountIn; // the quote the buy spent
    }

    error V4SimResult(Result r);

    /// @notice Runs the simulation; never reverts on a failed step.
    function simulate(Params calldata p) external returns (Result memory r) {
        try p.manager.unlock(abi.encode(p)) {
            r.buyError = bytes("v4 simulator: the callback did not revert with its result");
        } catch (bytes memory reason) {
            if (reason.length >= 4 && bytes4(reason) == V4SimResult.selector) {
                bytes memory body = new bytes(reason.length - 4);
                for (uint256 i = 0; i < body.length; i++) {
                    body[i] = reason[i + 4];
                }
                return abi.decode(body, (Result));
            }
            r.buyError = reason;
        }
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        Params memory p = abi.decode(data, (Params));
        require(msg.sender == address(p.manager), "v4 simulator: only the PoolManager");
        Result memory r;
        (V4PoolKey memory twin, uint160 sqrtPrice, uint128 liquidity) = _twin(p, r);
        bool tokenIs0 = p.key.currency0 == p.token;
        if (p.amountIn == 0) p.amountIn = _size(sqrtPrice, liquidity, tokenIs0, p.buyBps);
        r.amountIn = p.amountIn;
        if (_buy(p, twin, r, tokenIs0)) {
            _transfer(p, r);
            _sell(p, twin, r, tokenIs0);
        }
        revert V4SimResult(r);
    }

    /// @dev Buy: quote in, token out, taken from the PoolManager.
    function _buy(Params memory p, V4PoolKey memory twin, Result memory r, bool tokenIs0) private returns (bool) {
        uint256 g = gasleft();
        (bool ok, int256 d, bytes memory err) = _swap(p.manager, p.key, !tokenIs0, p.amountIn, p.gasPerStep);
        r.buyGas = g - gasleft();
        if (!ok) {
            r.buyError = err;
            return false;
        }
        r.buyCredit = _credit(d, tokenIs0);
        if (r.twinOk) r.buyTwin = _twinCredit(p, twin, !tokenIs0, p.amountIn);
        uint256 before = _balance(p.token, address(this));
        try p.manager.take{gas: p.gasPerStep}(p.token, address(this), r.buyCredit) {
            r.buyReceived = _balance(p.token, address(this)) - before;
            r.buyOk = r.buyReceived > 0;
            if (!r.buyOk) r.buyError = bytes("v4 simulator: the buy delivered no token");
        } catch (bytes memory e) {
            r.buyError = e;
        }
        return r.buyOk;
    }

    /// @dev Transfers half of what was bought to a second address.
    function _transfer(Params memory p, Result memory r) private {
        r.transferSent = r.buyReceived / 2;
        uint256 before = _balance(p.token, p.recipient);
        uint256 g = gasleft();
        try IV4ERC20(p.token).transfer{gas: p.gasPerStep}(p.recipient, r.transferSent) returns (bool t) {
            r.transferOk = t;
            r.transferReceived = _balance(p.token, p.recipient) - before;
            if (!t) r.transferError = bytes("v4 simulator: transfer returned false");
        } catch (bytes memory e) {
            r.transferError = e;
        }
        r.transferGas = g - gasleft();
    }

    /// @dev Sells what is left: pays it to the PoolManager, swaps what it
    /// counted as paid, takes the quote.
    function _sell(Params memory p, V4PoolKey memory twin, Result memory r, bool tokenIs0) private {
        r.sellSent = _balance(p.token, address(this));
        uint256 g = gasleft();
        try this.pay(p.manager, p.token, r.sellSent) returns (uint256 paid) {
            r.sellPaid = paid;
        } catch (bytes memory e) {
            r.sellGas = g - gasleft();
            r.sellError = e;
            return;
        }
        (bool ok, int256 d, bytes memory err) = _swap(p.manager, p.key, tokenIs0, r.sellPaid, p.gasPerStep);
        if (!ok) {
            r.sellGas = g - gasleft();
            r.sellError = err;
            return;
        }
        r.sellCredit = _credit(d, !tokenIs0);
        address quote = tokenIs0 ? p.key.currency1 : p.key.currency0;
        uint256 before = _balance(quote, address(this));
        try p.manager.take{gas: p.gasPerStep}(quote, address(this), r.sellCredit) {
            r.sellReceived = _balance(quote, address(this)) - before;
            r.sellOk = true;
        } catch (bytes memory e) {
            r.sellError = e;
        }
        r.sellGas = g - gasleft();
        if (r.twinOk) r.sellTwin = _twinCredit(p, twin, tokenIs0, r.sellPaid);
    }

    /// @notice Pays `amount` of `token` to the PoolManager (sync, transfer,
    /// settle) and returns what it counted. External so that a token that
    /// refuses the transfer unwinds this step alone.
    function pay(IV4PoolManager manager, address token, uint256 amount) external returns (uint256) {
        require(msg.sender == address(this), "v4 simulator: internal");
        manager.sync(token);
        require(IV4ERC20(token).transfer(address(manager), amount), "v4 simulator: transfer to the PoolManager returned false");
        return manager.settle();
    }

    receive() external payable {}

    /// @dev Builds the hook-free twin: the pool's price and in-range
    /// liquidity over the full range, its current LP fee as a static fee.
    /// The liquidity is never paid for (the callback reverts).
    function _twin(Params memory p, Result memory r)
        private
        returns (V4PoolKey memory twin, uint160 sqrtPrice, uint128 liquidity)
    {
        bytes32 state = keccak256(abi.encode(keccak256(abi.encode(p.key)), POOLS_SLOT));
        uint256 slot0 = uint256(p.manager.extsload(state));
        liquidity = uint128(uint256(p.manager.extsload(bytes32(uint256(state) + 3))));
        sqrtPrice = uint160(slot0);
        r.lpFee = uint24(slot0 >> 208);
        if (sqrtPrice == 0 || liquidity == 0) return (twin, sqrtPrice, liquidity);
        twin = V4PoolKey(p.key.currency0, p.key.currency1, r.lpFee, 0, address(0));
        // A tick spacing no existing hook-free pool of these currencies and
        // fee uses: the first of a few that initializes.
        for (int24 spacing = 1; spacing <= 4; spacing++) {
            twin.tickSpacing = spacing;
            try p.manager.initialize(twin, sqrtPrice) {
                r.twinOk = _fill(p.manager, twin, liquidity);
                return (twin, sqrtPrice, liquidity);
            } catch {}
        }
    }

    /// @dev bps of the quote side's virtual reserve at the pool's price:
    /// L * sqrtP / 2^96 of currency1, L * 2^96 / sqrtP of currency0.
    function _size(uint160 sqrtPrice, uint128 liquidity, bool tokenIs0, uint256 bps) private pure returns (uint256) {
        if (sqrtPrice == 0 || liquidity == 0) return 0;
        uint256 quote = tokenIs0
            ? (uint256(liquidity) * sqrtPrice) >> 96
            : (uint256(liquidity) << 96) / sqrtPrice;
        return quote * bps / 10_000;
    }

    function _fill(IV4PoolManager manager, V4PoolKey memory twin, uint128 liquidity) private returns (bool) {
        int24 top = (MAX_TICK / twin.tickSpacing) * twin.tickSpacing;
        V4ModifyLiquidityParams memory mp = V4ModifyLiquidityParams(-top, top, int256(uint256(liquidity)), bytes32(0));
        try manager.modifyLiquidity(twin, mp, "") {
            return true;
        } catch {
            return false;
        }
    }

    /// @dev What the twin credits for amountIn (0 when its swap fails).
    function _twinCredit(Params memory p, V4PoolKey memory twin, bool zeroForOne, uint256 amountIn)
        private
        returns (uint256)
    {
        (bool ok, int256 d,) = _swap(p.manager, twin, zeroForOne, amountIn, p.gasPerStep);
        return ok ? _credit(d, !zeroForOne) : 0;
    }

    function _swap(IV4PoolManager manager, V4PoolKey memory key, bool zeroForOne, uint256 amountIn, uint256 gasCap)
        private
        returns (bool ok, int256 delta, bytes memory err)
    {
        if (amountIn == 0 || amountIn > uint256(type(int256).max)) return (false, 0, bytes("v4 simulator: nothing to swap"));
        V4SwapParams memory sp =
            V4SwapParams(zeroForOne, -int256(amountIn), zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT);
        try manager.swap{gas: gasCap}(key, sp, "") returns (int256 d) {
            return (true, d, "");
        } catch (bytes memory e) {
            return (false, 0, e);
        }
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
}
