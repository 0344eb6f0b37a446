package devnet

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// v4Launch is how a V4 zoo kind's pool is set up: its share of supply and
// native ETH, and its hook (none when hook is false): its fee and cap, and
// whether its owner has a switch that closes sells (closable) and keeps
// them closed now (blocked).
type v4Launch struct {
	poolPct, poolETH  int64
	hook              bool
	feeBps, maxBps    int64
	blocked, closable bool
}

// v4Pool is a V4 zoo pool: its key and id.
type v4Pool struct {
	key v4PoolKey
	id  common.Hash
}

// v4ZooSpecs are the kinds that trade on Uniswap V4, present only when the
// V4 build is embedded. Their tokens are clean and renounced: the risk of
// each kind is its pool's hook alone (a TaxHook, our own Solidity), and
// every pool is native ETH (currency0, address zero) against the token.
func v4ZooSpecs() []zooSpec {
	if !contracts.UniswapV4Built() {
		return nil
	}
	spec := func(kind, name, symbol, behaviour string, l v4Launch, s zooSpec) zooSpec {
		s.kind, s.behaviour, s.decimals, s.owner = kind, behaviour, 18, renounced
		s.deploy = plain("CleanToken", named(name, symbol))
		if s.poolPct == 0 {
			s.noPool = true
		}
		if s.holders == 0 {
			// 40% over 60 holders, as the clean V2 token: the top ten
			// hold under the insider threshold, so the hook stays the
			// kind's only risk.
			s.holders, s.holderPct = 60, 100-s.poolPct-l.poolPct
		}
		s.after = func(w *writer, env *zooEnv, t *zooToken) error { return launchV4(w, env, t, l) }
		s.trade = func(w *writer, env *zooEnv, t *zooToken) error { return tradeV4(w, env, t, 3, !s.noSells) }
		return s
	}
	return []zooSpec{
		spec("v4_clean", "Fourth Clean", "FOUR",
			"Clean renounced token trading only on a Uniswap V4 pool against native ETH, without a hook.",
			v4Launch{poolPct: 60, poolETH: 20}, zooSpec{}),
		spec("v4_hook_fee_capped", "Capped Hook", "CAPH",
			"Clean renounced token on a Uniswap V4 pool whose hook takes 3% of every swap's output; its owner can raise that to 5% at most and has no switch that closes sells.",
			v4Launch{poolPct: 60, poolETH: 20, hook: true, feeBps: 300, maxBps: 500}, zooSpec{}),
		spec("v4_hook_sell_blocked", "Hook Trap", "HTRAP",
			"Clean renounced token on a Uniswap V4 pool whose hook reverts every sell of the token (its owner keeps sells closed): a honeypot in the hook.",
			v4Launch{poolPct: 60, poolETH: 20, hook: true, blocked: true, closable: true}, zooSpec{noSells: true}),
		spec("v4_hook_fee_changeable", "Open Hook", "OPENH",
			"Clean renounced token on a Uniswap V4 pool whose hook takes 1% of every swap's output today; its owner can set any cut up to 100% and close sells with one call.",
			v4Launch{poolPct: 60, poolETH: 20, hook: true, feeBps: 100, maxBps: 10_000, closable: true}, zooSpec{}),
		spec("v2_and_v4", "Two Pools", "TWOP",
			"Clean renounced token trading on a V2 pool (36% of supply, 12 ETH, LP burned) and on a hook-free Uniswap V4 pool (24%, 8 ETH) at the same price.",
			v4Launch{poolPct: 24, poolETH: 8}, zooSpec{poolPct: 36, poolETH: 12, buys: 2}),
	}
}

// launchV4 renounces the token, deploys its hook, initializes its V4 pool
// at the price of the amounts given and adds them as a full-range position
// through the devnet's V4 router.
func launchV4(w *writer, env *zooEnv, t *zooToken, l v4Launch) error {
	c := t.creator
	if err := w.invoke(c, "CleanToken", t.token, nil, "renounceOwnership"); err != nil {
		return err
	}
	var hook common.Address
	if l.hook {
		var err error
		if hook, err = deployHook(w, env, c, t.token, l); err != nil {
			return err
		}
	}
	key := sortedKey(t.token, common.Address{}, hook)
	amount, eth := pct(t.supply, l.poolPct), ether(l.poolETH)
	sqrtPrice, liquidity := fullRange(eth, amount) // currency0 is native ETH
	if err := w.invoke(c, "PoolManager", env.v4.manager, nil, "initialize", key, sqrtPrice); err != nil {
		return err
	}
	if err := w.invoke(c, erc20ABI, t.token, nil, "approve", env.v4.router, amount); err != nil {
		return err
	}
	if err := w.invoke(c, "V4Router", env.v4.router, eth, "addLiquidity", key, big.NewInt(-v4MaxTick), big.NewInt(v4MaxTick), liquidity); err != nil {
		return err
	}
	env.v4.pools[t.token] = v4Pool{key: key, id: key.id()}
	return nil
}

// tradeV4 makes holders buy on the token's V4 pool (0.05, 0.10, … ETH) and,
// when sells is set, one early holder sell a tenth of its bag there.
func tradeV4(w *writer, env *zooEnv, t *zooToken, buys int, sells bool) error {
	p, ok := env.v4.pools[t.token]
	if !ok {
		return fmt.Errorf("devnet: %s has no V4 pool", t.spec.kind)
	}
	for i := range buys {
		buyer := env.accts.holders[(t.offset+t.spec.holders+t.spec.buys+i)%holderCount]
		value := new(big.Int).Mul(big.NewInt(int64(5+5*i)), big.NewInt(1e16))
		if err := w.invoke(buyer, "V4Router", env.v4.router, value, "swapExactIn", p.key, true, value, big.NewInt(0), buyer.addr); err != nil {
			return err
		}
	}
	if !sells || len(t.holdings) == 0 {
		return nil
	}
	seller := env.accts.holders[(t.offset+1)%holderCount]
	amount := new(big.Int).Div(t.holdings[1], big.NewInt(10))
	if err := w.invoke(seller, erc20ABI, t.token, nil, "approve", env.v4.router, amount); err != nil {
		return err
	}
	return w.invoke(seller, "V4Router", env.v4.router, nil, "swapExactIn", p.key, false, amount, big.NewInt(0), seller.addr)
}
