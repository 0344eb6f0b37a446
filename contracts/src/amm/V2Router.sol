// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Like, IWrappedNative, IV2PairLike, IV2FactoryLike} from "./Interfaces.sol";

/// @title A minimal router for V2Factory pools: add liquidity and swap exact
/// input along a path (fee-on-transfer safe, Uniswap V2 Router02 selectors).
contract V2Router {
    address public immutable factory;
    address public immutable WETH;

    modifier before(uint256 deadline) {
        require(block.timestamp <= deadline, "Router: EXPIRED");
        _;
    }

    constructor(address _factory, address _weth) {
        factory = _factory;
        WETH = _weth;
    }

    receive() external payable {
        require(msg.sender == WETH, "Router: ONLY_WETH");
    }

    // --- quotes ---

    function quote(uint256 amountA, uint256 reserveA, uint256 reserveB) public pure returns (uint256) {
        require(amountA > 0, "Router: INSUFFICIENT_AMOUNT");
        require(reserveA > 0 && reserveB > 0, "Router: INSUFFICIENT_LIQUIDITY");
        return (amountA * reserveB) / reserveA;
    }

    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        require(amountIn > 0, "Router: INSUFFICIENT_INPUT_AMOUNT");
        require(reserveIn > 0 && reserveOut > 0, "Router: INSUFFICIENT_LIQUIDITY");
        uint256 withFee = amountIn * 997;
        return (withFee * reserveOut) / (reserveIn * 1000 + withFee);
    }

    function getAmountsOut(uint256 amountIn, address[] calldata path) external view returns (uint256[] memory amounts) {
        require(path.length >= 2, "Router: INVALID_PATH");
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i = 0; i + 1 < path.length; i++) {
            (uint256 rIn, uint256 rOut) = _reserves(path[i], path[i + 1]);
            amounts[i + 1] = getAmountOut(amounts[i], rIn, rOut);
        }
    }

    function _reserves(address tokenIn, address tokenOut) private view returns (uint256 rIn, uint256 rOut) {
        address pair = IV2FactoryLike(factory).getPair(tokenIn, tokenOut);
        require(pair != address(0), "Router: NO_PAIR");
        (uint112 r0, uint112 r1,) = IV2PairLike(pair).getReserves();
        (rIn, rOut) = tokenIn < tokenOut ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    // --- liquidity ---

    function _amounts(address tokenA, address tokenB, uint256 desiredA, uint256 desiredB, uint256 minA, uint256 minB)
        private
        returns (uint256 amountA, uint256 amountB, address pair)
    {
        pair = IV2FactoryLike(factory).getPair(tokenA, tokenB);
        if (pair == address(0)) {
            pair = IV2FactoryLike(factory).createPair(tokenA, tokenB);
        }
        (uint256 rA, uint256 rB) = _reserves(tokenA, tokenB);
        if (rA == 0 && rB == 0) {
            return (desiredA, desiredB, pair);
        }
        uint256 optimalB = quote(desiredA, rA, rB);
        if (optimalB <= desiredB) {
            require(optimalB >= minB, "Router: INSUFFICIENT_B_AMOUNT");
            return (desiredA, optimalB, pair);
        }
        uint256 optimalA = quote(desiredB, rB, rA);
        require(optimalA <= desiredA && optimalA >= minA, "Router: INSUFFICIENT_A_AMOUNT");
        return (optimalA, desiredB, pair);
    }

    function addLiquidity(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external before(deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        address pair;
        (amountA, amountB, pair) = _amounts(tokenA, tokenB, amountADesired, amountBDesired, amountAMin, amountBMin);
        _pull(tokenA, msg.sender, pair, amountA);
        _pull(tokenB, msg.sender, pair, amountB);
        liquidity = IV2PairLike(pair).mint(to);
    }

    function addLiquidityETH(
        address token,
        uint256 amountTokenDesired,
        uint256 amountTokenMin,
        uint256 amountETHMin,
        address to,
        uint256 deadline
    ) external payable before(deadline) returns (uint256 amountToken, uint256 amountETH, uint256 liquidity) {
        address pair;
        (amountToken, amountETH, pair) = _amounts(token, WETH, amountTokenDesired, msg.value, amountTokenMin, amountETHMin);
        _pull(token, msg.sender, pair, amountToken);
        IWrappedNative(WETH).deposit{value: amountETH}();
        require(IWrappedNative(WETH).transfer(pair, amountETH), "Router: WETH_TRANSFER");
        liquidity = IV2PairLike(pair).mint(to);
        if (msg.value > amountETH) {
            _sendNative(msg.sender, msg.value - amountETH);
        }
    }

    // --- swaps (exact input; amounts read from balances, so taxed tokens work) ---

    function _swapAlong(address[] calldata path, address to) private {
        for (uint256 i = 0; i + 1 < path.length; i++) {
            address next = i + 2 < path.length ? IV2FactoryLike(factory).getPair(path[i + 1], path[i + 2]) : to;
            _swapHop(path[i], path[i + 1], next);
        }
    }

    function _swapHop(address input, address output, address to) private {
        address pair = IV2FactoryLike(factory).getPair(input, output);
        (uint256 rIn, uint256 rOut) = _reserves(input, output);
        uint256 amountOut = getAmountOut(IERC20Like(input).balanceOf(pair) - rIn, rIn, rOut);
        (uint256 out0, uint256 out1) = input < output ? (uint256(0), amountOut) : (amountOut, uint256(0));
        IV2PairLike(pair).swap(out0, out1, to, new bytes(0));
    }

    function swapExactTokensForTokensSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external before(deadline) {
        require(path.length >= 2, "Router: INVALID_PATH");
        _pull(path[0], msg.sender, IV2FactoryLike(factory).getPair(path[0], path[1]), amountIn);
        address last = path[path.length - 1];
        uint256 start = IERC20Like(last).balanceOf(to);
        _swapAlong(path, to);
        require(IERC20Like(last).balanceOf(to) - start >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
    }

    function swapExactETHForTokensSupportingFeeOnTransferTokens(
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external payable before(deadline) {
        require(path.length >= 2 && path[0] == WETH, "Router: INVALID_PATH");
        IWrappedNative(WETH).deposit{value: msg.value}();
        require(IWrappedNative(WETH).transfer(IV2FactoryLike(factory).getPair(path[0], path[1]), msg.value), "Router: WETH_TRANSFER");
        address last = path[path.length - 1];
        uint256 start = IERC20Like(last).balanceOf(to);
        _swapAlong(path, to);
        require(IERC20Like(last).balanceOf(to) - start >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
    }

    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external before(deadline) {
        require(path.length >= 2 && path[path.length - 1] == WETH, "Router: INVALID_PATH");
        _pull(path[0], msg.sender, IV2FactoryLike(factory).getPair(path[0], path[1]), amountIn);
        uint256 start = IERC20Like(WETH).balanceOf(address(this));
        _swapAlong(path, address(this));
        uint256 out = IERC20Like(WETH).balanceOf(address(this)) - start;
        require(out >= amountOutMin, "Router: INSUFFICIENT_OUTPUT_AMOUNT");
        IWrappedNative(WETH).withdraw(out);
        _sendNative(to, out);
    }

    // --- transfers ---

    function _pull(address token, address from, address to, uint256 value) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IERC20Like.transferFrom, (from, to, value)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "Router: TRANSFER_FROM_FAILED");
    }

    function _sendNative(address to, uint256 value) private {
        (bool ok,) = to.call{value: value}("");
        require(ok, "Router: ETH_TRANSFER_FAILED");
    }
}
