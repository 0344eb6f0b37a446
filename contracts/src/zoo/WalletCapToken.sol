// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Anti-whale by a max wallet, standalone: no wallet but the pool
/// and the owner may hold more than 2% of supply after a transfer; the
/// owner sets both limits with setLimits(uint256 maxTx, uint256 maxHold).
contract WalletCapToken {
    string public constant name = "Wallet Cap";
    string public constant symbol = "WLCAP";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public owner;
    address public pool;
    uint256 public maxTx;
    uint256 public maxHold;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        owner = msg.sender;
        totalSupply = supply;
        maxTx = supply;
        maxHold = supply / 50;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function setPool(address p) external {
        require(msg.sender == owner && pool == address(0), "WLCAP: once");
        pool = p;
    }

    function setLimits(uint256 maxTx_, uint256 maxHold_) external {
        require(msg.sender == owner, "WLCAP: owner");
        maxTx = maxTx_;
        maxHold = maxHold_;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 a = allowance[from][msg.sender];
        if (a != type(uint256).max) {
            require(a >= value, "WLCAP: allowance");
            allowance[from][msg.sender] = a - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "WLCAP: balance");
        if (from != owner && to != owner) require(value <= maxTx, "WLCAP: max tx");
        unchecked {
            balanceOf[from] -= value;
        }
        balanceOf[to] += value;
        if (to != pool && to != owner) require(balanceOf[to] <= maxHold, "WLCAP: max wallet");
        emit Transfer(from, to, value);
    }
}
