// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "./Base.sol";

/// @title Reflection token in the rOwned/tOwned style: 4% of every transfer
/// between ordinary holders is "reflected", shrinking the reflected supply so
/// every holder's balanceOf (the pool's included) grows without a Transfer.
/// The owner and the contract pay no fee; one address (the dead address) is
/// excluded from rewards and holds a plain balance.
contract ReflectionToken is Ownable {
    string public constant name = "Mirror Yield";
    string public constant symbol = "MIRROR";
    uint8 public constant decimals = 9;
    uint256 public constant FEE = 4;

    uint256 private constant MAX = type(uint256).max;
    uint256 private immutable _tTotal;
    uint256 private _rTotal;
    uint256 public totalFees;

    mapping(address => uint256) private _rOwned;
    mapping(address => uint256) private _tOwned;
    mapping(address => mapping(address => uint256)) private _allowances;
    mapping(address => bool) private _isExcludedFromFee;
    mapping(address => bool) private _isExcluded;
    address[] private _excluded;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) Ownable(msg.sender) {
        _tTotal = supply;
        _rTotal = (MAX - (MAX % supply));
        _rOwned[msg.sender] = _rTotal;
        _isExcludedFromFee[msg.sender] = true;
        _isExcludedFromFee[address(this)] = true;
        address dead = 0x000000000000000000000000000000000000dEaD;
        _isExcluded[dead] = true;
        _excluded.push(dead);
        emit Transfer(address(0), msg.sender, supply);
    }

    function totalSupply() external view returns (uint256) {
        return _tTotal;
    }

    function balanceOf(address account) public view returns (uint256) {
        if (_isExcluded[account]) return _tOwned[account];
        return _rOwned[account] / _getRate();
    }

    function allowance(address holder, address spender) external view returns (uint256) {
        return _allowances[holder][spender];
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        _allowances[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 current = _allowances[from][msg.sender];
        if (current != MAX) {
            require(current >= amount, "ERC20: insufficient allowance");
            _allowances[from][msg.sender] = current - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _getRate() private view returns (uint256) {
        uint256 rSupply = _rTotal;
        uint256 tSupply = _tTotal;
        for (uint256 i = 0; i < _excluded.length; i++) {
            if (_rOwned[_excluded[i]] > rSupply || _tOwned[_excluded[i]] > tSupply) return _rTotal / _tTotal;
            rSupply -= _rOwned[_excluded[i]];
            tSupply -= _tOwned[_excluded[i]];
        }
        if (rSupply < _rTotal / _tTotal) return _rTotal / _tTotal;
        return rSupply / tSupply;
    }

    function _transfer(address from, address to, uint256 tAmount) private {
        require(from != address(0) && to != address(0), "ERC20: zero address");
        require(tAmount <= balanceOf(from), "ERC20: transfer amount exceeds balance");
        uint256 tFee = (_isExcludedFromFee[from] || _isExcludedFromFee[to]) ? 0 : (tAmount * FEE) / 100;
        uint256 rate = _getRate();
        uint256 tTransfer = tAmount - tFee;
        uint256 rAmount = tAmount * rate;
        uint256 rFee = tFee * rate;
        _rOwned[from] -= rAmount;
        if (_isExcluded[from]) _tOwned[from] -= tAmount;
        _rOwned[to] += rAmount - rFee;
        if (_isExcluded[to]) _tOwned[to] += tTransfer;
        _rTotal -= rFee;
        totalFees += tFee;
        emit Transfer(from, to, tTransfer);
    }
}
