// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface ISolidlyERC20 {
    function balanceOf(address) external view returns (uint256);
}

// SolidlyLikeFactory and SolidlyLikePool reproduce what the engine relies
// on in Aerodrome/Velodrome volatile pools: getPool(a, b, stable) on the
// factory, the fee per pool from the factory's getFee(pool, stable) (in
// bps here), getReserves() as three uint256 words, a Uniswap-V2-shaped
// swap(amount0Out, amount1Out, to, data) checking x*y after the fee, and
// the pool as its own LP token. Only volatile (x*y) pools are modelled.
// Through getPair the same factory stands for a V2 fork with another fee.
contract SolidlyLikeFactory {
    mapping(address => mapping(address => mapping(bool => address))) public getPool;
    uint256 public volatileFee;

    constructor(uint256 feeBps) {
        volatileFee = feeBps;
    }

    /// getPair makes the factory a Uniswap V2 fork too (PancakeSwap V2
    /// style: the same x*y pool at another fee).
    function getPair(address a, address b) external view returns (address) {
        return getPool[a][b][false];
    }

    function getFee(address, bool) external view returns (uint256) {
        return volatileFee;
    }

    function createPool(address a, address b, bool stable) external returns (address pool) {
        require(!stable, "volatile only");
        (address t0, address t1) = a < b ? (a, b) : (b, a);
        pool = address(new SolidlyLikePool(t0, t1));
        getPool[a][b][stable] = pool;
        getPool[b][a][stable] = pool;
    }
}

contract SolidlyLikePool {
    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    bool public constant stable = false;
    uint256 public reserve0;
    uint256 public reserve1;
    uint256 public blockTimestampLast;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    constructor(address t0, address t1) {
        factory = msg.sender;
        token0 = t0;
        token1 = t1;
    }

    function getReserves() external view returns (uint256, uint256, uint256) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    function mint(address to) external returns (uint256 liquidity) {
        uint256 b0 = ISolidlyERC20(token0).balanceOf(address(this));
        uint256 b1 = ISolidlyERC20(token1).balanceOf(address(this));
        require(totalSupply == 0, "first mint only");
        liquidity = _sqrt((b0 - reserve0) * (b1 - reserve1));
        totalSupply += liquidity;
        balanceOf[to] += liquidity;
        _update(b0, b1);
    }

    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata) external {
        require(amount0Out > 0 || amount1Out > 0, "insufficient output");
        require(amount0Out < reserve0 && amount1Out < reserve1, "insufficient liquidity");
        if (amount0Out > 0) _send(token0, to, amount0Out);
        if (amount1Out > 0) _send(token1, to, amount1Out);
        uint256 b0 = ISolidlyERC20(token0).balanceOf(address(this));
        uint256 b1 = ISolidlyERC20(token1).balanceOf(address(this));
        uint256 in0 = b0 > reserve0 - amount0Out ? b0 - (reserve0 - amount0Out) : 0;
        uint256 in1 = b1 > reserve1 - amount1Out ? b1 - (reserve1 - amount1Out) : 0;
        require(in0 > 0 || in1 > 0, "insufficient input");
        uint256 fee = SolidlyLikeFactory(factory).getFee(address(this), false);
        uint256 adj0 = b0 - in0 * fee / 10000;
        uint256 adj1 = b1 - in1 * fee / 10000;
        require(adj0 * adj1 >= reserve0 * reserve1, "K");
        _update(b0, b1);
    }

    function _update(uint256 b0, uint256 b1) private {
        reserve0 = b0;
        reserve1 = b1;
        blockTimestampLast = block.timestamp;
    }

    function _send(address token, address to, uint256 v) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, to, v));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "transfer failed");
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
