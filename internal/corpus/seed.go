package corpus

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
)

// Shares of the seeded supply, in percent: the pool holds half, the
// creator (also the owner) a tenth, one top holder 15% and holderCount
// holders the rest.
const (
	poolPct     = 50
	creatorPct  = 10
	topPct      = 15
	holderCount = 10
)

// poolETH is the WETH each pool gets: 10 ETH, about 30,000 USD on the
// devnet, above the engine's low-liquidity line.
var poolETH = new(big.Int).Mul(big.NewInt(10), big.NewInt(params.Ether))

// deployGas and callGas bound the seeding transactions.
const (
	deployGas = 12_000_000
	callGas   = 1_000_000
	pairGas   = 6_000_000 // createPair deploys the pair
	// perBlock is how many tokens are seeded per mined block.
	perBlock = 12
)

// Seeded is what giving one token a state achieved.
type Seeded struct {
	// Address is where the token lives on the devnet.
	Address common.Address
	Layout  *Layout
	// Deployed says the token's code is on the chain.
	Deployed bool
	// Owner is the address the owner slot was set to (zero when no
	// owner slot was found).
	Owner common.Address
	// Funded says every planned balance reads back as planned.
	Funded bool
	// Pair is the token/WETH pool; Pool says it holds reserves.
	Pair common.Address
	Pool bool
	// Opened is how many storage words were set so that trades pass (see
	// openTrading).
	Opened int
	// Holders are the funded holders, the top holder first.
	Holders []common.Address
	// Notes say what failed or was assumed.
	Notes []string
}

// AllNotes are the layout's notes, then the seeding's.
func (s *Seeded) AllNotes() []string {
	var out []string
	if s.Layout != nil {
		out = append(out, s.Layout.Notes...)
	}
	return append(out, s.Notes...)
}

func (s *Seeded) note(format string, args ...any) {
	s.Notes = append(s.Notes, fmt.Sprintf(format, args...))
}

// Chain seeds corpus tokens on a running devnet, as one creator EOA.
type Chain struct {
	dn       *devnet.Devnet
	creator  *ecdsa.PrivateKey
	from     common.Address
	signer   types.Signer
	cfg      *params.ChainConfig
	weth     common.Address
	factory  common.Address
	router   common.Address
	pairHash common.Hash
	top      common.Address
	holders  []common.Address
	nonce    uint64
}

// Creator is the EOA that deploys every corpus token and owns it.
func (c *Chain) Creator() common.Address { return c.from }

// NewChain funds a corpus creator from the devnet's deployer and wraps
// enough ETH for every pool of n tokens.
func NewChain(ctx context.Context, dn *devnet.Devnet, n int) (*Chain, error) {
	m := dn.Manifest()
	depAddr := common.HexToAddress(m.Deployer)
	depKey, ok := dn.Key(depAddr)
	if !ok {
		return nil, errors.New("corpus: the devnet does not know its deployer's key")
	}
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("tokenrisk corpus creator")))
	if err != nil {
		return nil, fmt.Errorf("corpus: creator key: %w", err)
	}
	pairArt, err := contracts.Artifact("V2Pair")
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	cid := big.NewInt(m.ChainID)
	cfg := *params.AllDevChainProtocolChanges
	cfg.BogotaTime = nil
	c := &Chain{
		dn: dn, creator: key, from: crypto.PubkeyToAddress(key.PublicKey),
		signer: types.LatestSignerForChainID(cid), cfg: &cfg,
		weth: common.HexToAddress(m.WETH), factory: common.HexToAddress(m.Factory), router: common.HexToAddress(m.Router),
		pairHash: crypto.Keccak256Hash(pairArt.Bytecode),
	}
	derive := func(name string) common.Address {
		k, _ := crypto.ToECDSA(crypto.Keccak256([]byte("tokenrisk corpus " + name)))
		return crypto.PubkeyToAddress(k.PublicKey)
	}
	c.top = derive("top holder")
	for i := range holderCount {
		c.holders = append(c.holders, derive(fmt.Sprintf("holder %d", i)))
	}
	client := dn.Backend().Client()
	wrap := new(big.Int).Mul(poolETH, big.NewInt(int64(n)+1))
	fund := new(big.Int).Add(wrap, new(big.Int).Mul(big.NewInt(1000), big.NewInt(params.Ether)))
	depNonce, err := client.PendingNonceAt(ctx, depAddr)
	if err != nil {
		return nil, fmt.Errorf("corpus: deployer nonce: %w", err)
	}
	if _, err := c.send(ctx, depKey, depNonce, &c.from, fund, nil, 21_000); err != nil {
		return nil, err
	}
	dn.Commit()
	if c.nonce, err = client.PendingNonceAt(ctx, c.from); err != nil {
		return nil, fmt.Errorf("corpus: creator nonce: %w", err)
	}
	h, err := c.send(ctx, c.creator, c.nonce, &c.weth, wrap, selector("deposit()"), callGas)
	if err != nil {
		return nil, err
	}
	c.nonce++
	dn.Commit()
	if err := c.succeeded(ctx, h); err != nil {
		return nil, fmt.Errorf("corpus: wrap ETH: %w", err)
	}
	return c, nil
}

func (c *Chain) send(ctx context.Context, key *ecdsa.PrivateKey, nonce uint64, to *common.Address, value *big.Int, data []byte, gas uint64) (common.Hash, error) {
	if value == nil {
		value = new(big.Int)
	}
	tx, err := types.SignNewTx(key, c.signer, &types.DynamicFeeTx{
		ChainID: c.signer.ChainID(), Nonce: nonce, GasTipCap: big.NewInt(params.GWei),
		GasFeeCap: big.NewInt(50 * params.GWei), Gas: gas, To: to, Value: value, Data: data,
	})
	if err != nil {
		return common.Hash{}, fmt.Errorf("corpus: sign: %w", err)
	}
	if err := c.dn.Send(ctx, tx); err != nil {
		return common.Hash{}, fmt.Errorf("corpus: send: %w", err)
	}
	return tx.Hash(), nil
}

func (c *Chain) succeeded(ctx context.Context, h common.Hash) error {
	r, err := c.dn.Backend().Client().TransactionReceipt(ctx, h)
	if err != nil {
		return fmt.Errorf("corpus: receipt: %w", err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return errors.New("corpus: transaction reverted")
	}
	return nil
}

// reserves checks that pair holds both reserves.
func (c *Chain) reserves(ctx context.Context, pair common.Address) error {
	out, err := c.dn.Backend().Client().CallContract(ctx, ethereum.CallMsg{To: &pair, Data: selector("getReserves()")}, nil)
	if err != nil {
		return fmt.Errorf("getReserves: %w", err)
	}
	if len(out) < 64 || new(big.Int).SetBytes(out[:32]).Sign() == 0 || new(big.Int).SetBytes(out[32:64]).Sign() == 0 {
		return fmt.Errorf("pair %s has no reserves", pair.Hex())
	}
	return nil
}

// pairFor is the CREATE2 address the factory gives the token/WETH pair.
func (c *Chain) pairFor(token common.Address) common.Address {
	t0, t1 := token, c.weth
	if t1.Cmp(t0) < 0 {
		t0, t1 = t1, t0
	}
	return crypto.CreateAddress2(c.factory, crypto.Keccak256Hash(t0.Bytes(), t1.Bytes()), c.pairHash.Bytes())
}

// pending are one token's seeding transactions awaiting their block.
type pending struct {
	seeded *Seeded
	deploy common.Hash
	mint   common.Hash
}

// Seed deploys every token with a state of its own, perBlock tokens a
// block, and returns what each got (same order as tokens).
func (c *Chain) Seed(ctx context.Context, tokens []Token) ([]*Seeded, error) {
	out := make([]*Seeded, 0, len(tokens))
	for start := 0; start < len(tokens); start += perBlock {
		var batch []pending
		for _, t := range tokens[start:min(start+perBlock, len(tokens))] {
			p, err := c.plan(ctx, t)
			if err != nil {
				return nil, err
			}
			batch = append(batch, p)
			out = append(out, p.seeded)
		}
		c.mine(ctx, batch)
		for _, p := range batch {
			s := p.seeded
			if err := c.succeeded(ctx, p.deploy); err != nil {
				s.note("deploy: %v", err)
				continue
			}
			s.Deployed = true
			if p.mint == (common.Hash{}) {
				continue
			}
			if err := c.succeeded(ctx, p.mint); err != nil {
				s.note("pool: the pair's mint failed (balanceOf or transfer refused): %v", err)
				continue
			}
			if err := c.reserves(ctx, s.Pair); err != nil {
				s.note("pool: %v", err)
				continue
			}
			s.Pool = true
		}
	}
	return out, nil
}

// mine commits blocks until every transaction of batch has a receipt (a
// block that filled up leaves the rest pending), at most a few times.
func (c *Chain) mine(ctx context.Context, batch []pending) {
	client := c.dn.Backend().Client()
	for range 5 {
		c.dn.Commit()
		done := true
		for _, p := range batch {
			for _, h := range []common.Hash{p.deploy, p.mint} {
				if h == (common.Hash{}) {
					continue
				}
				if _, err := client.TransactionReceipt(ctx, h); err != nil {
					done = false
				}
			}
		}
		if done {
			return
		}
	}
}

// plan discovers one token's layout in a sandbox at its future devnet
// address, writes the seed there and verifies it, then sends the deploy
// and pool transactions.
func (c *Chain) plan(ctx context.Context, t Token) (pending, error) {
	addr := crypto.CreateAddress(c.from, c.nonce)
	s := &Seeded{Address: addr, Pair: c.pairFor(addr)}
	p := pending{seeded: s}
	head, err := c.dn.Backend().Client().BlockNumber(ctx)
	if err != nil {
		return p, fmt.Errorf("corpus: head: %w", err)
	}
	sb, err := newSandbox(addr, t.Code, c.cfg, head+1)
	if err != nil {
		return p, err
	}
	l := discover(sb, c.from)
	s.Layout = l
	if l.Owner != nil || l.Guard != nil {
		s.Owner = c.from
	}
	credits := c.fund(sb, l, s)
	if s.Funded {
		c.openTrading(sb, s, credits[1].amount)
	}
	keys, storage := sb.seed()
	if p.deploy, err = c.send(ctx, c.creator, c.nonce, nil, nil, initCode(t.Code, storage, keys, credits), deployGas); err != nil {
		return p, err
	}
	c.nonce++
	if !s.Funded {
		return p, nil
	}
	pair := s.Pair
	txs := []struct {
		to   common.Address
		data []byte
		gas  uint64
	}{
		{c.factory, append(append(selector("createPair(address,address)"), common.LeftPadBytes(addr.Bytes(), 32)...), common.LeftPadBytes(c.weth.Bytes(), 32)...), pairGas},
		{c.weth, append(withAddress("transfer(address,uint256)", pair), common.BigToHash(poolETH).Bytes()...), callGas},
		{pair, withAddress("mint(address)", deadAddress), callGas},
	}
	for _, tx := range txs {
		to := tx.to
		if p.mint, err = c.send(ctx, c.creator, c.nonce, &to, nil, tx.data, tx.gas); err != nil {
			return p, err
		}
		c.nonce++
	}
	return p, nil
}

// deadAddress receives the pools' LP tokens: liquidity burned.
var deadAddress = common.HexToAddress("0x000000000000000000000000000000000000dEaD")

// fund writes the supply and the balances (pool, creator, top holder,
// holders) into the sandbox through the layout found, verifies that
// balanceOf reads each back and returns the credits to announce.
func (c *Chain) fund(sb *sandbox, l *Layout, s *Seeded) []credit {
	supply := l.FixedSupply
	if supply == nil {
		supply = new(big.Int).Mul(big.NewInt(1_000_000_000), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(l.Decimals)), nil))
	}
	if l.Supply != nil {
		sb.set(l.Supply.Key, l.Supply.place(sb.get(l.Supply.Key), supply, 32))
	}
	if l.SupplyHistory != nil {
		l.SupplyHistory.write(sb, supply)
	}
	if l.Balance == nil {
		s.note("balances not funded: no balance mapping found")
		return nil
	}
	share := func(pct int64) *big.Int {
		return new(big.Int).Div(new(big.Int).Mul(supply, big.NewInt(pct)), big.NewInt(100))
	}
	// The creator's mint comes first: as with most real launches, the
	// first mint recipient is the creator (the engine reads it so when no
	// explorer names the creator).
	credits := []credit{{c.from, share(creatorPct)}, {s.Pair, share(poolPct)}, {c.top, share(topPct)}}
	rest := share(100 - poolPct - creatorPct - topPct)
	each := new(big.Int).Div(rest, big.NewInt(holderCount))
	for _, h := range c.holders {
		credits = append(credits, credit{h, each})
	}
	for _, cr := range credits {
		l.Balance.writeBalance(sb, cr.to, cr.amount)
	}
	s.Funded = true
	for _, cr := range credits {
		w, err := sb.word(bystander, withAddress("balanceOf(address)", cr.to))
		if err != nil || new(big.Int).SetBytes(w.Bytes()).Cmp(cr.amount) != 0 {
			s.Funded = false
			s.note("balanceOf(%s) does not read back the seeded balance", cr.to.Hex())
			break
		}
	}
	s.Holders = append([]common.Address{c.top}, c.holders...)
	return credits
}
