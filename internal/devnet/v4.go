package devnet

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// V4NotBuilt is the manifest's uniswap_v4 note when the devnet runs without
// the Uniswap V4 build (contracts/v4/build.sh): no PoolManager, no V4 kinds.
const V4NotBuilt = "not deployed: Uniswap V4 is not built (run contracts/v4/build.sh before go build)"

// v4DeployGas covers the PoolManager's creation (~24 KB of runtime code),
// under the per-transaction cap of the dev chain's forks.
const v4DeployGas = 15_000_000

// Uniswap V4's fixed points: full-range ticks for a tick spacing of 60,
// the fee of the zoo's pools (0.3%), and the permissions a TaxHook's
// address carries (beforeSwap 1<<7, afterSwap 1<<6, afterSwapReturnDelta
// 1<<2; the low 14 bits of a hook's address are its permissions).
const (
	v4TickSpacing  = 60
	v4MaxTick      = 887220 // 887272 rounded down to a multiple of 60
	v4Fee          = 3000
	v4TaxHookFlags = 1<<7 | 1<<6 | 1<<2
	v4FlagMask     = 1<<14 - 1
)

// v4Env is the Uniswap V4 deployment on the devnet.
type v4Env struct {
	manager, stateView, router, hookFactory common.Address
	pools                                   map[common.Address]v4Pool // by token
}

// v4PoolKey is a V4 PoolKey in the form go-ethereum's ABI packs a tuple.
type v4PoolKey struct {
	Currency0   common.Address
	Currency1   common.Address
	Fee         *big.Int
	TickSpacing *big.Int
	Hooks       common.Address
}

// id is the PoolId: keccak256 of the ABI-encoded key (five words).
func (k v4PoolKey) id() common.Hash {
	var buf bytes.Buffer
	buf.Write(common.LeftPadBytes(k.Currency0.Bytes(), 32))
	buf.Write(common.LeftPadBytes(k.Currency1.Bytes(), 32))
	buf.Write(common.LeftPadBytes(k.Fee.Bytes(), 32))
	buf.Write(common.LeftPadBytes(k.TickSpacing.Bytes(), 32))
	buf.Write(common.LeftPadBytes(k.Hooks.Bytes(), 32))
	return crypto.Keccak256Hash(buf.Bytes())
}

// planV4 deploys the real Uniswap V4 PoolManager and StateView (from the
// npm build) and the devnet's own V4 router and hook factory, from the
// deployer; nil when the build is absent.
func planV4(w *writer, env *zooEnv) (*v4Env, error) {
	if !contracts.UniswapV4Built() {
		return nil, nil
	}
	dep := env.accts.deployer
	v := &v4Env{pools: map[common.Address]v4Pool{}}
	var err error
	for _, name := range []string{"PoolManager", "StateView"} {
		c, err := contracts.UniswapV4(name)
		if err != nil {
			return nil, fmt.Errorf("devnet: %w", err)
		}
		w.abis[name] = c
	}
	if v.manager, err = w.deployGas(dep, "PoolManager", v4DeployGas, dep.addr); err != nil {
		return nil, err
	}
	if v.stateView, err = w.deploy(dep, "StateView", v.manager); err != nil {
		return nil, err
	}
	if v.router, err = w.deploy(dep, "V4Router", v.manager); err != nil {
		return nil, err
	}
	if v.hookFactory, err = w.deploy(dep, "HookFactory"); err != nil {
		return nil, err
	}
	return v, nil
}

// deployGas is deploy with a gas limit of its own.
func (w *writer) deployGas(from *account, name string, gas uint64, args ...any) (common.Address, error) {
	c, err := w.artifact(name)
	if err != nil {
		return common.Address{}, err
	}
	packed, err := c.ABI.Pack("", args...)
	if err != nil {
		return common.Address{}, fmt.Errorf("devnet: %s constructor: %w", name, err)
	}
	addr := crypto.CreateAddress(from.addr, from.nonce)
	code := append(append([]byte(nil), c.Bytecode...), packed...)
	return addr, w.send(from, nil, nil, code, gas, "deploy "+name+" by "+from.name)
}

// deployHook plans a TaxHook through the hook factory at a CREATE2
// address whose low 14 bits are exactly the hook's permissions (the salt
// is mined here: about 16 000 tries on average).
func deployHook(w *writer, env *zooEnv, creator *account, token common.Address, l v4Launch) (common.Address, error) {
	c, err := w.artifact("TaxHook")
	if err != nil {
		return common.Address{}, err
	}
	args, err := c.ABI.Pack("", env.v4.manager, token, creator.addr, big.NewInt(l.feeBps), big.NewInt(l.maxBps), l.blocked, l.closable)
	if err != nil {
		return common.Address{}, fmt.Errorf("devnet: TaxHook constructor: %w", err)
	}
	initCode := append(append([]byte(nil), c.Bytecode...), args...)
	salt, addr, err := mineHookSalt(env.v4.hookFactory, crypto.Keccak256(initCode), v4TaxHookFlags)
	if err != nil {
		return common.Address{}, err
	}
	return addr, w.invoke(creator, "HookFactory", env.v4.hookFactory, nil, "deploy", salt, initCode)
}

// mineHookSalt finds the first salt whose CREATE2 address from factory has
// exactly flags in its low 14 bits.
func mineHookSalt(factory common.Address, initCodeHash []byte, flags uint16) ([32]byte, common.Address, error) {
	var salt [32]byte
	for i := uint64(0); i < 1<<24; i++ {
		new(big.Int).SetUint64(i).FillBytes(salt[:])
		addr := crypto.CreateAddress2(factory, salt, initCodeHash)
		if (uint16(addr[18])<<8|uint16(addr[19]))&v4FlagMask == flags {
			return salt, addr, nil
		}
	}
	return salt, common.Address{}, errors.New("devnet: no hook salt found in 2^24 tries")
}

// fullRange returns the sqrt price (Q64.96) and the liquidity of a
// full-range position holding amount0 and amount1: price = amount1 /
// amount0, liquidity = sqrt(amount0 * amount1), less 0.1% so the amounts
// the pool asks for (slightly under those of an infinite range) always fit.
func fullRange(amount0, amount1 *big.Int) (sqrtPriceX96, liquidity *big.Int) {
	sqrtPriceX96 = new(big.Int).Sqrt(new(big.Int).Div(new(big.Int).Lsh(amount1, 192), amount0))
	liquidity = new(big.Int).Sqrt(new(big.Int).Mul(amount0, amount1))
	liquidity.Mul(liquidity, big.NewInt(999)).Div(liquidity, big.NewInt(1000))
	return sqrtPriceX96, liquidity
}

// sortedKey is the PoolKey of token against quote (address zero: native).
func sortedKey(token, quote, hook common.Address) v4PoolKey {
	c0, c1 := quote, token
	if token.Cmp(quote) < 0 {
		c0, c1 = token, quote
	}
	return v4PoolKey{Currency0: c0, Currency1: c1, Fee: big.NewInt(v4Fee), TickSpacing: big.NewInt(v4TickSpacing), Hooks: hook}
}

// allZooSpecs is the zoo with the V4 kinds when V4 is built.
func allZooSpecs() []zooSpec { return append(zooSpecs(), v4ZooSpecs()...) }

// describe fills the manifest's V4 entries (or says why there are none).
func (v *v4Env) describe(m *Manifest) {
	if v == nil {
		m.UniswapV4 = V4NotBuilt
		return
	}
	c, err := contracts.UniswapV4("PoolManager")
	if err != nil {
		m.UniswapV4 = "deployed"
	} else {
		m.UniswapV4 = "deployed: " + c.Source
	}
	m.PoolManager, m.StateView, m.V4Router = v.manager.Hex(), v.stateView.Hex(), v.router.Hex()
}

// describeToken fills a token's V4 pool and hook in the manifest.
func (v *v4Env) describeToken(mt *ManifestToken, token common.Address) {
	if v == nil {
		return
	}
	p, ok := v.pools[token]
	if !ok {
		return
	}
	mt.V4PoolID = p.id.Hex()
	if p.key.Hooks != (common.Address{}) {
		mt.Hook = p.key.Hooks.Hex()
	}
}
