// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface INoReturnFactory {
    function createPair(address, address) external returns (address);
}

// NoReturnToken is written the way USDT (TetherToken) is: transfer,
// transferFrom and approve return nothing, approve refuses to change a
// non-zero allowance to another non-zero one, and the supply is huge in raw
// units. Its decimals are a constructor argument (6, 9, 0 in the tests).
// owner() reverts; getOwner() (BEP-20 style) names the deployer.
contract NoReturnToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e30;
    uint8 public decimals;
    string public name = "No Return USD";
    string public symbol = "NRUSD";
    address public pair;
    address private keeper;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(address factory, address weth, uint8 decimals_) {
        decimals = decimals_;
        keeper = msg.sender;
        balanceOf[msg.sender] = totalSupply;
        emit Transfer(address(0), msg.sender, totalSupply);
        pair = INoReturnFactory(factory).createPair(address(this), weth);
    }

    function owner() external pure returns (address) {
        revert("owner: use getOwner");
    }

    function getOwner() external view returns (address) {
        return keeper;
    }

    function transfer(address to, uint256 v) external {
        _move(msg.sender, to, v);
    }

    function transferFrom(address from, address to, uint256 v) external {
        uint256 a = allowance[from][msg.sender];
        if (a != type(uint256).max) allowance[from][msg.sender] = a - v;
        _move(from, to, v);
    }

    function approve(address spender, uint256 v) external {
        require(v == 0 || allowance[msg.sender][spender] == 0, "approve: reset to 0 first");
        allowance[msg.sender][spender] = v;
        emit Approval(msg.sender, spender, v);
    }

    function _move(address from, address to, uint256 v) private {
        balanceOf[from] -= v;
        balanceOf[to] += v;
        emit Transfer(from, to, v);
    }
}
