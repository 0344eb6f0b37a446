// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDexFactory} from "./Base.sol";

/// @title Tokens for issue 18's precision cases: each creates its own pair
/// against WETH and gives the deployer the supply it holds; each has one
/// function a name list or a storage-write rule reads as a power that it
/// is not (or, SealedLaunchToken, a real switch seen only with transfers
/// off).
abstract contract PrecisionBase {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public pair;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed holder, address indexed spender, uint256 value);

    constructor(address factory, address weth, uint256 held) {
        pair = IDexFactory(factory).createPair(address(this), weth);
        balanceOf[msg.sender] = held;
        emit Transfer(address(0), msg.sender, held);
    }

    function name() external pure returns (string memory) {
        return "Precision Case";
    }

    function symbol() external pure returns (string memory) {
        return "PREC";
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) internal virtual {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// @notice Benign: a holder freezes and unfreezes its own tokens; the
/// owner can do nothing to anyone's (an old exchange-token shape).
contract FrostToken is PrecisionBase {
    address public owner;
    mapping(address => uint256) public freezeOf;

    constructor(address factory, address weth) PrecisionBase(factory, weth, 1e27) {
        owner = msg.sender;
    }

    function freeze(uint256 value) external returns (bool) {
        require(balanceOf[msg.sender] >= value, "balance");
        balanceOf[msg.sender] -= value;
        freezeOf[msg.sender] += value;
        return true;
    }

    function unfreeze(uint256 value) external returns (bool) {
        require(freezeOf[msg.sender] >= value, "frozen");
        freezeOf[msg.sender] -= value;
        balanceOf[msg.sender] += value;
        return true;
    }
}

/// @notice Benign once renounced: setOwner only the owner may call, and a
/// mint behind the same check; renounceOwnership zeroes the owner, so no
/// one can call either again.
contract ZeroOwnerToken is PrecisionBase {
    address public owner;

    constructor(address factory, address weth) PrecisionBase(factory, weth, 1e27) {
        owner = msg.sender;
    }

    function setOwner(address next) external {
        require(msg.sender == owner, "owner");
        owner = next;
    }

    function renounceOwnership() external {
        require(msg.sender == owner, "owner");
        owner = address(0);
    }

    function issue(address to, uint256 amount) external {
        require(msg.sender == owner, "owner");
        totalSupply += amount;
        balanceOf[to] += amount;
    }
}

/// @notice A vesting allocation the fixed supply already counts: the
/// deployer holds 80%, 20% is kept as a reserve the owner pays out; the
/// total supply never changes and never exceeds what it declares.
contract VestingReserveToken is PrecisionBase {
    address public owner;
    uint256 public reserve = 2e26;

    constructor(address factory, address weth) PrecisionBase(factory, weth, 8e26) {
        owner = msg.sender;
    }

    function releaseVesting(address beneficiary, uint256 amount) external {
        require(msg.sender == owner, "owner");
        require(amount <= reserve, "beyond the allocation");
        reserve -= amount;
        balanceOf[beneficiary] += amount;
        emit Transfer(address(this), beneficiary, amount);
    }
}

/// @notice A real switch: setMarketPhase(0) stops every transfer, the
/// owner's too, so once it is off no donor can fund a test wallet; any
/// other phase turns transfers on again. As old tokens do, it refuses a
/// transfer of nothing, so an empty wallet cannot show the switch.
contract SealedLaunchToken is PrecisionBase {
    address public owner;
    uint8 public phase = 1;

    constructor(address factory, address weth) PrecisionBase(factory, weth, 1e27) {
        owner = msg.sender;
    }

    function setMarketPhase(uint8 next) external {
        require(msg.sender == owner, "owner");
        phase = next;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(value > 0, "nothing to send");
        require(phase != 0, "sealed");
        super._transfer(from, to, value);
    }
}
