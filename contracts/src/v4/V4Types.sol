// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// The Uniswap V4 PoolManager's external interface as this project uses it,
// declared from its ABI (the same selectors and struct layouts; its
// user-defined value types are their underlying types here: Currency and
// IHooks are addresses, BalanceDelta and BeforeSwapDelta int256).

/// @dev A pool's key: its id is keccak256 of the ABI-encoded key.
struct V4PoolKey {
    address currency0; // address(0) is the native coin
    address currency1;
    uint24 fee; // hundredths of a bp; 0x800000 marks a dynamic fee set by the hook
    int24 tickSpacing;
    address hooks; // the low 14 bits of the address are its permissions
}

struct V4SwapParams {
    bool zeroForOne;
    int256 amountSpecified; // negative: exact input
    uint160 sqrtPriceLimitX96;
}

struct V4ModifyLiquidityParams {
    int24 tickLower;
    int24 tickUpper;
    int256 liquidityDelta;
    bytes32 salt;
}

interface IV4PoolManager {
    function unlock(bytes calldata data) external returns (bytes memory);
    function initialize(V4PoolKey memory key, uint160 sqrtPriceX96) external returns (int24 tick);
    function modifyLiquidity(V4PoolKey memory key, V4ModifyLiquidityParams memory params, bytes calldata hookData)
        external
        returns (int256 callerDelta, int256 feesAccrued);
    function swap(V4PoolKey memory key, V4SwapParams memory params, bytes calldata hookData)
        external
        returns (int256 swapDelta);
    function sync(address currency) external;
    function settle() external payable returns (uint256 paid);
    function take(address currency, address to, uint256 amount) external;
    function extsload(bytes32 slot) external view returns (bytes32);
}

interface IV4UnlockCallback {
    function unlockCallback(bytes calldata data) external returns (bytes memory);
}

interface IV4ERC20 {
    function balanceOf(address who) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @dev Reads a BalanceDelta: amount0 in the upper 128 bits, amount1 in the lower.
library V4Delta {
    function amount0(int256 d) internal pure returns (int128) {
        return int128(d >> 128);
    }

    function amount1(int256 d) internal pure returns (int128) {
        return int128(d);
    }
}
