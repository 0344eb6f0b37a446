// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Read-only lens for one token scan.
/// @notice Never deployed: the engine places its runtime code at a throwaway
/// address with an eth_call state override and calls scan() once. Every
/// external read is a staticcall with its own gas cap and a bounded copy of
/// the return data, so a hostile token can neither revert the lens nor
/// stall it. Return data is passed back raw; the engine decodes and
/// sanitises it.
contract Lens {
    /// Pool protocols (chains.DEX.Kind).
    uint8 internal constant KIND_V2 = 1;
    uint8 internal constant KIND_V3 = 2;
    uint8 internal constant KIND_SOLIDLY = 3;

    /// Return data beyond this many bytes is cut.
    uint256 internal constant MAX_RETURN = 512;

    struct Dex {
        uint8 kind;
        address factory;
        uint24[] fees;
    }

    /// A pair of tokens whose pools are looked up on every DEX; lp asks for
    /// the pools' LP supply and the LP balances of lpHolders.
    struct Pair {
        address a;
        address b;
        bool lp;
    }

    struct Request {
        address token;
        address[] holders;
        Dex[] dexes;
        Pair[] pairs;
        address[] lpHolders;
        uint256 gasPerCall;
    }

    /// One guarded call's outcome: success and (bounded) return or revert data.
    struct Raw {
        bool ok;
        bytes data;
    }

    struct Pool {
        uint16 pair;
        uint16 dex;
        uint24 fee;
        bool stable;
        address pool;
        Raw token0;
        Raw reserves;
        Raw balanceA;
        Raw balanceB;
        Raw lpSupply;
        Raw[] lpBalances;
    }

    struct Response {
        uint256 blockNumber;
        uint256 timestamp;
        Raw name;
        Raw symbol;
        Raw decimals;
        Raw totalSupply;
        Raw balanceProbe;
        Raw owner;
        Raw getOwner;
        Raw admin;
        /// Token balances of holders, then of the owner (or of the zero
        /// address when no owner was found).
        Raw[] balances;
        Pool[] pools;
    }

    function scan(Request calldata r) external view returns (Response memory) {
        return _scan(r);
    }

    function _scan(Request memory r) internal view returns (Response memory out) {
        uint256 g = r.gasPerCall;
        out.blockNumber = block.number;
        out.timestamp = block.timestamp;
        out.name = _call(r.token, abi.encodeWithSignature("name()"), g);
        out.symbol = _call(r.token, abi.encodeWithSignature("symbol()"), g);
        out.decimals = _call(r.token, abi.encodeWithSignature("decimals()"), g);
        out.totalSupply = _call(r.token, abi.encodeWithSignature("totalSupply()"), g);
        out.balanceProbe = _call(r.token, abi.encodeWithSignature("balanceOf(address)", address(0xdead)), g);
        out.owner = _call(r.token, abi.encodeWithSignature("owner()"), g);
        out.getOwner = _call(r.token, abi.encodeWithSignature("getOwner()"), g);
        out.admin = _call(r.token, abi.encodeWithSignature("admin()"), g);
        address owner = _addr(out.owner);
        if (owner == address(0)) {
            owner = _addr(out.getOwner);
        }
        if (owner == address(0)) {
            owner = _addr(out.admin);
        }

        out.balances = new Raw[](r.holders.length + 1);
        for (uint256 i = 0; i < r.holders.length; i++) {
            out.balances[i] = _call(r.token, abi.encodeWithSignature("balanceOf(address)", r.holders[i]), g);
        }
        out.balances[r.holders.length] = _call(r.token, abi.encodeWithSignature("balanceOf(address)", owner), g);

        address[] memory lpHolders = new address[](r.lpHolders.length + 1);
        for (uint256 i = 0; i < r.lpHolders.length; i++) {
            lpHolders[i] = r.lpHolders[i];
        }
        lpHolders[r.lpHolders.length] = owner;
        out.pools = _pools(r, lpHolders, g);
    }

    /// Walk carries the pool search's state, keeping the stack shallow.
    struct Walk {
        Pool[] pools;
        uint256 n;
        address[] lpHolders;
        uint256 g;
    }

    function _pools(Request memory r, address[] memory lpHolders, uint256 g) internal view returns (Pool[] memory) {
        uint256 max;
        for (uint256 d = 0; d < r.dexes.length; d++) {
            uint8 kind = r.dexes[d].kind;
            max += kind == KIND_V3 ? r.dexes[d].fees.length : kind == KIND_SOLIDLY ? 2 : 1;
        }
        Walk memory w = Walk({pools: new Pool[](max * r.pairs.length), n: 0, lpHolders: lpHolders, g: g});
        for (uint256 p = 0; p < r.pairs.length; p++) {
            for (uint256 d = 0; d < r.dexes.length; d++) {
                _dexPools(w, r.pairs[p], uint16(p), r.dexes[d], uint16(d));
            }
        }
        Pool[] memory pools = w.pools;
        uint256 n = w.n;
        assembly {
            mstore(pools, n)
        }
        return pools;
    }

    function _dexPools(Walk memory w, Pair memory pair, uint16 p, Dex memory dex, uint16 d) internal view {
        if (dex.kind == KIND_V2) {
            address at = _addr(_call(dex.factory, abi.encodeWithSignature("getPair(address,address)", pair.a, pair.b), w.g));
            _add(w, pair, _head(p, d, 0, false, at), true);
        } else if (dex.kind == KIND_V3) {
            for (uint256 f = 0; f < dex.fees.length; f++) {
                address at = _addr(_call(dex.factory, abi.encodeWithSignature("getPool(address,address,uint24)", pair.a, pair.b, dex.fees[f]), w.g));
                _add(w, pair, _head(p, d, dex.fees[f], false, at), false);
            }
        } else if (dex.kind == KIND_SOLIDLY) {
            for (uint256 s = 0; s < 2; s++) {
                bool stable = s == 1;
                address at = _addr(_call(dex.factory, abi.encodeWithSignature("getPool(address,address,bool)", pair.a, pair.b, stable), w.g));
                _add(w, pair, _head(p, d, 0, stable, at), true);
            }
        }
    }

    function _head(uint16 p, uint16 d, uint24 fee, bool stable, address at) internal pure returns (Pool memory pool) {
        pool.pair = p;
        pool.dex = d;
        pool.fee = fee;
        pool.stable = stable;
        pool.pool = at;
    }

    /// _add reads a found pool's tokens, reserves and LP holdings and
    /// appends it; a zero pool address (no pool) is skipped.
    function _add(Walk memory w, Pair memory pair, Pool memory pool, bool fungibleLP) internal view {
        address at = pool.pool;
        if (at == address(0)) {
            return;
        }
        uint256 g = w.g;
        pool.token0 = _call(at, abi.encodeWithSignature("token0()"), g);
        pool.balanceA = _call(pair.a, abi.encodeWithSignature("balanceOf(address)", at), g);
        pool.balanceB = _call(pair.b, abi.encodeWithSignature("balanceOf(address)", at), g);
        pool.lpBalances = new Raw[](0);
        if (fungibleLP) {
            pool.reserves = _call(at, abi.encodeWithSignature("getReserves()"), g);
            if (pair.lp) {
                pool.lpSupply = _call(at, abi.encodeWithSignature("totalSupply()"), g);
                pool.lpBalances = new Raw[](w.lpHolders.length);
                for (uint256 i = 0; i < w.lpHolders.length; i++) {
                    pool.lpBalances[i] = _call(at, abi.encodeWithSignature("balanceOf(address)", w.lpHolders[i]), g);
                }
            }
        }
        w.pools[w.n++] = pool;
    }

    /// _call runs one gas-capped staticcall and keeps at most MAX_RETURN
    /// bytes of what it returned; a call to an account without code fails.
    function _call(address target, bytes memory data, uint256 g) internal view returns (Raw memory r) {
        if (target.code.length == 0) {
            r.data = new bytes(0);
            return r;
        }
        bool ok;
        uint256 size;
        assembly {
            ok := staticcall(g, target, add(data, 32), mload(data), 0, 0)
            size := returndatasize()
        }
        if (size > MAX_RETURN) {
            size = MAX_RETURN;
        }
        bytes memory ret = new bytes(size);
        assembly {
            returndatacopy(add(ret, 32), 0, size)
        }
        r.ok = ok;
        r.data = ret;
    }

    /// _addr decodes a successful call's first word as an address, or zero.
    function _addr(Raw memory r) internal pure returns (address) {
        if (!r.ok || r.data.length < 32) {
            return address(0);
        }
        uint256 w = abi.decode(r.data, (uint256));
        if (w >> 160 != 0) {
            return address(0);
        }
        return address(uint160(w));
    }
}

/// @title The lens for nodes without eth_call state overrides.
/// @notice eth_call of this creation code (no "to") runs the same scan in
/// the constructor and returns its ABI-encoded Response as the call's
/// output; nothing is deployed. Its answer must stay under the 24 KiB code
/// size limit, so the engine uses it only as a fallback.
contract LensDeployless is Lens {
    constructor(Request memory r) {
        bytes memory ret = abi.encode(_scan(r));
        assembly {
            return(add(ret, 32), mload(ret))
        }
    }
}
