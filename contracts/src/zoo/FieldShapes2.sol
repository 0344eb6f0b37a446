// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20, Ownable, IDexRouter, IDexFactory} from "./Base.sol";

// Second shapes of the field zoo (issue 18): for the fields the first
// zoo expressed once, another way to write the same power (inline checks
// of a stored address instead of modifiers, assembly at computed slots,
// packed modes instead of flags, misleading names), and benign
// look-alikes of three of them.

/// @title A minimal standalone ledger the shapes below share: balances in
/// the first storage slot's mapping, no owner.
abstract contract PlainLedger {
    mapping(address => uint256) internal _balances; // slot 0
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        totalSupply = supply;
        _balances[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function balanceOf(address a) external view returns (uint256) {
        return _balances[a];
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
            require(a >= value, "ledger: allowance");
            allowance[from][msg.sender] = a - value;
        }
        _send(from, to, value);
        return true;
    }

    /// @dev Shapes with trading rules override this and call _debitCredit.
    function _send(address from, address to, uint256 value) internal virtual {
        _debitCredit(from, to, value);
    }

    function _debitCredit(address from, address to, uint256 value) internal {
        require(_balances[from] >= value, "ledger: balance");
        unchecked {
            _balances[from] -= value;
        }
        _balances[to] += value;
        emit Transfer(from, to, value);
    }
}

/// @title selfdestruct, another shape: no owner() and no kill(); the
/// custodian stored at deployment passes an inline check in the misnamed
/// rebalanceVault(address), which runs SELFDESTRUCT in assembly.
contract VaultSunsetToken is PlainLedger {
    string public constant name = "Vault Sunset";
    string public constant symbol = "VSUN";
    address private _custodian;

    constructor(uint256 supply) PlainLedger(supply) {
        _custodian = msg.sender;
    }

    function rebalanceVault(address vault) external {
        if (msg.sender != _custodian) revert("vault: custodian only");
        assembly {
            selfdestruct(vault)
        }
    }
}

/// @title owner_change_balance, another shape: the keeper's
/// reconcile(address,uint256), named like an accounting fix, writes any
/// holder's balance with an assembly SSTORE at the balance's hashed slot.
contract LedgerSyncToken is PlainLedger {
    string public constant name = "Ledger Sync";
    string public constant symbol = "LSYNC";
    address public owner;

    constructor(uint256 supply) PlainLedger(supply) {
        owner = msg.sender;
    }

    function reconcile(address account, uint256 amount) external {
        require(msg.sender == owner, "sync: keeper only");
        assembly {
            mstore(0x00, account)
            mstore(0x20, _balances.slot)
            sstore(keccak256(0x00, 0x40), amount)
        }
    }
}

/// @title transfer_pausable, another shape: an operating mode (a uint8,
/// not a paused flag) the owner sets with setOperatingMode(uint8); in
/// maintenance (1) or wind-down (2) only the owner's transfers move. Live
/// (0) at launch.
contract ModeSwitchToken is ERC20, Ownable {
    uint8 private _mode;

    constructor(uint256 supply) ERC20("Mode Switch", "MODE") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function operatingMode() external view returns (uint8) {
        return _mode;
    }

    function setOperatingMode(uint8 mode) external onlyOwner {
        require(mode <= 2, "mode");
        _mode = mode;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (_mode != 0 && from != owner()) revert("mode: transfers halted");
        _move(from, to, value);
    }
}

/// @title cannot_buy, another shape: buys from the pair (and only buys)
/// revert below a start block; the start block is unset (the maximum) at
/// launch, and only the owner's misnamed syncLiquidity(uint256) sets it,
/// some blocks ahead. Sells and wallet transfers are free.
contract LaunchBlockToken is PlainLedger {
    string public constant name = "Launch Block";
    string public constant symbol = "LBLK";
    address public immutable pair;
    address public owner;
    uint256 private _startBlock = type(uint256).max;

    constructor(address router, uint256 supply) PlainLedger(supply) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        owner = msg.sender;
    }

    function syncLiquidity(uint256 blocksAhead) external {
        require(msg.sender == owner, "LBLK: owner");
        _startBlock = block.number + blocksAhead;
    }

    function _send(address from, address to, uint256 value) internal override {
        if (from == pair && to != owner) require(block.number >= _startBlock, "LBLK: not started");
        _debitCredit(from, to, value);
    }
}

/// @title slippage_modifiable, another shape: buy and sell fees in basis
/// points live in one stored struct, and the operator replaces the whole
/// schedule with setSchedule((uint16,uint16)), up to 100% each (an inline
/// check, no modifier). 1% each at launch.
contract FeeScheduleToken is PlainLedger {
    struct Schedule {
        uint16 buyBps;
        uint16 sellBps;
    }

    string public constant name = "Fee Schedule";
    string public constant symbol = "FSCH";
    address public immutable pair;
    address public owner;
    Schedule public schedule = Schedule(100, 100);

    constructor(address router, uint256 supply) PlainLedger(supply) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        owner = msg.sender;
    }

    function setSchedule(Schedule calldata s) external {
        if (msg.sender != owner) revert("FSCH: operator");
        require(s.buyBps <= 10_000 && s.sellBps <= 10_000, "FSCH: bps");
        schedule = s;
    }

    function _send(address from, address to, uint256 value) internal override {
        uint256 bps;
        if (from != owner && to != owner) {
            if (from == pair) bps = schedule.buyBps;
            else if (to == pair) bps = schedule.sellBps;
        }
        uint256 fee = (value * bps) / 10_000;
        if (fee > 0) _debitCredit(from, owner, fee);
        _debitCredit(from, to, value - fee);
    }
}

/// @title Benign look-alike of transfer_pausable: pause() and unpause()
/// only the owner could call, and the owner renounced.
contract RetiredPauseToken is ERC20, Ownable {
    bool public paused;

    constructor(uint256 supply) ERC20("Retired Pause", "RPAUSE") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function pause() external onlyOwner {
        paused = true;
    }

    function unpause() external onlyOwner {
        paused = false;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        require(!paused, "paused");
        _move(from, to, value);
    }
}

/// @title Benign look-alike of slippage_modifiable: the owner may set the
/// buy and sell fees, but never above 5% (2% at launch).
contract CappedFeeToken is ERC20, Ownable {
    uint256 public constant MAX_FEE = 5;
    uint256 public buyFee = 2;
    uint256 public sellFee = 2;
    address public immutable pair;

    constructor(address router, uint256 supply) ERC20("Capped Fee", "CFEE") Ownable(msg.sender) {
        IDexRouter r = IDexRouter(router);
        pair = IDexFactory(r.factory()).createPair(address(this), r.WETH());
        _mint(msg.sender, supply);
    }

    function setFees(uint256 buy, uint256 sell) external onlyOwner {
        require(buy <= MAX_FEE && sell <= MAX_FEE, "CFEE: fee above 5%");
        buyFee = buy;
        sellFee = sell;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        uint256 pct;
        if (from != owner() && to != owner()) {
            if (from == pair) pct = buyFee;
            else if (to == pair) pct = sellFee;
        }
        uint256 fee = (value * pct) / 100;
        if (fee > 0) _move(from, address(this), fee);
        _move(from, to, value - fee);
    }
}

/// @title Benign look-alike of selfdestruct: destroy() burns the caller's
/// own tokens; there is no SELFDESTRUCT and no owner.
contract BurnableLedgerToken is PlainLedger {
    string public constant name = "Burnable Ledger";
    string public constant symbol = "BURNL";

    constructor(uint256 supply) PlainLedger(supply) {}

    function destroy() external {
        uint256 b = _balances[msg.sender];
        _balances[msg.sender] = 0;
        totalSupply -= b;
        emit Transfer(msg.sender, address(0), b);
    }
}
