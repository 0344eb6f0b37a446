// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IV4ERC20} from "./V4Types.sol";

/// @title Proves a Uniswap V4 hook's owner powers by simulation. Placed by
/// state override at the caller's own address (the hook's owner, or an
/// address stored in the hook), so every call it makes to the hook carries
/// the caller as msg.sender. Each probe runs in a frame that reverts after
/// measuring, so the probes never see each other's effects: the caller's
/// call to the hook, the PoolManager's balances of both currencies around
/// it (a drain), then the V4 simulator's buy, transfer and sell through the
/// pool (its raw answer). A numeric setter is searched first: the largest
/// value in [0, 1e18] it accepts (or the top of uint256), then simulated at
/// that value and at every "100%" of the usual units below it (percent,
/// basis points, hundredths of a bp, 1e18).
contract HookProber {
    struct Probe {
        bytes data; // the call to the hook; empty: no call (the baseline)
        uint256[] valueWords; // word indexes (after the selector) a search fills with its value
    }

    struct Params {
        address hook;
        address manager;
        address currency0;
        address currency1;
        address simulator; // V4Simulator, placed by state override
        bytes simulation; // the simulator's calldata
        uint256 callGas;
        Probe[] probes;
    }

    struct Outcome {
        uint256 probe; // index in Params.probes
        uint256 value; // the value a search filled in (0 otherwise)
        bool called; // the hook accepted the call (true for the baseline)
        bytes callError;
        uint256 manager0Before;
        uint256 manager0After;
        uint256 manager1Before;
        uint256 manager1After;
        bool simulated;
        bytes simulation; // the simulator's raw answer
    }

    error ProbeOutcome(Outcome o);
    error Accepted(bool ok);

    uint256 private constant SEARCH_TOP = 1e18;

    function probe(Params calldata p) external returns (Outcome[] memory out) {
        Outcome[] memory buf = new Outcome[](p.probes.length * 6);
        uint256 n = 0;
        for (uint256 i = 0; i < p.probes.length; i++) {
            Probe calldata pr = p.probes[i];
            if (pr.valueWords.length == 0) {
                buf[n++] = _run(p, i, pr.data, 0);
                continue;
            }
            uint256 top = _largestAccepted(p, pr);
            uint256[4] memory units = [uint256(100), 10_000, 1_000_000, 1e18];
            for (uint256 u = 0; u < units.length; u++) {
                if (units[u] < top) buf[n++] = _run(p, i, _fill(pr, units[u]), units[u]);
            }
            buf[n++] = _run(p, i, _fill(pr, top), top);
        }
        out = new Outcome[](n);
        for (uint256 i = 0; i < n; i++) {
            out[i] = buf[i];
        }
    }

    /// @dev The largest value the hook accepts for a numeric setter: the top
    /// of uint256 when it accepts that, else a binary search of [0, 1e18]
    /// (0 when it accepts none).
    function _largestAccepted(Params calldata p, Probe calldata pr) private returns (uint256) {
        if (_accepts(p, _fill(pr, type(uint256).max))) return type(uint256).max;
        if (_accepts(p, _fill(pr, SEARCH_TOP))) return SEARCH_TOP;
        uint256 lo = 0;
        uint256 hi = SEARCH_TOP;
        while (hi - lo > 1) {
            uint256 mid = lo + (hi - lo) / 2;
            if (_accepts(p, _fill(pr, mid))) lo = mid;
            else hi = mid;
        }
        return lo;
    }

    function _accepts(Params calldata p, bytes memory data) private returns (bool) {
        try this.tryCall(p.hook, data, p.callGas) {
            return false;
        } catch (bytes memory reason) {
            if (reason.length == 36 && bytes4(reason) == Accepted.selector) return reason[35] != 0;
            return false;
        }
    }

    /// @notice Calls the hook and reverts with whether it accepted.
    function tryCall(address hook, bytes calldata data, uint256 gasCap) external {
        require(msg.sender == address(this), "hook prober: internal");
        (bool ok,) = hook.call{gas: gasCap}(data);
        revert Accepted(ok);
    }

    function _run(Params calldata p, uint256 i, bytes memory data, uint256 value) private returns (Outcome memory o) {
        try this.step(p, data) {
            o.callError = bytes("hook prober: the step did not revert with its outcome");
        } catch (bytes memory reason) {
            if (reason.length >= 4 && bytes4(reason) == ProbeOutcome.selector) {
                bytes memory body = new bytes(reason.length - 4);
                for (uint256 k = 0; k < body.length; k++) {
                    body[k] = reason[k + 4];
                }
                o = abi.decode(body, (Outcome));
            } else {
                o.callError = reason;
            }
        }
        o.probe = i;
        o.value = value;
    }

    /// @notice One probe: the caller's call to the hook, the PoolManager's
    /// balances around it, then the simulation; reverts with the outcome.
    function step(Params calldata p, bytes memory data) external {
        require(msg.sender == address(this), "hook prober: internal");
        Outcome memory o;
        o.manager0Before = _balance(p.currency0, p.manager);
        o.manager1Before = _balance(p.currency1, p.manager);
        if (data.length == 0) {
            o.called = true;
        } else {
            bytes memory ret;
            (o.called, ret) = p.hook.call{gas: p.callGas}(data);
            if (!o.called) o.callError = ret;
        }
        o.manager0After = _balance(p.currency0, p.manager);
        o.manager1After = _balance(p.currency1, p.manager);
        if (o.called) {
            (o.simulated, o.simulation) = p.simulator.call(p.simulation);
        }
        revert ProbeOutcome(o);
    }

    function _fill(Probe calldata pr, uint256 v) private pure returns (bytes memory data) {
        data = pr.data;
        for (uint256 k = 0; k < pr.valueWords.length; k++) {
            uint256 at = 4 + 32 * pr.valueWords[k];
            require(at + 32 <= data.length, "hook prober: value word out of range");
            assembly {
                mstore(add(add(data, 32), at), v)
            }
        }
    }

    function _balance(address currency, address who) private view returns (uint256) {
        if (currency == address(0)) return who.balance;
        (bool ok, bytes memory ret) = currency.staticcall(abi.encodeCall(IV4ERC20.balanceOf, (who)));
        return ok && ret.length >= 32 ? abi.decode(ret, (uint256)) : 0;
    }
}
