// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title The implementation behind TransparentProxy: an initializable,
/// owned ERC-20 whose storage lives in the proxy.
contract UpgradeableToken {
    bool private _initialized;
    string public name;
    string public symbol;
    uint256 public totalSupply;
    address public owner;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        _initialized = true; // the implementation itself is never initialised
    }

    function initialize(string calldata name_, string calldata symbol_, uint256 supply, address owner_) external {
        require(!_initialized, "already initialized");
        _initialized = true;
        name = name_;
        symbol = symbol_;
        owner = owner_;
        totalSupply = supply;
        balanceOf[owner_] = supply;
        emit OwnershipTransferred(address(0), owner_);
        emit Transfer(address(0), owner_, supply);
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
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        if (allowance[from][msg.sender] != type(uint256).max) {
            allowance[from][msg.sender] -= amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
