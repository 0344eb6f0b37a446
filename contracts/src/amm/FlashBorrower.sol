// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Like, IV2Callee} from "./Interfaces.sol";

interface IFlashPair {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @title Test helper: borrows from a V2 pair by flash swap and repays
/// `repayBps` basis points of the loan in the uniswapV2Call callback.
contract FlashBorrower is IV2Callee {
    uint256 public lastLoan;

    function borrow(address pair, uint256 amount0, uint256 repayBps) external {
        IFlashPair(pair).swap(amount0, 0, address(this), abi.encode(repayBps));
    }

    function uniswapV2Call(address, uint256 amount0, uint256, bytes calldata data) external {
        uint256 repayBps = abi.decode(data, (uint256));
        lastLoan = amount0;
        address token = IFlashPair(msg.sender).token0();
        require(IERC20Like(token).transfer(msg.sender, (amount0 * repayBps) / 10_000), "repay");
    }
}
