// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title cannot_sell_all, standalone with a modifier and assembly: a sale
/// into the pool must leave at least a thousandth of a token behind;
/// wallet-to-wallet transfers of everything are fine.
contract ResidueToken {
    string public constant name = "Residue";
    string public constant symbol = "RSD";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public owner;
    address public lp;
    mapping(address => uint256) private _bal;
    mapping(address => mapping(address => uint256)) private _allow;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    modifier leavesResidue(address from, address to, uint256 value) {
        if (to == lp && from != owner) {
            uint256 left;
            assembly {
                mstore(0x00, from)
                mstore(0x20, _bal.slot)
                left := sub(sload(keccak256(0x00, 0x40)), value)
            }
            require(left >= 1e15, "RSD: leave residue");
        }
        _;
    }

    constructor(uint256 supply) {
        owner = msg.sender;
        totalSupply = supply;
        _bal[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function setLp(address pool) external {
        require(msg.sender == owner && lp == address(0), "RSD: once");
        lp = pool;
    }

    function renounceOwnership() external {
        require(msg.sender == owner, "RSD: owner");
        owner = address(0);
    }

    function balanceOf(address who) external view returns (uint256) {
        return _bal[who];
    }

    function allowance(address a, address s) external view returns (uint256) {
        return _allow[a][s];
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _allow[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 a = _allow[from][msg.sender];
        if (a != type(uint256).max) {
            require(a >= value, "RSD: allowance");
            _allow[from][msg.sender] = a - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private leavesResidue(from, to, value) {
        require(_bal[from] >= value, "RSD: balance");
        unchecked {
            _bal[from] -= value;
        }
        _bal[to] += value;
        emit Transfer(from, to, value);
    }
}
