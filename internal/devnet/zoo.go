package devnet

import (
	"fmt"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
)

// erc20ABI is the artifact whose ABI is used for plain ERC-20 calls on any
// zoo token (the selectors are the same everywhere).
const erc20ABI = "PlainERC20"

// lpFate is what the creator does with the LP shares it received.
type lpFate int

const (
	lpBurn lpFate = iota // sent to 0x…dEaD
	lpKeep               // stays in the creator's wallet
	lpLock               // locked in the LP locker for a year
)

// ownerKind says what owner() answers once the zoo is set up.
type ownerKind int

const (
	ownedByCreator ownerKind = iota
	renounced                // owner() is the zero address
	ownerless                // there is no owner()
)

// deployed is what a spec's deploy step created.
type deployed struct {
	token          common.Address
	implementation common.Address
}

// zooEnv is the AMM the zoo is built on, and its accounts.
type zooEnv struct {
	weth, factory, router, locker, usdc common.Address
	pairCodeHash                        common.Hash
	accts                               *accounts
	v4                                  *v4Env // nil without the Uniswap V4 build
	// now is the wall-clock time the setup history is dated from.
	now time.Time
}

// zooSpec describes one zoo token: how to deploy it, its pool, its
// holders and what it is built to do.
type zooSpec struct {
	kind      string
	behaviour string
	decimals  int
	deploy    func(w *writer, env *zooEnv, creator *account, supply *big.Int) (deployed, error)
	poolPct   int64 // percent of supply added to the WETH pool; 0 = no pool
	poolETH   int64 // whole ETH beside it
	young     bool  // pool added 20 hours ago: under the 72-hour NEW_POOL threshold
	noPool    bool  // no pool at all
	holders   int
	holderPct int64 // percent of supply spread over holders
	whalePct  int64 // percent of supply sent to one whale wallet
	lp        lpFate
	buys      int
	noSells   bool // no holder sells in the setup (honeypots, trading off, a stash kept whole, bags over a cap)
	owner     ownerKind
	// after runs once liquidity and holders are in place (creator actions).
	after func(w *writer, env *zooEnv, t *zooToken) error
	// trade runs in the trading phase, after the holders' buys.
	trade func(w *writer, env *zooEnv, t *zooToken) error
}

// zooToken is a deployed spec.
type zooToken struct {
	spec    zooSpec
	creator *account
	supply  *big.Int
	deployed
	pair     common.Address // zero without a pool
	offset   int            // first holder index
	holdings []*big.Int     // what each of the holders received
}

// plain deploys a contract whose constructor takes the given arguments.
func plain(contract string, args func(env *zooEnv, creator *account, supply *big.Int) []any) func(*writer, *zooEnv, *account, *big.Int) (deployed, error) {
	return func(w *writer, env *zooEnv, creator *account, supply *big.Int) (deployed, error) {
		addr, err := w.deploy(creator, contract, args(env, creator, supply)...)
		return deployed{token: addr}, err
	}
}

func supplyOnly(_ *zooEnv, _ *account, supply *big.Int) []any { return []any{supply} }
func routerSupply(env *zooEnv, _ *account, supply *big.Int) []any {
	return []any{env.router, supply}
}
func named(name, symbol string) func(*zooEnv, *account, *big.Int) []any {
	return func(_ *zooEnv, _ *account, supply *big.Int) []any { return []any{name, symbol, supply} }
}

// zooSpecs is the zoo, in the order of issue 3, then the field zoo of
// issue 18 (zoo_fields.go, zoo_shapes.go, zoo_fields2.go).
func zooSpecs() []zooSpec {
	renounce := func(w *writer, _ *zooEnv, t *zooToken) error {
		return w.invoke(t.creator, t.ownerABI(), t.token, nil, "renounceOwnership")
	}
	std := func(s zooSpec) zooSpec {
		if s.decimals == 0 {
			s.decimals = 18
		}
		if s.poolPct == 0 && s.poolETH == 0 && !s.noPool {
			s.poolPct, s.poolETH = 50, 20
		}
		// The rest of the supply goes to 55 holders: each kind's risk is
		// then its own, not a side effect of a whale creator, unlocked
		// LP or too few holders (the kinds that test those say so).
		if s.holders == 0 && s.holderPct == 0 {
			s.holders, s.holderPct = 55, 100-s.poolPct-s.whalePct
		}
		return s
	}
	return append([]zooSpec{
		std(zooSpec{kind: "clean", deploy: plain("CleanToken", named("Clean Token", "CLEAN")),
			behaviour: "Standard ERC-20 with ownership renounced, LP burned to 0xdEaD and supply spread over 60 holders.",
			poolPct:   60, poolETH: 20, holders: 60, holderPct: 40, buys: 3, owner: renounced, after: renounce}),
		std(zooSpec{kind: "clean_owned", deploy: plain("CommunityToken", named("Community Token", "COMM")),
			behaviour: "Standard ERC-20 whose owner is kept but can only transfer ownership; LP burned, supply spread.",
			poolPct:   60, poolETH: 20, holders: 60, holderPct: 40, buys: 3}),
		std(zooSpec{kind: "honeypot_sell_blocked", deploy: plain("MoonRocket", routerSupply), young: true, buys: 4, noSells: true,
			behaviour: "Anyone can buy, but transfers into the pair (sells) revert for everyone except the owner."}),
		std(zooSpec{kind: "honeypot_blacklist_on_buy", deploy: plain("SniperTrap", routerSupply), decimals: 9, young: true, buys: 4, noSells: true,
			behaviour: "Every wallet that buys from the pair is flagged as a sniper and can never transfer or sell again."}),
		std(zooSpec{kind: "tax_sell_high", deploy: plain("TaxedToken", routerSupply), buys: 3,
			behaviour: "Takes 5% of every buy and 30% of every sell, kept by the token contract."}),
		std(zooSpec{kind: "tax_extreme", young: true, buys: 3, poolETH: 10, poolPct: 50,
			deploy: plain("GreedToken", func(env *zooEnv, _ *account, supply *big.Int) []any {
				return []any{env.router, env.accts.marketing.addr, supply}
			}),
			behaviour: "Sends 99% of every sell to a marketing wallet; buys are untaxed."}),
		std(zooSpec{kind: "fee_modifiable", buys: 3,
			deploy: plain("AdjustableFeeToken", func(env *zooEnv, _ *account, supply *big.Int) []any {
				return []any{env.router, env.accts.marketing.addr, supply}
			}),
			behaviour: "Charges 2% on buys and sells today; the owner can set any fee with updateFees, uncapped."}),
		std(zooSpec{kind: "mintable", deploy: plain("MintableToken", supplyOnly), buys: 2,
			behaviour: "The owner can mint any amount to any address with mint(address,uint256)."}),
		std(zooSpec{kind: "hidden_mint", deploy: plain("RewardToken", supplyOnly), buys: 2,
			behaviour: "An owner-only distributeRewards(address,uint256) credits balances and supply out of thin air."}),
		std(zooSpec{kind: "blacklist", deploy: plain("GuardedToken", supplyOnly), buys: 2,
			behaviour: "The owner can blacklist any address with blacklistAddress, freezing its tokens."}),
		std(zooSpec{kind: "pausable", deploy: plain("PausableToken", supplyOnly), buys: 2,
			behaviour: "The owner can pause every transfer but its own with pause(); currently unpaused."}),
		std(zooSpec{kind: "max_tx", deploy: plain("LimitedToken", supplyOnly), buys: 2,
			behaviour: "No transfer may exceed 1% of supply; the owner changes the limit with setMaxTxPercent."}),
		std(zooSpec{kind: "cooldown", deploy: plain("CooldownToken", routerSupply), buys: 3,
			behaviour: "A wallet must wait 60 seconds between two trades against the pair; the owner can switch it off."}),
		std(zooSpec{kind: "trading_disabled", deploy: plain("StealthLaunch", supplyOnly), young: true, noSells: true,
			behaviour: "Only the owner can move tokens until it calls openTrading(), which it has not: nobody can buy."}),
		std(zooSpec{kind: "proxy_upgradeable", deploy: deployProxy, buys: 2,
			behaviour: "EIP-1967 proxy whose admin (an EOA) can swap the token implementation at any time."}),
		std(zooSpec{kind: "selfdestruct", deploy: plain("LegacyToken", supplyOnly), buys: 2,
			behaviour: "The owner can call emergencyShutdown(), which executes SELFDESTRUCT."}),
		std(zooSpec{kind: "hidden_owner", deploy: plain("ShadowToken", supplyOnly), buys: 2, owner: renounced, after: renounce,
			behaviour: "owner() reads zero after renounceOwnership, but the creator stays authorised: it can change the tax and unlock() ownership back."}),
		std(zooSpec{kind: "balance_modifiable", deploy: plain("FlexToken", supplyOnly), buys: 2,
			behaviour: "The owner can overwrite any holder's balance with setBalance(address,uint256)."}),
		std(zooSpec{kind: "lp_unlocked", deploy: plain("CleanToken", named("Unlocked Liquidity", "ULQ")),
			poolPct: 60, poolETH: 20, holders: 55, holderPct: 40, lp: lpKeep, buys: 2, owner: renounced, after: renounce,
			behaviour: "Clean renounced token whose LP shares all sit in the creator's wallet."}),
		std(zooSpec{kind: "lp_locked", deploy: plain("CleanToken", named("Locked Liquidity", "LLQ")),
			poolPct: 60, poolETH: 20, holders: 55, holderPct: 40, lp: lpLock, buys: 2, owner: renounced, after: renounce,
			behaviour: "Clean renounced token whose LP shares are locked in the devnet LP locker for a year."}),
		std(zooSpec{kind: "concentrated", deploy: plain("PlainERC20", named("Whale Bag", "WBAG")),
			poolPct: 10, poolETH: 10, holders: 30, holderPct: 10, whalePct: 80, buys: 2, owner: ownerless,
			behaviour: "Ownerless token where one wallet holds 80% of supply outside the pool."}),
		std(zooSpec{kind: "no_liquidity", deploy: plain("PlainERC20", named("No Pool", "NOPOOL")),
			noPool: true, holders: 55, holderPct: 100, owner: ownerless,
			behaviour: "Ownerless token with holders but no pool on any DEX."}),
		std(zooSpec{kind: "fee_on_transfer", buys: 3, trade: walletToWallet,
			deploy: plain("TransferFeeToken", func(env *zooEnv, _ *account, supply *big.Int) []any {
				return []any{env.router, env.accts.marketing.addr, supply}
			}),
			behaviour: "Takes 5% of wallet-to-wallet transfers; buys and sells through the pair are free."}),
		std(zooSpec{kind: "external_call", deploy: deployHooked, buys: 2,
			behaviour: "Every transfer calls a listener contract the owner can replace with setListener."}),
		std(zooSpec{kind: "weird_metadata", deploy: plain("WeirdMetaToken", supplyOnly), poolPct: 50, poolETH: 10, buys: 2, owner: ownerless,
			behaviour: "name() reverts and symbol() returns 4 KiB of invalid UTF-8; transfers are ordinary."}),
		std(zooSpec{kind: "swap_back", buys: 2, noSells: true, poolPct: 50, poolETH: 20, holders: 55, holderPct: 40,
			deploy: plain("StashToken", func(env *zooEnv, _ *account, supply *big.Int) []any {
				return []any{env.router, env.accts.marketing.addr, supply}
			}),
			behaviour: "Takes 5% of buys and 12% of sells; any other transfer first sells the contract's fee stash (1/12 of supply, a sixth of the pool) through the router, dumping the price inside the holder's own transaction. Its holders have not sold yet, so the stash is whole."}),
		std(zooSpec{kind: "reflection", deploy: plain("ReflectionToken", supplyOnly), decimals: 9, buys: 3,
			behaviour: "Reflection token (rOwned/tOwned): 4% of every transfer between holders is redistributed to every holder, the pool included, by shrinking the reflected supply (balances grow without a Transfer)."}),
		std(zooSpec{kind: "max_tx_tight", deploy: plain("TightCapToken", supplyOnly), noSells: true,
			behaviour: "No transfer may exceed 0.005% of supply, a thirtieth of an ordinary trade (0.3% of the pool's ETH buys about 0.15%); the owner sets the cap with setMaxTxAmount. Freshly launched: no holder has traded yet."}),
		{kind: "not_a_token", deploy: deployRegistry, owner: ownerless,
			behaviour: "A vault registry contract with no ERC-20 functions at all."},
	}, append(append(fieldSpecs(), shapeSpecs()...), fieldSpecs2()...)...)
}

// ownerABI is the artifact whose ABI has the token's ownership functions.
func (t *zooToken) ownerABI() string {
	switch t.spec.kind {
	case "clean", "lp_unlocked", "lp_locked":
		return "CleanToken"
	case "hidden_owner":
		return "ShadowToken"
	}
	return erc20ABI
}

func deployProxy(w *writer, _ *zooEnv, creator *account, supply *big.Int) (deployed, error) {
	impl, err := w.deploy(creator, "UpgradeableToken")
	if err != nil {
		return deployed{}, err
	}
	c, err := w.artifact("UpgradeableToken")
	if err != nil {
		return deployed{}, err
	}
	init, err := c.ABI.Pack("initialize", "Upgradable Yield Dollar", "UYD", supply, creator.addr)
	if err != nil {
		return deployed{}, fmt.Errorf("devnet: pack initialize: %w", err)
	}
	proxy, err := w.deploy(creator, "TransparentProxy", impl, creator.addr, init)
	return deployed{token: proxy, implementation: impl}, err
}

func deployHooked(w *writer, _ *zooEnv, creator *account, supply *big.Int) (deployed, error) {
	counter, err := w.deploy(creator, "TransferCounter")
	if err != nil {
		return deployed{}, err
	}
	token, err := w.deploy(creator, "HookedToken", supply)
	if err != nil {
		return deployed{}, err
	}
	err = w.invoke(creator, "HookedToken", token, nil, "setListener", counter)
	return deployed{token: token}, err
}

func deployRegistry(w *writer, _ *zooEnv, creator *account, _ *big.Int) (deployed, error) {
	reg, err := w.deploy(creator, "VaultRegistry")
	if err != nil {
		return deployed{}, err
	}
	for i, name := range []string{"treasury", "staking"} {
		var key [32]byte
		copy(key[:], name)
		vault := common.BigToAddress(big.NewInt(int64(0x1000 + i)))
		if err := w.invoke(creator, "VaultRegistry", reg, nil, "register", key, vault); err != nil {
			return deployed{}, err
		}
	}
	return deployed{token: reg}, nil
}

// walletToWallet moves tokens between holders, so the transfer fee shows
// in the logs.
func walletToWallet(w *writer, env *zooEnv, t *zooToken) error {
	for i := range 3 {
		from := env.accts.holders[(t.offset+i)%holderCount]
		to := env.accts.holders[(t.offset+i+10)%holderCount]
		amount := new(big.Int).Div(t.supply, big.NewInt(10_000))
		if err := w.invoke(from, erc20ABI, t.token, nil, "transfer", to.addr, amount); err != nil {
			return err
		}
	}
	return nil
}

// History of the setup chain: the zoo was deployed six days ago, the
// established pools got liquidity then and trades two days later, the
// young pools (under the engine's 72-hour NEW_POOL threshold) 20 hours ago.
const (
	historyStart   = 6 * 24 * time.Hour
	oldTradesAgo   = 4 * 24 * time.Hour
	youngLaunchAgo = 20 * time.Hour
	youngTradesAgo = 19 * time.Hour
)

// planZoo plans the whole setup history (the AMM, the USD pool, the zoo,
// its pools, holders and trades) as blocks relative to now, and returns
// the plan and the manifest (without the RPC URL and chain id).
func planZoo(a *accounts, now time.Time) (*writer, Manifest, error) {
	w := newWriter(params.AllDevChainProtocolChanges.ChainID)
	env := &zooEnv{accts: a, now: now}
	dep := a.deployer

	// Block 1: WETH, the AMM, the locker and USDC.
	var err error
	if env.weth, err = w.deploy(dep, "WETH"); err != nil {
		return nil, Manifest{}, err
	}
	if env.factory, err = w.deploy(dep, "V2Factory", dep.addr); err != nil {
		return nil, Manifest{}, err
	}
	if env.router, err = w.deploy(dep, "V2Router", env.factory, env.weth); err != nil {
		return nil, Manifest{}, err
	}
	if env.locker, err = w.deploy(dep, "LPLocker"); err != nil {
		return nil, Manifest{}, err
	}
	usdSupply := new(big.Int).Mul(big.NewInt(1_000_000_000), big.NewInt(1_000_000))
	if env.usdc, err = w.deploy(dep, "StableUSD", usdSupply); err != nil {
		return nil, Manifest{}, err
	}
	pairArt, err := w.artifact("V2Pair")
	if err != nil {
		return nil, Manifest{}, err
	}
	env.pairCodeHash = crypto.Keccak256Hash(pairArt.Bytecode)
	if env.v4, err = planV4(w, env); err != nil {
		return nil, Manifest{}, err
	}
	w.seal(time.Time{})

	// Block 2: every zoo contract.
	var zoo []*zooToken
	for i, spec := range allZooSpecs() {
		creator := a.creators[spec.kind]
		supply := new(big.Int).Mul(big.NewInt(1_000_000_000), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(spec.decimals)), nil))
		dd, err := spec.deploy(w, env, creator, supply)
		if err != nil {
			return nil, Manifest{}, fmt.Errorf("%s: %w", spec.kind, err)
		}
		t := &zooToken{spec: spec, creator: creator, supply: supply, deployed: dd, offset: (i * 7) % holderCount}
		if spec.poolPct > 0 {
			t.pair = env.pairFor(t.token)
		}
		zoo = append(zoo, t)
	}
	w.seal(time.Time{})

	// Block 3: the USD pool and the established pools; block 4, two days
	// later: their trades. Blocks 5 and 6: the young pools and trades.
	usdPair, err := addUSDPool(w, env)
	if err != nil {
		return nil, Manifest{}, err
	}
	unlock := big.NewInt(now.Add(365 * 24 * time.Hour).Unix())
	if err := launchAll(w, env, zoo, false, unlock, now.Add(-oldTradesAgo)); err != nil {
		return nil, Manifest{}, err
	}
	w.seal(now.Add(-youngLaunchAgo))
	if err := launchAll(w, env, zoo, true, unlock, now.Add(-youngTradesAgo)); err != nil {
		return nil, Manifest{}, err
	}
	w.seal(time.Time{})

	m := Manifest{
		WETH: env.weth.Hex(), USDC: env.usdc.Hex(), Factory: env.factory.Hex(), Router: env.router.Hex(),
		Locker: env.locker.Hex(), Deployer: dep.addr.Hex(), USDCPair: usdPair.Hex(),
	}
	env.v4.describe(&m)
	for _, t := range zoo {
		mt := ManifestToken{
			Kind: t.spec.kind, Address: t.token.Hex(), Creator: t.creator.addr.Hex(),
			Decimals: t.spec.decimals, Behaviour: t.spec.behaviour,
		}
		if t.pair != (common.Address{}) {
			mt.Pair = t.pair.Hex()
		}
		switch t.spec.owner {
		case ownedByCreator:
			mt.Owner = t.creator.addr.Hex()
		case renounced:
			mt.Owner = common.Address{}.Hex()
		}
		if t.implementation != (common.Address{}) {
			mt.Implementation = t.implementation.Hex()
		}
		env.v4.describeToken(&mt, t.token)
		m.Tokens = append(m.Tokens, mt)
	}
	return w, m, nil
}

// pairFor is the CREATE2 address the factory gives the token/WETH pair.
func (env *zooEnv) pairFor(token common.Address) common.Address {
	t0, t1 := token, env.weth
	if t1.Cmp(t0) < 0 {
		t0, t1 = t1, t0
	}
	salt := crypto.Keccak256Hash(t0.Bytes(), t1.Bytes())
	return crypto.CreateAddress2(env.factory, salt, env.pairCodeHash.Bytes())
}

// maxDeadline never expires.
var maxDeadline = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// addUSDPool adds 100 WETH against 300,000 USDC: ETH at 3000 USD.
func addUSDPool(w *writer, env *zooEnv) (common.Address, error) {
	dep := env.accts.deployer
	usd := new(big.Int).Mul(big.NewInt(300_000), big.NewInt(1_000_000))
	if err := w.invoke(dep, "StableUSD", env.usdc, nil, "approve", env.router, usd); err != nil {
		return common.Address{}, err
	}
	if err := w.invoke(dep, "V2Router", env.router, ether(100), "addLiquidityETH", env.usdc, usd, big.NewInt(0), big.NewInt(0), dep.addr, maxDeadline); err != nil {
		return common.Address{}, err
	}
	return env.pairFor(env.usdc), nil
}

// launchAll plans, for the young or the established tokens, a block of
// creator transactions (liquidity, LP, holders) and then, at tradesAt, a
// block of holders' trades.
func launchAll(w *writer, env *zooEnv, zoo []*zooToken, young bool, unlock *big.Int, tradesAt time.Time) error {
	for _, t := range zoo {
		if t.spec.young != young {
			continue
		}
		if err := launch(w, env, t, unlock); err != nil {
			return fmt.Errorf("%s: %w", t.spec.kind, err)
		}
	}
	w.seal(tradesAt)
	for _, t := range zoo {
		if t.spec.young != young {
			continue
		}
		if err := trade(w, env, t); err != nil {
			return fmt.Errorf("%s: %w", t.spec.kind, err)
		}
	}
	return nil
}

func pct(supply *big.Int, p int64) *big.Int {
	return new(big.Int).Div(new(big.Int).Mul(supply, big.NewInt(p)), big.NewInt(100))
}

// launch sends the creator's transactions for one token.
func launch(w *writer, env *zooEnv, t *zooToken, unlock *big.Int) error {
	c := t.creator
	s := t.spec
	if s.poolPct > 0 {
		amount := pct(t.supply, s.poolPct)
		eth := ether(s.poolETH)
		if err := w.invoke(c, erc20ABI, t.token, nil, "approve", env.router, amount); err != nil {
			return err
		}
		if err := w.invoke(c, "V2Router", env.router, eth, "addLiquidityETH", t.token, amount, big.NewInt(0), big.NewInt(0), c.addr, maxDeadline); err != nil {
			return err
		}
		// The first mint of a pool gives sqrt(x*y) minus the 1000 locked shares.
		lp := new(big.Int).Sub(new(big.Int).Sqrt(new(big.Int).Mul(amount, eth)), big.NewInt(1000))
		switch s.lp {
		case lpBurn:
			if err := w.invoke(c, "V2Pair", t.pair, nil, "transfer", deadAddress, lp); err != nil {
				return err
			}
		case lpLock:
			if err := w.invoke(c, "V2Pair", t.pair, nil, "approve", env.locker, lp); err != nil {
				return err
			}
			if err := w.invoke(c, "LPLocker", env.locker, nil, "lock", t.pair, lp, unlock); err != nil {
				return err
			}
		}
	}
	if s.whalePct > 0 {
		if err := w.invoke(c, erc20ABI, t.token, nil, "transfer", env.accts.whale.addr, pct(t.supply, s.whalePct)); err != nil {
			return err
		}
	}
	if s.holders > 0 {
		t.holdings = spread(pct(t.supply, s.holderPct), s.holders, s.kind)
		for i, amount := range t.holdings {
			h := env.accts.holders[(t.offset+i)%holderCount]
			if err := w.invoke(c, erc20ABI, t.token, nil, "transfer", h.addr, amount); err != nil {
				return err
			}
		}
	}
	if s.after != nil {
		return s.after(w, env, t)
	}
	return nil
}

// spread splits total into n deterministic, uneven (1x to 2x) amounts.
func spread(total *big.Int, n int, seed string) []*big.Int {
	h := fnv.New64a()
	_, _ = h.Write([]byte(seed))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x70c3))
	weights := make([]int64, n)
	var sum int64
	for i := range weights {
		weights[i] = 1000 + rng.Int64N(1000)
		sum += weights[i]
	}
	out := make([]*big.Int, n)
	for i, wgt := range weights {
		out[i] = new(big.Int).Div(new(big.Int).Mul(total, big.NewInt(wgt)), big.NewInt(sum))
	}
	return out
}

// trade makes a few holders buy, and one sell, through the router (real
// Swap and Transfer logs both ways) and runs the spec's own trading step.
func trade(w *writer, env *zooEnv, t *zooToken) error {
	if t.pair != (common.Address{}) {
		for i := range t.spec.buys {
			buyer := env.accts.holders[(t.offset+t.spec.holders+i)%holderCount]
			value := new(big.Int).Mul(big.NewInt(int64(5+5*i)), big.NewInt(1e16)) // 0.05, 0.10, … ETH
			path := []common.Address{env.weth, t.token}
			if err := w.invoke(buyer, "V2Router", env.router, value, "swapExactETHForTokensSupportingFeeOnTransferTokens", big.NewInt(0), path, buyer.addr, maxDeadline); err != nil {
				return err
			}
		}
	}
	if t.pair != (common.Address{}) && !t.spec.noSells && len(t.holdings) > 0 {
		// One early holder takes a tenth of its bag back to the pool.
		seller := env.accts.holders[t.offset%holderCount]
		amount := new(big.Int).Div(t.holdings[0], big.NewInt(10))
		if err := w.invoke(seller, erc20ABI, t.token, nil, "approve", env.router, amount); err != nil {
			return err
		}
		path := []common.Address{t.token, env.weth}
		if err := w.invoke(seller, "V2Router", env.router, nil, "swapExactTokensForETHSupportingFeeOnTransferTokens", amount, big.NewInt(0), path, seller.addr, maxDeadline); err != nil {
			return err
		}
	}
	if t.spec.trade != nil {
		return t.spec.trade(w, env, t)
	}
	return nil
}
