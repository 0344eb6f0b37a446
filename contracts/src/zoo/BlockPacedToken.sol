// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Buy-side cooldown in blocks, standalone: a buyer (tx.origin)
/// may buy again only three blocks after its last buy, recorded in a
/// packed struct. Sells are free.
contract BlockPacedToken {
    struct Pace {
        uint64 lastBlock;
        uint64 buys;
    }

    string public constant name = "Block Paced";
    string public constant symbol = "PACE";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public owner;
    address public amm;
    uint64 public constant GAP = 3;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => Pace) private _pace;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        owner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function setAmm(address pool) external {
        require(msg.sender == owner && amm == address(0), "PACE: once");
        amm = pool;
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
            require(a >= value, "PACE: allowance");
            allowance[from][msg.sender] = a - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        if (from == amm && to != owner) {
            Pace storage p = _pace[tx.origin];
            if (p.buys > 0 && uint64(block.number) < p.lastBlock + GAP) revert("PACE: too soon");
            p.lastBlock = uint64(block.number);
            p.buys += 1;
        }
        require(balanceOf[from] >= value, "PACE: balance");
        unchecked {
            balanceOf[from] -= value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
