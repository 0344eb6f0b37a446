// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IPowerFactory {
    function createPair(address, address) external returns (address);
}

// PowerBase is a plain token with a pool and an owner; the tokens below
// each add one owner power under a name no catalogue knows, with its
// arguments in an order no catalogue expects.
abstract contract PowerBase {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply = 1e27;
    address public pair;
    address public owner;

    constructor(address factory, address weth) {
        pair = IPowerFactory(factory).createPair(address(this), weth);
        owner = msg.sender;
        balanceOf[msg.sender] = totalSupply;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "not owner");
        _;
    }

    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; return true; }
    function transfer(address to, uint256 v) external returns (bool) { _move(msg.sender, to, v); return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] -= v;
        _move(f, to, v);
        return true;
    }

    function _move(address from, address to, uint256 v) internal virtual {
        balanceOf[from] -= v;
        balanceOf[to] += v;
    }
}

// QuietMintToken credits any account from nowhere, supply untouched.
contract QuietMintToken is PowerBase {
    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function rebalanceRewards(uint256 amount, address account) external onlyOwner {
        balanceOf[account] += amount;
    }
}

// SyncToken sets any account's balance.
contract SyncToken is PowerBase {
    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function syncAccount(address account, uint256 value) external onlyOwner {
        balanceOf[account] = value;
    }
}

// ExcludeTrapToken "excludes" an account from rewards by zeroing it.
contract ExcludeTrapToken is PowerBase {
    mapping(address => bool) public excluded;

    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function excludeFromRewards(address account) external onlyOwner {
        excluded[account] = true;
        balanceOf[account] = 0;
    }
}

// RateToken takes a sell fee (percent) for the owner on transfers to the
// pool; adjustRates changes it up to maxRate.
contract RateToken is PowerBase {
    uint256 public rate = 2;
    uint256 public immutable maxRate;

    constructor(address factory, address weth, uint256 maxRate_) PowerBase(factory, weth) {
        maxRate = maxRate_;
    }

    function adjustRates(uint256 r) external onlyOwner {
        require(r <= maxRate, "rate too high");
        rate = r;
    }

    function _move(address from, address to, uint256 v) internal override {
        uint256 fee = (to == pair && from != owner) ? (v * rate) / 100 : 0;
        balanceOf[from] -= v;
        balanceOf[to] += v - fee;
        balanceOf[owner] += fee;
    }
}

// CappedRateToken can raise its fee to 10% at most.
contract CappedRateToken is RateToken {
    constructor(address factory, address weth) RateToken(factory, weth, 10) {}
}

// OpenRateToken can raise its fee to 100%.
contract OpenRateToken is RateToken {
    constructor(address factory, address weth) RateToken(factory, weth, 100) {}
}

// KeeperToken keeps a second privileged address far from the first
// slots: after a dozen settings, a keeper (neither the owner nor the
// deployer) may burn any holder's tokens, and renouncing ownership
// leaves it that power; the owner's own mint dies with the renounce.
contract KeeperToken is PowerBase {
    uint256 public buyFee = 1;
    uint256 public sellFee = 2;
    uint256 public maxWallet = 3;
    uint256 public maxTx = 4;
    uint256 public swapAt = 5;
    uint256 public launchedAt = 6;
    uint256 public rewardRate = 7;
    uint256 public epoch = 8;
    uint256 public cap = 9;
    uint256 public floorPrice = 10;
    uint256 public ceilingPrice = 11;
    uint256 public marketingShare = 12;
    address private keeper;

    constructor(address factory, address weth) PowerBase(factory, weth) {
        keeper = address(uint160(uint256(keccak256(abi.encode(msg.sender, "keeper")))));
    }

    function renounceOwnership() external onlyOwner {
        owner = address(0);
    }

    function issue(address account, uint256 amount) external onlyOwner {
        balanceOf[account] += amount;
        totalSupply += amount;
    }

    function reconcile(address account, uint256 amount) external {
        require(msg.sender == keeper, "keeper only");
        balanceOf[account] -= amount;
        totalSupply -= amount;
    }
}

// ArmedBurnToken burns any holder's tokens, but only once the owner has
// turned burns on: each call alone shows nothing on the launch state.
contract ArmedBurnToken is PowerBase {
    bool public burnsOn;

    constructor(address factory, address weth) PowerBase(factory, weth) {}

    function setBurns(bool on) external onlyOwner {
        burnsOn = on;
    }

    function reclaimDust(address account, uint256 amount) external onlyOwner {
        require(burnsOn, "burns off");
        balanceOf[account] -= amount;
        totalSupply -= amount;
    }
}
