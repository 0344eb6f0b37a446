// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title A minimal ownerless ERC-20: the whole supply goes to the deployer.
contract PlainERC20 {
    mapping(address => uint256) private balances;
    mapping(address => mapping(address => uint256)) private allowed;
    uint256 private supply;
    string private tokenName;
    string private tokenSymbol;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory n, string memory s, uint256 amount) {
        tokenName = n;
        tokenSymbol = s;
        supply = amount;
        balances[msg.sender] = amount;
        emit Transfer(address(0), msg.sender, amount);
    }

    function name() external view returns (string memory) { return tokenName; }
    function symbol() external view returns (string memory) { return tokenSymbol; }
    function decimals() external pure returns (uint8) { return 18; }
    function totalSupply() external view returns (uint256) { return supply; }
    function balanceOf(address a) external view returns (uint256) { return balances[a]; }
    function allowance(address o, address s) external view returns (uint256) { return allowed[o][s]; }

    function approve(address spender, uint256 value) external returns (bool) {
        allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 a = allowed[from][msg.sender];
        require(a >= value, "allowance");
        if (a != type(uint256).max) allowed[from][msg.sender] = a - value;
        move(from, to, value);
        return true;
    }

    function move(address from, address to, uint256 value) private {
        require(balances[from] >= value, "balance");
        balances[from] -= value;
        balances[to] += value;
        emit Transfer(from, to, value);
    }
}
