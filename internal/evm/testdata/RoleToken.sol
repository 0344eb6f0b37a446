// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IRoleFactory {
    function createPair(address, address) external returns (address);
}

// RoleToken is governed the OpenZeppelin AccessControl way: no owner(),
// getOwner() or admin(); the deployer holds DEFAULT_ADMIN_ROLE (zero) and
// MINTER_ROLE, and mint is MINTER_ROLE-only. Its owner cannot be read from
// a getter, so it must never be reported renounced.
contract RoleToken {
    bytes32 public constant DEFAULT_ADMIN_ROLE = 0x00;
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    mapping(bytes32 => mapping(address => bool)) private roles;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    uint8 public constant decimals = 9;
    string public name = "Role Token";
    string public symbol = "ROLE";
    address public pair;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender);

    constructor(address factory, address weth) {
        _grant(DEFAULT_ADMIN_ROLE, msg.sender);
        _grant(MINTER_ROLE, msg.sender);
        balanceOf[msg.sender] = totalSupply;
        emit Transfer(address(0), msg.sender, totalSupply);
        pair = IRoleFactory(factory).createPair(address(this), weth);
    }

    modifier onlyRole(bytes32 role) {
        require(roles[role][msg.sender], "AccessControl: missing role");
        _;
    }

    function hasRole(bytes32 role, address account) external view returns (bool) {
        return roles[role][account];
    }

    function grantRole(bytes32 role, address account) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _grant(role, account);
    }

    function renounceRole(bytes32 role, address account) external {
        require(account == msg.sender, "AccessControl: only self");
        roles[role][account] = false;
    }

    function mint(address to, uint256 v) external onlyRole(MINTER_ROLE) {
        totalSupply += v;
        balanceOf[to] += v;
        emit Transfer(address(0), to, v);
    }

    function approve(address s, uint256 v) external returns (bool) {
        allowance[msg.sender][s] = v;
        return true;
    }

    function transfer(address to, uint256 v) external returns (bool) {
        _move(msg.sender, to, v);
        return true;
    }

    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        _move(f, to, v);
        return true;
    }

    function _grant(bytes32 role, address account) private {
        roles[role][account] = true;
        emit RoleGranted(role, account, msg.sender);
    }

    function _move(address from, address to, uint256 v) private {
        balanceOf[from] -= v;
        balanceOf[to] += v;
        emit Transfer(from, to, v);
    }
}
