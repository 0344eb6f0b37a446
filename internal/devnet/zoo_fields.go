package devnet

import (
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Field zoo (issue 18): for each GoPlus-style field a buyer compares, at
// least two tokens of different shapes built to have it (modifiers and
// inline checks, mappings and arrays, the shared ERC20 base and
// standalone ledgers, assembly), and benign look-alikes that must not
// read as the field. Like the first zoo's tokens, each is spread over 55
// holders (under 1% of supply each).

// TimeBombDelay is how long after the devnet starts the time-bomb token
// (kind honeypot_time_bomb) stops letting anyone but its owner sell.
const TimeBombDelay = 36 * time.Hour

// BlockFuseBlocks is how many blocks after its deployment the block-fuse
// token (kind honeypot_block_fuse) stops letting anyone but its deployer
// sell.
const BlockFuseBlocks = 200

// fieldHolders is how many wallets a field zoo token is spread over.
const fieldHolders = 55

// withPool deploys contract with args, then calls setter(pair) on it as
// the creator: the tokens that name their pool once, before it exists.
func withPool(contract, setter string, args func(env *zooEnv, creator *account, supply *big.Int) []any) func(*writer, *zooEnv, *account, *big.Int) (deployed, error) {
	return func(w *writer, env *zooEnv, creator *account, supply *big.Int) (deployed, error) {
		addr, err := w.deploy(creator, contract, args(env, creator, supply)...)
		if err != nil {
			return deployed{}, err
		}
		return deployed{token: addr}, w.invoke(creator, contract, addr, nil, setter, env.pairFor(addr))
	}
}

// creatorCalls is an after step: the creator calls method on the token.
func creatorCalls(contract, method string, args ...any) func(*writer, *zooEnv, *zooToken) error {
	return func(w *writer, _ *zooEnv, t *zooToken) error {
		return w.invoke(t.creator, contract, t.token, nil, method, args...)
	}
}

// fieldSpecs is the field zoo.
func fieldSpecs() []zooSpec {
	field := func(s zooSpec) zooSpec {
		s.decimals = 18
		s.poolPct, s.poolETH = 50, 20
		if s.holders == 0 {
			s.holders = fieldHolders
		}
		if s.holderPct == 0 {
			s.holderPct = 50
		}
		if s.buys == 0 {
			s.buys = 2
		}
		return s
	}
	return []zooSpec{
		// is_honeypot, conditional: traps a fresh wallet's simulation never meets.
		field(zooSpec{kind: "honeypot_transferfrom", deploy: plain("RouterGateToken", routerSupply), noSells: true,
			behaviour: "A holder's own transfer to the pair works, but transferFrom into the pair (every DEX router's sell) reverts for all but the owner's cleared list."}),
		field(zooSpec{kind: "honeypot_transferfrom_list", deploy: plain("SpenderLockToken", supplyOnly), noSells: true,
			behaviour: "Standalone token whose transferFrom moves tokens only for holders in the operator's array (with an allowance-error message); holders' own transfers work, router sells revert."}),
		field(zooSpec{kind: "honeypot_holders_armed", deploy: plain("EarlyBirdToken", routerSupply), noSells: true,
			after:     creatorCalls("EarlyBirdToken", "finalizeLaunch"),
			behaviour: "The owner's finalizeLaunch() stamped a time: every wallet that first received tokens by then can no longer sell into the pair; wallets that buy later trade normally."}),
		field(zooSpec{kind: "honeypot_holders_listed", deploy: plain("AirdropVaultToken", routerSupply), noSells: true,
			after:     registerHolders,
			behaviour: "The owner registered every launch recipient as 'vesting' with registerAirdrop(address[]): they can never transfer or sell; wallets outside the list trade normally."}),
		field(zooSpec{kind: "honeypot_time_bomb", deploy: plain("TimeBombToken", func(env *zooEnv, _ *account, supply *big.Int) []any {
			return []any{env.router, supply, big.NewInt(env.now.Add(TimeBombDelay).Unix())}
		}), behaviour: "Sells into the pair work until 36 hours after the devnet started, then revert for everyone but the owner."}),
		field(zooSpec{kind: "honeypot_block_fuse", owner: ownerless, deploy: withPool("BlockFuseToken", "setMarket", func(_ *zooEnv, _ *account, supply *big.Int) []any {
			return []any{supply, big.NewInt(BlockFuseBlocks)}
		}), behaviour: "Standalone token whose modifier lets sells into the pool through only below a block fixed at deployment (200 blocks later); past it only the deployer sells."}),
		field(zooSpec{kind: "honeypot_owner_switch", deploy: plain("SwitchboardToken", routerSupply),
			behaviour: "Everyone trades today, but one owner call, setSwapConfig(2), makes every sell into the pair revert while wallet transfers still work."}),
		field(zooSpec{kind: "honeypot_owner_sell_cap", deploy: plain("SellCapToken", routerSupply),
			behaviour: "A sell may move at most maxSellPermille of the seller's balance (1000 today); one owner call, tuneSellLimit(0), makes every sell of any size revert."}),
		// cannot_sell_all.
		field(zooSpec{kind: "cannot_sell_all", deploy: plain("DustKeeperToken", supplyOnly), holderPct: 49,
			behaviour: "No transfer may move the sender's whole balance (an inline require): 99.9% of a holding sells, all of it reverts."}),
		field(zooSpec{kind: "cannot_sell_all_residue", deploy: withPool("ResidueToken", "setLp", supplyOnly),
			behaviour: "Standalone token whose modifier (assembly balance read) makes a sale into the pool leave at least 0.001 token behind; wallet transfers of everything work."}),
		// trading_cooldown, buy side.
		field(zooSpec{kind: "buy_cooldown", deploy: plain("BuyThrottleToken", routerSupply),
			behaviour: "After a buy the same wallet must wait 45 seconds before buying again; sells are never delayed."}),
		field(zooSpec{kind: "buy_cooldown_blocks", deploy: withPool("BlockPacedToken", "setAmm", supplyOnly),
			behaviour: "Standalone token: a buyer (tx.origin) may buy again only 3 blocks after its last buy (a packed struct per buyer); sells are free."}),
		// is_whitelisted.
		field(zooSpec{kind: "whitelist_fee_exempt", deploy: plain("ExemptListToken", routerSupply),
			behaviour: "Trades against the pair pay 4% except for addresses the owner lists with setFeeExempt(address,bool)."}),
		field(zooSpec{kind: "whitelist_limits", deploy: plain("AccountFlagsToken", supplyOnly),
			behaviour: "No transfer may move more than 2% of supply unless a party has the flag the owner sets with the misnamed configureAccount(address,uint8)."}),
		// personal_slippage_modifiable.
		field(zooSpec{kind: "personal_fee", deploy: plain("AccountFeeToken", routerSupply),
			behaviour: "Sells pay 3%, but the owner can set any one wallet's sell fee up to 100% with setAccountFee(address,uint256)."}),
		field(zooSpec{kind: "personal_fee_tiers", deploy: withPool("TierFeeToken", "setPool", supplyOnly),
			behaviour: "Standalone token: each wallet's tier indexes a fee table [1%, 10%, 99%] on sells; the operator moves any wallet between tiers with assignTier(address,uint8)."}),
		// can_take_back_ownership.
		field(zooSpec{kind: "ownership_reclaim_lock", deploy: plain("TimeLockOwnerToken", supplyOnly),
			behaviour: "Still owned at launch; lock(seconds) clears owner() and remembers the previous owner, whose unlock() afterwards makes it owner again."}),
		field(zooSpec{kind: "ownership_reclaim_admin", deploy: plain("HandoverToken", supplyOnly), owner: renounced,
			after:     creatorCalls("HandoverToken", "renounceOwnership"),
			behaviour: "Renounced through its own path, but every past owner stays in an admins mapping and can reclaimOwnership() at any time."}),
		// hidden_owner.
		field(zooSpec{kind: "hidden_owner_dev", deploy: plain("DevWalletToken", routerSupply), owner: renounced,
			after:     creatorCalls("DevWalletToken", "renounceOwnership"),
			behaviour: "owner() is renounced, but the dev wallet stored at deployment still sets the sell fee up to 100% with adjustDevFee(uint256)."}),
		field(zooSpec{kind: "hidden_owner_slot", deploy: plain("SlotAdminToken", supplyOnly), owner: renounced,
			after:     creatorCalls("SlotAdminToken", "renounceOwnership"),
			behaviour: "owner() is renounced, but an admin written with assembly at keccak256(\"slot.admin\") can freeze any wallet with syncAccount(address,bool)."}),
		// external_call.
		field(zooSpec{kind: "external_call_ledger", deploy: deployLedger,
			behaviour: "Balances and transfers are answered by a ledger contract named in storage; the owner points the token at another ledger with the misnamed excludeFromFee(address)."}),
		field(zooSpec{kind: "external_call_guard", deploy: deployGuarded,
			behaviour: "Every transfer asks a guard contract and reverts when it refuses; the owner replaces the guard with updateRouterAndPair(address,address)."}),
		// is_anti_whale above the simulation's trade size.
		field(zooSpec{kind: "anti_whale_max_tx", deploy: plain("WhaleCapToken", supplyOnly),
			behaviour: "No transfer may exceed 0.75% of supply (about five times the engine's default buy); the owner changes it with setMaxTxAmount(uint256)."}),
		field(zooSpec{kind: "anti_whale_max_wallet", deploy: withPool("WalletCapToken", "setPool", supplyOnly), holderPct: 48,
			behaviour: "Standalone token: no wallet but the pool and the owner may hold more than 2% of supply; the owner sets the limits with setLimits(uint256,uint256)."}),
		// Benign look-alikes: each must not read as the field it resembles.
		field(zooSpec{kind: "benign_cooldown_named", deploy: plain("StakeCooldownToken", supplyOnly),
			behaviour: "Benign: setCooldown(uint256) and cooldownEnabledSet(bool,uint8) govern only the wait before a holder unstakes its own staked tokens; trades are never delayed."}),
		field(zooSpec{kind: "benign_max_wallet", deploy: withPool("FairLaunchToken", "setPool", supplyOnly), owner: ownerless, holderPct: 48,
			behaviour: "Benign: an honest, immutable 3% max wallet with no owner; sells and ordinary holdings are never limited."}),
		field(zooSpec{kind: "benign_self_lock", deploy: plain("SelfVestToken", supplyOnly), owner: ownerless,
			behaviour: "Benign: lock(uint256,uint256) and unlock() move only the caller's own tokens into and out of a time lock; there is no owner."}),
	}
}

// registerHolders lists the token's launch recipients as vesting.
func registerHolders(w *writer, env *zooEnv, t *zooToken) error {
	list := make([]common.Address, len(t.holdings))
	for i := range t.holdings {
		list[i] = env.accts.holders[(t.offset+i)%holderCount].addr
	}
	return w.invoke(t.creator, "AirdropVaultToken", t.token, nil, "registerAirdrop", list)
}

func deployLedger(w *writer, _ *zooEnv, creator *account, supply *big.Int) (deployed, error) {
	ledger, err := w.deploy(creator, "BalanceLedger")
	if err != nil {
		return deployed{}, err
	}
	token, err := w.deploy(creator, "DelegatedLedgerToken", ledger, supply)
	if err != nil {
		return deployed{}, err
	}
	return deployed{token: token}, w.invoke(creator, "BalanceLedger", ledger, nil, "bind", token, creator.addr, supply)
}

func deployGuarded(w *writer, env *zooEnv, creator *account, supply *big.Int) (deployed, error) {
	guard, err := w.deploy(creator, "OpenGuard")
	if err != nil {
		return deployed{}, err
	}
	token, err := w.deploy(creator, "GuardedHookToken", supply)
	if err != nil {
		return deployed{}, err
	}
	return deployed{token: token}, w.invoke(creator, "GuardedHookToken", token, nil, "updateRouterAndPair", env.router, guard)
}
