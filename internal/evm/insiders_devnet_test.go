package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"context"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/insider"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// blockOf queues a sender's transactions for one block: they are sent
// without mining, then Commit mines them together (in nonce order) and
// checks every one succeeded.
type blockOf struct {
	t     *testing.T
	dn    *devnet.Devnet
	from  common.Address
	nonce uint64
	sent  []common.Hash
}

func newBlockOf(t *testing.T, dn *devnet.Devnet, from common.Address) *blockOf {
	t.Helper()
	n, err := dn.Backend().Client().PendingNonceAt(context.Background(), from)
	if err != nil {
		t.Fatal(err)
	}
	return &blockOf{t: t, dn: dn, from: from, nonce: n}
}

func (b *blockOf) send(to *common.Address, value *big.Int, data []byte) {
	b.t.Helper()
	key, ok := b.dn.Key(b.from)
	if !ok {
		b.t.Fatalf("no key for %s", b.from.Hex())
	}
	cl := b.dn.Backend().Client()
	head, err := cl.HeaderByNumber(context.Background(), nil)
	if err != nil {
		b.t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	chainID := big.NewInt(b.dn.Manifest().ChainID)
	tx, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{ChainID: chainID, Nonce: b.nonce, GasTipCap: big.NewInt(1e9),
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(3)), big.NewInt(1e9)),
		Gas:       1_000_000, To: to, Value: value, Data: data}), types.LatestSignerForChainID(chainID), key)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := b.dn.Send(context.Background(), tx); err != nil {
		b.t.Fatal(err)
	}
	b.nonce++
	b.sent = append(b.sent, tx.Hash())
}

// commit mines the queued transactions into one block and returns it.
func (b *blockOf) commit() uint64 {
	b.t.Helper()
	// The pool takes transactions up in the background: wait until it
	// holds every one queued, so that they are mined together.
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		n, err := b.dn.Backend().Client().PendingNonceAt(context.Background(), b.from)
		if err != nil {
			b.t.Fatal(err)
		}
		if n == b.nonce {
			break
		}
		if time.Since(start) > 5*time.Second {
			b.t.Fatalf("the pool holds %d of %d queued transactions", n, b.nonce)
		}
	}
	b.dn.Commit()
	var block uint64
	for _, h := range b.sent {
		r, err := b.dn.Backend().Client().TransactionReceipt(context.Background(), h)
		if err != nil {
			b.t.Fatal(err)
		}
		if r.Status != types.ReceiptStatusSuccessful {
			b.t.Fatalf("transaction %s reverted", h.Hex())
		}
		if block != 0 && r.BlockNumber.Uint64() != block {
			b.t.Fatalf("queued transactions landed in blocks %d and %d", block, r.BlockNumber.Uint64())
		}
		block = r.BlockNumber.Uint64()
	}
	b.sent = nil
	return block
}

// v2Out is a V2 pair's output for in against reserves (0.3% fee).
func v2Out(in, rIn, rOut *big.Int) *big.Int {
	f := new(big.Int).Mul(in, big.NewInt(997))
	out := new(big.Int).Mul(f, rOut)
	out.Div(out, new(big.Int).Add(new(big.Int).Mul(rIn, big.NewInt(1000)), f))
	return out.Sub(out, big.NewInt(1))
}

// insiderLaunch launches a token the way a bundled rug does: in the block
// the pool gets its liquidity, the creator also sends 6% to a wallet and
// buys 1 WETH of tokens for a second wallet; a block later it sends 3% to a
// third wallet; later an outsider buys. It returns the token and the
// wallets: seeded (from_creator + same_block), sniper (same_block),
// later (from_creator), outsider (neither).
func insiderLaunch(t *testing.T, dn *devnet.Devnet) (token, seeded, sniper, later, outsider common.Address, launch uint64) {
	t.Helper()
	m := dn.Manifest()
	deployer := common.HexToAddress(m.Deployer)
	weth, factory := common.HexToAddress(m.WETH), common.HexToAddress(m.Factory)
	code := append(readHex(t, "NoReturnToken.bin"), append(common.LeftPadBytes(factory.Bytes(), 32), append(common.LeftPadBytes(weth.Bytes(), 32), common.LeftPadBytes([]byte{18}, 32)...)...)...)
	token = sendAs(t, dn, deployer, nil, nil, code).ContractAddress
	out, err := node.NewClient("devnet", []string{dn.RPCURL()}, node.ClientOptions{}).CallContract(t.Context(), node.CallMsg{To: token, Data: bytecode.SelectorOf("pair()").Bytes()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool := common.BytesToAddress(out)
	wallet := func(name string) common.Address {
		return common.BytesToAddress(crypto.Keccak256([]byte(name + token.Hex()))[12:])
	}
	seeded, sniper, later, outsider = wallet("seeded"), wallet("sniper"), wallet("later"), wallet("outsider")

	supply := new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil)
	pct := func(p int64) *big.Int {
		return new(big.Int).Div(new(big.Int).Mul(supply, big.NewInt(p)), big.NewInt(100))
	}
	ether := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }
	swap := func(b *blockOf, tokenOut *big.Int, to common.Address) {
		a0, a1 := tokenOut, new(big.Int)
		if weth.Cmp(token) < 0 {
			a0, a1 = a1, a0
		}
		b.send(&pool, nil, calldata("swap(uint256,uint256,address,bytes)", a0.Bytes(), a1.Bytes(), to.Bytes(), big.NewInt(128).Bytes(), nil))
	}
	rT, rW := pct(50), ether(10)

	// The launch block.
	b := newBlockOf(t, dn, deployer)
	b.send(&weth, ether(12), bytecode.SelectorOf("deposit()").Bytes())
	b.send(&weth, nil, calldata("transfer(address,uint256)", pool.Bytes(), rW.Bytes()))
	b.send(&token, nil, calldata("transfer(address,uint256)", pool.Bytes(), rT.Bytes()))
	b.send(&pool, nil, calldata("mint(address)", common.HexToAddress("0x000000000000000000000000000000000000dEaD").Bytes()))
	b.send(&token, nil, calldata("transfer(address,uint256)", seeded.Bytes(), pct(6).Bytes()))
	got := v2Out(ether(1), rW, rT)
	b.send(&weth, nil, calldata("transfer(address,uint256)", pool.Bytes(), ether(1).Bytes()))
	swap(b, got, sniper)
	launch = b.commit()
	rT, rW = new(big.Int).Sub(rT, got), new(big.Int).Add(rW, ether(1))

	// A block later: the creator seeds another wallet.
	b.send(&token, nil, calldata("transfer(address,uint256)", later.Bytes(), pct(3).Bytes()))
	b.commit()
	// Later still: an outsider's buy.
	got = v2Out(ether(1), rW, rT)
	b.send(&weth, nil, calldata("transfer(address,uint256)", pool.Bytes(), ether(1).Bytes()))
	swap(b, got, outsider)
	b.commit()
	// And an empty block, a minute on.
	if err := dn.AdjustTime(time.Minute); err != nil {
		t.Fatal(err)
	}
	return token, seeded, sniper, later, outsider, launch
}

// TestAdapterInsiders scans a bundled launch: the wallets seeded by the
// creator or bought for in the pool's creation block are insiders with
// their reasons, the outsider is not, and together they raise
// INSIDER_SUPPLY; the check costs no request of its own, whether the
// holder rebuild read the whole history (first receipts from its logs) or
// only a window (one eth_getLogs folded into an existing batch).
func TestAdapterInsiders(t *testing.T) {
	dn := startAdapterNet(t)
	token, seeded, sniper, later, outsider, _ := insiderLaunch(t, dn)
	full := map[common.Address][]insider.Reason{
		seeded: {insider.SameBlock, insider.FromCreator},
		sniper: {insider.SameBlock},
		later:  {insider.FromCreator},
	}
	for _, tt := range []struct {
		name        string
		budget      holder.HolderBudget
		maxLogRange uint64
		wantCalls   int
		want        map[common.Address][]insider.Reason
		undecided   []common.Address
		minShare    float64
	}{
		{"whole history", holder.HolderBudget{}, 0, 0, full, nil, 13},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newRPCProxy(t, dn.RPCURL(), 0, tt.maxLogRange)
			ch := dn.Chain()
			ch.RPC = []string{p.URL()}
			ad := NewAdapter(devnetRegistry(t, ch), Options{Holders: tt.budget})
			r, err := assess(t, ad, token.Hex())
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			hev, _ := r.HolderAnalysis.Evidence.(analysis.EVMHolderEvidence)
			ins := hev.Insiders
			if ins == nil {
				t.Fatalf("insiders = null; warnings %q", r.Warnings)
			}
			why := map[string][]insider.Reason{}
			for _, in := range ins.Insiders {
				why[strings.ToLower(in.Address)] = in.Why
			}
			for a, w := range tt.want {
				if got := why[strings.ToLower(a.Hex())]; !slices.Equal(got, w) {
					t.Errorf("%s why = %v, want %v", a.Hex(), got, w)
				}
			}
			if _, ok := why[strings.ToLower(outsider.Hex())]; ok {
				t.Errorf("the outsider (bought later from the pool) is listed as an insider")
			}
			if len(ins.Insiders) != len(tt.want) {
				t.Errorf("insiders = %+v, want %d", ins.Insiders, len(tt.want))
			}
			var undecided []string
			for _, u := range ins.Undecided {
				undecided = append(undecided, strings.ToLower(u.Address))
			}
			for _, a := range tt.undecided {
				if !slices.Contains(undecided, strings.ToLower(a.Hex())) {
					t.Errorf("%s not undecided (undecided: %v)", a.Hex(), undecided)
				}
			}
			// 6% + about 4.5% (1 WETH against 10 WETH : 50%) + 3%.
			if ins.SharePct < tt.minShare || ins.SharePct > tt.minShare+1 {
				t.Errorf("share_pct = %v, want about %v", ins.SharePct, tt.minShare+0.5)
			}
			if !ins.Conclusive || slices.Contains(r.Unchecked, risk.CheckInsiders) {
				t.Errorf("conclusive %v unchecked %v", ins.Conclusive, r.Unchecked)
			}
			var flag *float64
			for _, f := range r.RiskFlags {
				if f.Code == risk.InsiderSupply {
					flag = f.Value
				}
			}
			if flag == nil || *flag != ins.SharePct {
				t.Errorf("INSIDER_SUPPLY value = %s, want %v", fmtPtr(flag), ins.SharePct)
			}
			if r.SafetyChecklist.HealthyHolders {
				t.Error("healthy_holders = true with insiders above the threshold")
			}
			if ins.Cost != (insider.Cost{Calls: tt.wantCalls}) {
				t.Errorf("cost = %+v, want %d call(s) and no request or round trip of its own", ins.Cost, tt.wantCalls)
			}
		})
	}
}

// TestAdapterInsidersWindow: with the operator's holder window (MaxBlocks)
// the history before it is not read, so first receipts are bounds only:
// nothing is guessed, the holders are undecided, no INSIDER_SUPPLY, and
// the check is unchecked since they hold more than the threshold.
func TestAdapterInsidersWindow(t *testing.T) {
	dn := startAdapterNet(t)
	token, seeded, sniper, _, _, launch := insiderLaunch(t, dn)
	latest, err := dn.Backend().Client().BlockNumber(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// The window starts at the launch block: the deployment is not read.
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{Holders: holder.HolderBudget{MaxBlocks: latest - launch + 1}})
	r, err := assess(t, ad, token.Hex())
	if err != nil {
		t.Fatalf("Assess: %v", err)
	}
	hev, _ := r.HolderAnalysis.Evidence.(analysis.EVMHolderEvidence)
	ins := hev.Insiders
	if ins == nil {
		t.Fatalf("insiders = null; warnings %q", r.Warnings)
	}
	var undecided []string
	for _, u := range ins.Undecided {
		undecided = append(undecided, strings.ToLower(u.Address))
	}
	for _, a := range []common.Address{seeded, sniper} {
		if !slices.Contains(undecided, strings.ToLower(a.Hex())) {
			t.Errorf("%s not undecided (undecided %v, insiders %+v)", a.Hex(), undecided, ins.Insiders)
		}
	}
	if len(ins.Insiders) != 0 || ins.Conclusive || r.HasFlag(risk.InsiderSupply) || !slices.Contains(r.Unchecked, risk.CheckInsiders) {
		t.Errorf("insiders %+v conclusive %v flags %v unchecked %v; want all undecided and insiders unchecked", ins.Insiders, ins.Conclusive, r.RiskFlags, r.Unchecked)
	}
	if ins.Cost != (insider.Cost{Calls: 1}) {
		t.Errorf("cost = %+v, want one folded call", ins.Cost)
	}
}

// TestInsiderQueryMatchesTheRebuild: when the rebuild stopped partway
// after locating the token's creation (a provider refusing its pages),
// the folded query establishes each top holder's first receipt and its
// sender exactly as a complete rebuild does.
func TestInsiderQueryMatchesTheRebuild(t *testing.T) {
	dn := startAdapterNet(t)
	token, _, _, _, _, _ := insiderLaunch(t, dn)
	ctx := t.Context()
	c := node.NewClient("devnet", []string{dn.RPCURL()}, node.ClientOptions{})
	latest, err := dn.Backend().Client().BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	full, err := holder.RebuildHolders(ctx, c, token, latest, holder.HolderBudget{})
	if err != nil || !full.Complete {
		t.Fatalf("rebuild: %v (complete %v)", err, full != nil && full.Complete)
	}
	created, err := holder.LocateCreation(ctx, c, token, latest)
	if err != nil {
		t.Fatal(err)
	}
	// The partial rebuild: its balances, none of its first receipts.
	partial := &holder.HolderScan{Balances: full.Balances, FirstIn: map[common.Address]holder.Seen{}, FromBlock: created, Created: &created,
		FirstMintTo: full.FirstMintTo, FirstMintBlock: full.FirstMintBlock}
	q := holder.NewInsiderQuery(token, partial, nil, latest)
	if q == nil || q.Bounded || q.From != created {
		t.Fatalf("query %+v, want one from the creation block %d", q, created)
	}
	if err := c.Batch(ctx, q.Elems); err != nil {
		t.Fatal(err)
	}
	q.Read(true)
	creator := *full.FirstMintTo
	facts := func(hs *holder.HolderScan, q *holder.InsiderQuery) *analysis.EVMHolderFacts {
		hf := &analysis.EVMHolderFacts{}
		for _, h := range full.Holders() {
			hf.Top = append(hf.Top, analysis.EVMHolderBalance{Address: h.Address.Hex(), Balance: h.Balance})
		}
		holder.InsiderFacts(hf, hs, q, nil, &creator)
		return hf
	}
	want, got := facts(full, nil), facts(partial, q)
	if !got.InsidersRead || got.InsiderCost != (insider.Cost{Calls: 1}) {
		t.Fatalf("read %v cost %+v", got.InsidersRead, got.InsiderCost)
	}
	for i, w := range want.Top {
		g := got.Top[i]
		if w.First == nil || g.First == nil || *w.First != *g.First || w.FirstFrom == nil || g.FirstFrom == nil || *w.FirstFrom != *g.FirstFrom {
			t.Errorf("%s: first %v from %v, want %v from %v", w.Address, g.First, fmtPtr(g.FirstFrom), w.First, fmtPtr(w.FirstFrom))
		}
	}
}

// TestAdapterInsidersSkipTrustedTokens: a configured trusted token gets no
// insider query (its holders are exchanges and bridges, its history too
// long to ask for) and is not degraded for it.
func TestAdapterInsidersSkipTrustedTokens(t *testing.T) {
	dn := startAdapterNet(t)
	token, _, _, _, _, _ := insiderLaunch(t, dn)
	ch := dn.Chain()
	ch.Trusted = append(ch.Trusted, chains.NamedAddress{Name: "Test Dollar", Address: token.Hex()})
	// The window keeps the rebuild partial: an untrusted token would get
	// the folded query.
	ad := NewAdapter(devnetRegistry(t, ch), Options{Holders: holder.HolderBudget{MaxBlocks: 3}})
	r, err := assess(t, ad, token.Hex())
	if err != nil {
		t.Fatalf("Assess: %v", err)
	}
	hev, _ := r.HolderAnalysis.Evidence.(analysis.EVMHolderEvidence)
	if hev.Insiders != nil || slices.Contains(r.Unchecked, risk.CheckInsiders) || r.HasFlag(risk.InsiderSupply) {
		t.Errorf("insiders %+v unchecked %v; want none for a trusted token", hev.Insiders, r.Unchecked)
	}
	if !slices.Contains(r.Warnings, "insiders: not checked for a trusted token") {
		t.Errorf("warnings %q do not say the insider check was skipped", r.Warnings)
	}
}
