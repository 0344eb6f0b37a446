// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Privilege prober, placed by state override AT the address under
/// test (the token's owner or another stored address), so that its calls
/// to the token carry that address as msg.sender. A "victim" holder and
/// the donors run the same code in their own accounts through a forwarder
/// that DELEGATECALLs to the caller (Go: probe.forwarderCode). Nothing is
/// ever deployed.
///
/// run() gives the victim some tokens from a donor, measures the token's
/// observable state (supply, the victim's balance, owner(), whether the
/// victim can transfer to a wallet and to the pool, and at what loss), then
/// for each candidate call: makes the call as the caller, measures again,
/// and rolls everything back by reverting the frame with the measurement as
/// revert data. Comparing each measurement with the baseline proves what
/// the call can do, whatever the function is named.
contract Prober {
    struct Measure {
        uint256 totalSupply;
        uint256 victimBalance;
        bool ownerOk;
        address owner;
        bool walletOk;
        uint256 walletSent;
        uint256 walletReceived;
        bool sellOk;
        uint256 sellSent;
        uint256 sellReceived;
        bool tinyOk;
        uint256 hits;
        uint256 callerBalance; // this address's tokens
        uint256 tokenBalance; // the token contract's own tokens
        uint256[] balances; // the watched addresses' tokens, before the test transfers
        uint256 poolOther; // the pool's reserve of its other token (a trade moves it, a seizure does not)
    }

    /// @notice What run() watches and how it fills argument placeholders.
    struct Plan {
        // Addresses whose balances every measurement reads (the victim,
        // top holders, the pool, the creator…).
        address[] watch;
        // groups[i] != 0 ties consecutive calls into a ladder: once one
        // call of a group went through, the rest of it are skipped.
        uint256[] groups;
        // stock[i]: the call runs once the token contract itself holds
        // tokens (half the victim's, given before the first such call and
        // kept): it tests whether a caller can take what the contract
        // holds. These calls come last; they are measured against a
        // second baseline taken after the gift.
        bool[] stock;
    }

    struct Outcome {
        bool complete; // false: the probe frame ran out of gas
        bool ok; // the candidate call did not revert
        uint256 gasUsed;
        bytes ret; // its revert data (truncated)
        Measure m;
    }

    /// @notice How to buy the victim some tokens from a V2 pool against the
    /// wrapped native when no donor can give any (this address needs a
    /// native balance, set by state override).
    struct Funding {
        address wrapped;
        uint256 feeBps;
    }

    bytes32 private constant MAGIC = keccak256("tokenrisk.prober.v1");
    // A slot no token layout uses (the victim may be a contract's address).
    bytes32 private constant HITS_SLOT = keccak256("tokenrisk.prober.hits");
    uint256 private constant MAX_RET = 256;
    // The victim's address (Go: evm.ProbeVictim): hash-derived, so no real
    // account lives there.
    address private constant VICTIM = address(uint160(uint256(keccak256("tokenrisk.probe.victim"))));
    // Argument placeholders (Go: evm.placeholder): a call data word whose
    // high 28 bytes are these is replaced, after the victim is funded, by
    // the total supply (code 1), a tenth of it (2), this address (3), the
    // token contract's own balance (4), or the balance of
    // watch[code - 0x100].
    bytes28 private constant PLACEHOLDER = bytes28(keccak256("tokenrisk.prober.placeholder"));
    // The forwarder the victim and the donors hold, around the address it
    // forwards to (Go: probe.forwarderCode).
    bytes9 private constant FORWARDER_HEAD = hex"365f5f375f5f365f73";
    bytes16 private constant FORWARDER_TAIL = hex"5af43d5f5f3e6029573d5ffd5b3d5ff3";

    /// @notice Funds the victim from the first donor that can pay, measures
    /// the baseline and runs each call in isolation.
    function run(
        address token,
        address victim,
        address sink,
        address pool,
        address[] calldata donors,
        Funding calldata funding,
        uint256 gasPerCall,
        bytes[] calldata calls,
        Plan calldata plan
    ) external returns (address funder, Measure memory base, Outcome[] memory outs) {
        funder = _fund(token, victim, donors);
        if (funder == address(0) && _buy(token, victim, pool, funding)) funder = pool;
        _watch = plan.watch;
        _run = Target(token, victim, sink, pool, gasPerCall);
        base = _isolatedMeasure();
        outs = _runCalls(calls, plan, base);
    }

    /// @dev The candidate calls, each in its own reverted frame; the
    /// stock calls (last) after the token contract is given tokens. One
    /// more outcome than calls: the last holds the baseline the stock
    /// calls are measured against (incomplete when there were none).
    function _runCalls(bytes[] calldata calls, Plan calldata plan, Measure memory base)
        private
        returns (Outcome[] memory outs)
    {
        outs = new Outcome[](calls.length + 1);
        Measure memory stockBase;
        uint256 doneGroup;
        bool stocked;
        for (uint256 i = 0; i < calls.length; i++) {
            // Keep enough gas to return what was measured; the rest stay
            // incomplete.
            if (gasleft() < 4_000_000) break;
            uint256 group = i < plan.groups.length ? plan.groups[i] : 0;
            if (group != 0 && group == doneGroup) continue;
            if (!stocked && i < plan.stock.length && plan.stock[i]) {
                stocked = true;
                stockBase = _stockUp();
            }
            bytes memory data = _fill(calls[i], stocked ? stockBase : base);
            try this.probeAndRevert(data) {}
            catch (bytes memory ret) {
                if (ret.length >= 32 * 4 && abi.decode(ret, (bytes32)) == MAGIC) {
                    (, bool ok, uint256 gasUsed, Measure memory m, bytes memory rdata) =
                        abi.decode(ret, (bytes32, bool, uint256, Measure, bytes));
                    outs[i] = Outcome(true, ok, gasUsed, rdata, m);
                    if (ok && group != 0) doneGroup = group;
                }
            }
        }
        if (stocked) outs[calls.length] = Outcome(true, true, 0, "", stockBase);
    }

    /// @dev Gives the token contract half the victim's tokens (kept for
    /// the rest of the run) and measures again.
    function _stockUp() private returns (Measure memory) {
        Target memory t = _run;
        uint256 bal = _balance(t.token, t.victim);
        if (bal > 1) Prober(payable(t.victim)).send(t.token, t.token, bal / 2);
        return _isolatedMeasure();
    }

    // The current run's parameters (reverted with everything else: run()
    // is only ever eth_called); kept in storage for the stack's sake.
    struct Target {
        address token;
        address victim;
        address sink;
        address pool;
        uint256 gasPerCall;
    }

    Target private _run;
    address[] private _watch;

    /// @dev Replaces argument placeholders with amounts known only now.
    function _fill(bytes calldata call, Measure memory base) private view returns (bytes memory data) {
        data = call;
        for (uint256 off = 4; off + 32 <= data.length; off += 32) {
            bytes32 w;
            assembly {
                w := mload(add(add(data, 32), off))
            }
            if (bytes28(w) != PLACEHOLDER) continue;
            uint256 code = uint256(w) & 0xffffffff;
            uint256 v;
            if (code == 1) v = base.totalSupply;
            else if (code == 2) v = base.totalSupply / 10;
            else if (code == 3) v = uint256(uint160(address(this)));
            else if (code == 4) v = base.tokenBalance;
            else if (code >= 0x100 && code - 0x100 < base.balances.length) v = base.balances[code - 0x100];
            assembly {
                mstore(add(add(data, 32), off), v)
            }
        }
    }

    /// @notice Makes one candidate call as this address, measures, reverts.
    function probeAndRevert(bytes calldata data) external {
        require(msg.sender == address(this), "prober: self only");
        Target memory t = _run;
        uint256 g = gasleft();
        (bool ok, bytes memory ret) = t.token.call{gas: t.gasPerCall}(data);
        uint256 used = g - gasleft();
        if (ret.length > MAX_RET) {
            assembly {
                mstore(ret, MAX_RET)
            }
        }
        // A call that reverted changed nothing: no need to measure.
        Measure memory m;
        if (ok) m = _measure(t.token, t.victim, t.sink, t.pool);
        bytes memory out = abi.encode(MAGIC, ok, used, m, ret);
        assembly {
            revert(add(out, 32), mload(out))
        }
    }

    /// @notice Measures and reverts (the transfers it makes are undone).
    function measureAndRevert() external {
        require(msg.sender == address(this), "prober: self only");
        Target memory t = _run;
        bytes memory out = abi.encode(MAGIC, _measure(t.token, t.victim, t.sink, t.pool));
        assembly {
            revert(add(out, 32), mload(out))
        }
    }

    function _isolatedMeasure() private returns (Measure memory m) {
        try this.measureAndRevert() {}
        catch (bytes memory data) {
            if (data.length >= 32 * 4 && abi.decode(data, (bytes32)) == MAGIC) {
                (, m) = abi.decode(data, (bytes32, Measure));
            }
        }
    }

    function _measure(address token, address victim, address sink, address pool) private returns (Measure memory m) {
        m.totalSupply = _word(token, abi.encodeWithSelector(0x18160ddd));
        m.victimBalance = _balance(token, victim);
        m.balances = new uint256[](_watch.length);
        for (uint256 i = 0; i < _watch.length; i++) {
            m.balances[i] = _balance(token, _watch[i]);
        }
        m.callerBalance = _balance(token, address(this));
        m.tokenBalance = _balance(token, token);
        if (pool != address(0)) m.poolOther = _otherReserve(token, pool);
        (bool ok, bytes memory ret) = token.staticcall{gas: 100000}(abi.encodeWithSelector(0x8da5cb5b));
        if (ok && ret.length >= 32) {
            m.ownerOk = true;
            m.owner = address(uint160(uint256(bytes32(ret))));
        }
        uint256 hitsBefore = Prober(payable(victim)).hits();
        m.walletSent = m.victimBalance / 4;
        uint256 before = _balance(token, sink);
        m.walletOk = Prober(payable(victim)).send(token, sink, m.walletSent);
        if (m.walletOk) m.walletReceived = _gain(_balance(token, sink), before);
        if (pool != address(0)) {
            m.sellSent = m.victimBalance / 4;
            before = _balance(token, pool);
            m.sellOk = Prober(payable(victim)).send(token, pool, m.sellSent);
            if (m.sellOk) m.sellReceived = _poolReceived(token, pool, before);
        }
        m.tinyOk = Prober(payable(victim)).send(token, sink, m.victimBalance > 0 ? 1 : 0);
        m.hits = Prober(payable(victim)).hits() - hitsBefore;
    }

    /// @dev A V2 pair's reserve of the token that is not `token` (0 when
    /// the pool answers no getReserves).
    function _otherReserve(address token, address pool) private view returns (uint256) {
        (bool ok, bytes memory ret) = pool.staticcall{gas: 50000}(abi.encodeWithSignature("getReserves()"));
        (bool ok0, bytes memory t0) = pool.staticcall{gas: 50000}(abi.encodeWithSignature("token0()"));
        if (!ok || !ok0 || ret.length < 64 || t0.length < 32) return 0;
        (uint256 r0, uint256 r1) = abi.decode(ret, (uint256, uint256));
        return abi.decode(t0, (address)) == token ? r1 : r0;
    }

    /// @dev What a transfer delivered to the pool: for a V2 pair its balance
    /// above its reserve (a token swapping its own fees mid-transfer syncs
    /// the reserves first), else the balance increase.
    function _poolReceived(address token, address pool, uint256 before) private view returns (uint256) {
        uint256 bal = _balance(token, pool);
        (bool ok, bytes memory ret) = pool.staticcall{gas: 50000}(abi.encodeWithSignature("getReserves()"));
        (bool ok0, bytes memory t0) = pool.staticcall{gas: 50000}(abi.encodeWithSignature("token0()"));
        if (ok && ok0 && ret.length >= 64 && t0.length >= 32) {
            (uint256 r0, uint256 r1) = abi.decode(ret, (uint256, uint256));
            uint256 reserve = abi.decode(t0, (address)) == token ? r0 : r1;
            return _gain(bal, reserve);
        }
        return _gain(bal, before);
    }

    function _fund(address token, address victim, address[] calldata donors) private returns (address) {
        uint256 supply = _word(token, abi.encodeWithSelector(0x18160ddd));
        for (uint256 i = 0; i < donors.length; i++) {
            uint256 bal = _balance(token, donors[i]);
            uint256 amount = bal / 100;
            if (amount > supply / 1000 && supply / 1000 > 0) amount = supply / 1000;
            if (amount == 0) continue;
            bool ok;
            if (donors[i] == address(this)) {
                ok = _transfer(token, victim, amount);
            } else {
                try Prober(payable(donors[i])).send(token, victim, amount) returns (bool s) {
                    ok = s;
                } catch {}
            }
            if (ok && _balance(token, victim) > 0) return donors[i];
        }
        return address(0);
    }

    function _buy(address token, address victim, address pool, Funding calldata f) private returns (bool) {
        if (pool == address(0) || f.wrapped == address(0) || f.feeBps >= 10000) return false;
        (bool ok, bytes memory ret) = pool.staticcall(abi.encodeWithSignature("token0()"));
        if (!ok || ret.length < 32) return false;
        bool wrapped0 = abi.decode(ret, (address)) == f.wrapped;
        if (!wrapped0 && abi.decode(ret, (address)) != token) return false;
        (uint256 amountIn, uint256 out) = _quote(pool, wrapped0, f.feeBps);
        if (out == 0 || address(this).balance < amountIn) return false;
        (ok,) = f.wrapped.call{value: amountIn}(abi.encodeWithSignature("deposit()"));
        if (!ok || !_transfer(f.wrapped, pool, amountIn)) return false;
        (ok,) = pool.call{gas: 2_000_000}(
            abi.encodeWithSignature("swap(uint256,uint256,address,bytes)", wrapped0 ? 0 : out, wrapped0 ? out : 0, victim, "")
        );
        return ok && _balance(token, victim) > 0;
    }

    /// @dev A buy of 0.3% of the pool's wrapped reserve and 99% of what the
    /// constant-product formula gives for it.
    function _quote(address pool, bool wrapped0, uint256 feeBps) private view returns (uint256 amountIn, uint256 out) {
        (bool ok, bytes memory ret) = pool.staticcall(abi.encodeWithSignature("getReserves()"));
        if (!ok || ret.length < 64) return (0, 0);
        (uint256 r0, uint256 r1) = abi.decode(ret, (uint256, uint256));
        (uint256 rIn, uint256 rOut) = wrapped0 ? (r0, r1) : (r1, r0);
        amountIn = (rIn * 30) / 10000;
        if (amountIn == 0 || rOut == 0) return (0, 0);
        uint256 inWithFee = amountIn * (10000 - feeBps);
        out = (((inWithFee * rOut) / (rIn * 10000 + inWithFee)) * 99) / 100;
    }

    /// @notice Transfers `amount` of `token` from this address (used on the
    /// victim and donors).
    function send(address token, address to, uint256 amount) external returns (bool) {
        return _transfer(token, to, amount);
    }

    /// @notice How many unknown calls this address received (a token
    /// calling a target it was told to use).
    function hits() external view returns (uint256 n) {
        bytes32 slot = HITS_SLOT;
        assembly {
            n := sload(slot)
        }
    }

    function _transfer(address token, address to, uint256 amount) private returns (bool) {
        (bool ok, bytes memory ret) = token.call{gas: 1_000_000}(abi.encodeWithSelector(0xa9059cbb, to, amount));
        if (!ok) return false;
        if (ret.length == 0) return true;
        return ret.length >= 32 && abi.decode(ret, (uint256)) != 0;
    }

    function _balance(address token, address who) private view returns (uint256) {
        return _word(token, abi.encodeWithSelector(0x70a08231, who));
    }

    function _word(address token, bytes memory data) private view returns (uint256) {
        (bool ok, bytes memory ret) = token.staticcall{gas: 200000}(data);
        if (!ok || ret.length < 32) return 0;
        return abi.decode(ret, (uint256));
    }

    function _gain(uint256 afterAmount, uint256 beforeAmount) private pure returns (uint256) {
        return afterAmount > beforeAmount ? afterAmount - beforeAmount : 0;
    }

    /// @notice Counts one call into the victim's code.
    function hit() external {
        _count();
    }

    /// @notice Any other call (a token calling a hook it was pointed at)
    /// is answered with a true word, and counted on the victim when it
    /// reached the victim, or this code by DELEGATECALL from a contract
    /// (its account holds neither this code nor our forwarder to it);
    /// calls to the caller and to the donors are not the victim's. The
    /// victim and the donors run this code through a forwarder (Go:
    /// probe.forwarderCode). The count goes through a call, so a static
    /// context (where nothing can be counted) never makes the token revert.
    fallback(bytes calldata) external payable returns (bytes memory) {
        if (address(this) == VICTIM || !_ours()) {
            (bool ok,) = VICTIM.call{gas: 50000}(abi.encodeWithSignature("hit()"));
            ok;
        }
        return abi.encode(uint256(1));
    }

    /// @dev Whether the account running this code is one of the probe's:
    /// it holds this code (the caller), or our forwarder to an account
    /// that does (the victim, the donors). A token running this code by
    /// DELEGATECALL is neither.
    function _ours() private view returns (bool) {
        uint256 size;
        bytes32 own;
        assembly {
            size := codesize()
            let p := mload(0x40)
            codecopy(p, 0, size)
            own := keccak256(p, size)
        }
        bytes32 here = address(this).codehash;
        if (here == own) return true;
        bytes memory code = address(this).code;
        if (code.length != 45) return false;
        address impl;
        assembly {
            impl := shr(96, mload(add(code, 41))) // code[9:29]: the address after PUSH20
        }
        return here == keccak256(abi.encodePacked(FORWARDER_HEAD, impl, FORWARDER_TAIL)) && impl.codehash == own;
    }

    function _count() private {
        bytes32 slot = HITS_SLOT;
        assembly {
            sstore(slot, add(sload(slot), 1))
        }
    }

    receive() external payable {}
}
