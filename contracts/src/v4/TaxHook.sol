// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {V4PoolKey, V4SwapParams, IV4PoolManager, V4Delta} from "./V4Types.sol";

/// @title A Uniswap V4 hook for the devnet zoo: takes feeBps of every swap's
/// unspecified side (the output of an exact-input swap) by returning a swap
/// delta from afterSwap, and reverts sells of `token` in beforeSwap while
/// the owner keeps them closed (only a hook deployed closable has that
/// switch). The owner sets the fee up to maxFeeBps (fixed at deployment;
/// 10000 means it can take everything). Its address
/// carries the permissions beforeSwap, afterSwap and
/// afterSwapReturnDelta (0xC4 in the low 14 bits).
contract TaxHook {
    using V4Delta for int256;

    IV4PoolManager public immutable poolManager;
    address public immutable token;
    uint256 public immutable maxFeeBps;
    bool public immutable closable;
    address public owner;
    uint256 public feeBps;
    bool public sellsBlocked;

    event FeeUpdated(uint256 feeBps);
    event SellsBlocked(bool blocked);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == owner, "TaxHook: caller is not the owner");
        _;
    }

    constructor(IV4PoolManager manager_, address token_, address owner_, uint256 feeBps_, uint256 maxFeeBps_, bool blocked, bool closable_) {
        require(maxFeeBps_ <= 10_000 && feeBps_ <= maxFeeBps_, "TaxHook: fee above its cap");
        require(closable_ || !blocked, "TaxHook: only a closable hook closes sells");
        poolManager = manager_;
        token = token_;
        owner = owner_;
        feeBps = feeBps_;
        maxFeeBps = maxFeeBps_;
        sellsBlocked = blocked;
        closable = closable_;
        emit OwnershipTransferred(address(0), owner_);
    }

    receive() external payable {}

    function setFee(uint256 bps) external onlyOwner {
        require(bps <= maxFeeBps, "TaxHook: fee above its cap");
        feeBps = bps;
        emit FeeUpdated(bps);
    }

    function setSellsBlocked(bool blocked) external onlyOwner {
        require(closable, "TaxHook: sells cannot be closed");
        sellsBlocked = blocked;
        emit SellsBlocked(blocked);
    }

    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function renounceOwnership() external onlyOwner {
        emit OwnershipTransferred(owner, address(0));
        owner = address(0);
    }

    /// @notice Sends what the hook collected to the owner.
    function withdraw(address currency) external onlyOwner {
        if (currency == address(0)) {
            (bool ok,) = owner.call{value: address(this).balance}("");
            require(ok, "TaxHook: withdraw failed");
            return;
        }
        (bool sent, bytes memory ret) =
            currency.call(abi.encodeWithSignature("transfer(address,uint256)", owner, _erc20Balance(currency)));
        require(sent && (ret.length == 0 || abi.decode(ret, (bool))), "TaxHook: withdraw failed");
    }

    function beforeSwap(address, V4PoolKey calldata key, V4SwapParams calldata params, bytes calldata)
        external
        view
        returns (bytes4, int256, uint24)
    {
        require(msg.sender == address(poolManager), "TaxHook: only the PoolManager");
        bool sell = params.zeroForOne ? key.currency0 == token : key.currency1 == token;
        require(!(sell && sellsBlocked), "TaxHook: sells are closed");
        return (this.beforeSwap.selector, 0, 0);
    }

    function afterSwap(address, V4PoolKey calldata key, V4SwapParams calldata params, int256 delta, bytes calldata)
        external
        returns (bytes4, int128)
    {
        require(msg.sender == address(poolManager), "TaxHook: only the PoolManager");
        if (feeBps == 0) return (this.afterSwap.selector, 0);
        // The unspecified side is currency1 when exact input meets zeroForOne
        // (or exact output meets oneForZero).
        bool unspecified1 = (params.amountSpecified < 0) == params.zeroForOne;
        int128 amount = unspecified1 ? delta.amount1() : delta.amount0();
        uint256 abs = amount < 0 ? uint256(uint128(-amount)) : uint256(uint128(amount));
        uint256 fee = (abs * feeBps) / 10_000;
        if (fee == 0) return (this.afterSwap.selector, 0);
        poolManager.take(unspecified1 ? key.currency1 : key.currency0, address(this), fee);
        return (this.afterSwap.selector, int128(int256(fee)));
    }

    function _erc20Balance(address currency) private view returns (uint256) {
        (bool ok, bytes memory ret) = currency.staticcall(abi.encodeWithSignature("balanceOf(address)", address(this)));
        return ok && ret.length >= 32 ? abi.decode(ret, (uint256)) : 0;
    }
}
