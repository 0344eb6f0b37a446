// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Hostile metadata: name() reverts, symbol() returns 4 KiB of bytes
/// that are not valid UTF-8. Transfers are ordinary.
contract WeirdMetaToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function name() external pure returns (string memory) {
        revert("no name");
    }

    function symbol() external pure returns (string memory) {
        bytes memory b = new bytes(4096);
        for (uint256 i = 0; i < b.length; i++) {
            // 0xC0, 0xFF, 0x80 and NUL: overlong lead, invalid byte, stray
            // continuation, control character.
            uint256 k = i % 4;
            b[i] = k == 0 ? bytes1(0xC0) : k == 1 ? bytes1(0xFF) : k == 2 ? bytes1(0x80) : bytes1(0x00);
        }
        return string(b);
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        if (allowance[from][msg.sender] != type(uint256).max) {
            allowance[from][msg.sender] -= amount;
        }
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
