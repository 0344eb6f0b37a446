// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {V2Pair} from "./V2Pair.sol";

/// @title Creates one V2Pair per token pair (CREATE2, salt = keccak(token0, token1)),
/// with Uniswap V2's factory selectors and PairCreated event.
contract V2Factory {
    address public feeTo;
    address public feeToSetter;

    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);

    constructor(address _feeToSetter) {
        feeToSetter = _feeToSetter;
    }

    /// @notice keccak256 of the pair's creation code, for CREATE2 address derivation.
    function INIT_CODE_PAIR_HASH() external pure returns (bytes32) {
        return keccak256(type(V2Pair).creationCode);
    }

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        require(tokenA != tokenB, "V2: IDENTICAL_ADDRESSES");
        (address t0, address t1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(t0 != address(0), "V2: ZERO_ADDRESS");
        require(getPair[t0][t1] == address(0), "V2: PAIR_EXISTS");
        V2Pair created = new V2Pair{salt: keccak256(abi.encodePacked(t0, t1))}();
        created.initialize(t0, t1);
        pair = address(created);
        getPair[t0][t1] = pair;
        getPair[t1][t0] = pair;
        allPairs.push(pair);
        emit PairCreated(t0, t1, pair, allPairs.length);
    }

    function setFeeTo(address _feeTo) external {
        require(msg.sender == feeToSetter, "V2: FORBIDDEN");
        feeTo = _feeTo;
    }

    function setFeeToSetter(address _feeToSetter) external {
        require(msg.sender == feeToSetter, "V2: FORBIDDEN");
        feeToSetter = _feeToSetter;
    }
}
