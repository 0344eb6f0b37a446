package solana_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// newServer serves every testdata account.
func newServer(tb testing.TB) *solanatest.Server {
	tb.Helper()
	srv := solanatest.New()
	tb.Cleanup(srv.Close)
	if err := srv.LoadDir("testdata/accounts"); err != nil {
		tb.Fatal(err)
	}
	return srv
}

// newAdapter points the shipped Solana config at urls, the way
// TOKENRISK_RPC_SOLANA does.
func newAdapter(tb testing.TB, opts solana.Options, urls ...string) *solana.Adapter {
	tb.Helper()
	reg, err := chains.Load("")
	if err != nil {
		tb.Fatal(err)
	}
	reg.ApplyEnv(func(k string) string {
		if k == "TOKENRISK_RPC_SOLANA" {
			return strings.Join(urls, ",")
		}
		return ""
	}, false)
	return solana.NewAdapter(reg, opts)
}

func request(tb testing.TB, addr string, plan ...string) scan.Request {
	tb.Helper()
	a, err := chains.ParseAddress(addr)
	if err != nil {
		tb.Fatal(err)
	}
	if plan == nil {
		plan = []string{"ethereum", "solana"}
	}
	return scan.Request{Address: a, Chains: plan}
}

// syntheticKey is a deterministic address for synthetic accounts.
func syntheticKey(name string) string {
	h := sha256.Sum256([]byte(name))
	return base58.Encode(h[:])
}

const (
	burnOwner  = "1nc1nerator11111111111111111111111111111111"
	creator    = "EhJ5156M6ZNhvPhHe6RA8ZZ9GTEdM6Rhyh4EB1VZL1D4" // the pump curve's creator
	whale      = megaAuth                                       // any wallet
	pumpSupply = 998858000507907
)

// pumpVaultAmount is the pump mint held by its real CPMM vault.
const pumpVaultAmount = 95426862199392

// addPumpHolders adds SYNTHETIC token accounts of the pump mint next to
// its real CPMM vault: a whale (12%), the creator (6%) and a burn holding
// the rest, so that the listed accounts hold the whole supply. The
// whale's history is served (its first SOL from a stranger, funded by
// another; its token account long after the curve's and the pool's
// creation), so the insider check clears it.
func addPumpHolders(tb testing.TB, srv *solanatest.Server) {
	tb.Helper()
	stranger := syntheticKey("stranger")
	serveFunding(tb, srv, whale, stranger, 7000)
	serveFunding(tb, srv, stranger, syntheticKey("stranger2"), 100)
	serveFirstSlot(srv, syntheticKey("holder-"+whale), 8000)
	serveFirstSlot(srv, cpmmPool, 4000)
	serveFirstSlot(srv, pumpCurve, 3000)
	whaleAmt, creatorAmt := uint64(pumpSupply*12/100), uint64(pumpSupply*6/100)
	for _, h := range []struct {
		owner  string
		amount uint64
	}{{whale, whaleAmt}, {creator, creatorAmt}, {burnOwner, pumpSupply - pumpVaultAmount - whaleAmt - creatorAmt}} {
		if err := srv.AddTokenAccount(syntheticKey("holder-"+h.owner), pumpMint, h.owner, h.amount, solanatest.Token2022Program); err != nil {
			tb.Fatal(err)
		}
	}
}

func hasFlag(flags []risk.Flag, code string) bool {
	for _, f := range flags {
		if f.Code == code {
			return true
		}
	}
	return false
}

func TestAssessPumpMint(t *testing.T) {
	srv := newServer(t)
	addPumpHolders(t, srv)
	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, pumpMint))
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Requests(); n != 3+countRequest+insiderRequests(t, got.Holder.Evidence) {
		t.Errorf("HTTP requests = %d, want 3 (one per round trip), the holder count's and the insider check's", n)
	}
	// Nobody in the fixture set holds the pool's LP: who can withdraw
	// the liquidity is unknown, so the pool check did not establish its
	// fact (unknown is unchecked, never minimal).
	if !slices.Equal(got.Unchecked, []string{risk.CheckPools}) || len(got.NotConfigured) != 0 {
		t.Errorf("unchecked %v not_configured %v, want only pools (LP holders unknown)", got.Unchecked, got.NotConfigured)
	}
	if got.Chain != "solana" || got.Token.Name != "Solana Fork Staccana " || got.Token.Symbol != "Staccana" || *got.Token.Decimals != 6 || *got.Token.TotalSupply != "998858000507907" {
		t.Errorf("token = %+v", got.Token)
	}

	// Contract.
	c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
	if got.Contract.Status != scan.Complete || c.TokenProgram != analysis.SolanaToken2022 || c.MintAuthority != nil || c.FreezeAuthority != nil {
		t.Errorf("contract = %s %+v", got.Contract.Status, c)
	}
	if len(c.Extensions) != 2 || c.Extensions[0].Name != analysis.SolanaExtMetadataPointer || c.Extensions[1].Name != analysis.SolanaExtTokenMetadata {
		t.Errorf("extensions = %+v", c.Extensions)
	}
	if c.Metadata == nil || c.Metadata.Source != analysis.SolanaToken2022Metadata || c.Metadata.Symbol != "Staccana" || *c.Metadata.IsMutable {
		t.Errorf("metadata = %+v", c.Metadata)
	}
	if len(got.Contract.Flags) != 0 {
		t.Errorf("contract flags = %+v, want none (authorities revoked, metadata immutable)", got.Contract.Flags)
	}

	// Liquidity: the real CPMM pool, valued with the real SOL/USDC
	// Whirlpool price.
	l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
	if len(l.Pools) != 1 {
		t.Fatalf("pools = %+v", l.Pools)
	}
	p := l.Pools[0]
	if p.DEX != "raydium_cpmm" || p.Address != cpmmPool || p.QuoteSymbol != "wSOL" || p.TokenVault != "5Ap19VZWbmP9NnvFabeyGzWjTqXFcFLPcuFDsNyAB9Sg" || p.QuoteVault != "47KLLXNKUMuJBgis11NWmZ9iNPW2wHX2ZKQKUDCL3LA6" {
		t.Errorf("pool = %+v", p)
	}
	// Vault balances minus the pool's protocol and fund fees.
	if *p.TokenReserve != 95416112608385 || *p.QuoteReserve != 461366032767 {
		t.Errorf("reserves = %d / %d", *p.TokenReserve, *p.QuoteReserve)
	}
	if p.LPBurnedPct == nil || *p.LPBurnedPct != 0 {
		t.Errorf("LP burned = %v, want 0 (LP mint supply = lp_supply - 100 locked)", p.LPBurnedPct)
	}
	if l.SOLPriceUSD == nil || *l.SOLPriceUSD < 40.3 || *l.SOLPriceUSD > 40.4 {
		t.Errorf("SOL price = %v, want ~40.36 from the Whirlpool sqrt price", l.SOLPriceUSD)
	}
	// 461.366 SOL × 2 sides × $40.36 ≈ $37 243.
	if p.LiquidityUSD == nil || *p.LiquidityUSD < 37000 || *p.LiquidityUSD > 37500 {
		t.Errorf("liquidity USD = %v", p.LiquidityUSD)
	}
	if l.BondingCurve == nil || !l.BondingCurve.Complete || l.BondingCurve.Address != "BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf" {
		t.Errorf("bonding curve = %+v", l.BondingCurve)
	}
	// Nobody in the fixture set holds the LP: its lock state is unknown,
	// which is a warning, not LP_NOT_LOCKED.
	if len(got.Liquidity.Flags) != 0 || got.Liquidity.Status != scan.Partial || p.LPUnknownPct == nil || *p.LPUnknownPct != 100 {
		t.Errorf("liquidity %s flags %+v, LP unknown %v", got.Liquidity.Status, got.Liquidity.Flags, p.LPUnknownPct)
	}

	// Holders.
	h := got.Holder.Evidence.(analysis.SolanaHolderEvidence)
	labels := map[string]string{}
	for _, th := range h.TopHolders {
		labels[th.Address] = th.Label
	}
	want := map[string]string{cpmmAuth: "pool", burnOwner: "burn", creator: "creator", whale: ""}
	for addr, label := range want {
		if l, ok := labels[addr]; !ok || l != label {
			t.Errorf("holder %s label = %q (present %v), want %q", addr, l, ok, label)
		}
	}
	if h.Top10SharePct == nil || *h.Top10SharePct != 18 {
		t.Errorf("top-10 share = %v, want 18 (whale 12 + creator 6; pool and burn excluded)", h.Top10SharePct)
	}
	if h.HolderCount == nil || *h.HolderCount != 2 {
		t.Errorf("holder count = %v, want 2", h.HolderCount)
	}
	if !hasFlag(got.Holder.Flags, risk.WhaleHolder) || hasFlag(got.Holder.Flags, risk.Top10Concentrated) || !hasFlag(got.Holder.Flags, risk.FewHolders) {
		t.Errorf("holder flags = %+v", got.Holder.Flags)
	}

	// Deployer.
	d := got.Deployer.Evidence.(analysis.SolanaDeployerEvidence)
	if strPtr(d.Creator) != creator || strPtr(d.CreatorSource) != analysis.SolanaCreatorBondingCurve {
		t.Errorf("creator = %s from %s", strPtr(d.Creator), strPtr(d.CreatorSource))
	}
	// This creator key is off the curve: reported, not hidden.
	if d.CreatorIsProgramAccount == nil || !*d.CreatorIsProgramAccount {
		t.Errorf("creator is program account = %v, want true", d.CreatorIsProgramAccount)
	}
	if d.CreatorSharePct == nil || *d.CreatorSharePct != 6 || !hasFlag(got.Deployer.Flags, risk.CreatorHoldsLargeShare) {
		t.Errorf("creator share = %v, flags %+v", d.CreatorSharePct, got.Deployer.Flags)
	}

	want2 := scan.Checklist{NotHoneypot: true, OwnershipRenounced: true, NoMint: true}
	if got.Checklist != want2 {
		t.Errorf("checklist = %+v, want %+v", got.Checklist, want2)
	}
}

func TestAssessMegaToken(t *testing.T) {
	srv := newServer(t)
	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, megaMint))
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{
		risk.MintAuthorityEnabled, risk.FreezeAuthorityEnabled, risk.MetadataMutable, risk.TransferFee, risk.TransferHook,
		risk.PermanentDelegate, risk.NonTransferable, risk.MintCloseAuthority, risk.ConfidentialTransfers,
	} {
		if !hasFlag(got.Contract.Flags, code) {
			t.Errorf("flag %s missing", code)
		}
	}
	if hasFlag(got.Contract.Flags, risk.DefaultAccountFrozen) {
		t.Error("DEFAULT_ACCOUNT_FROZEN raised for an initialized default state")
	}
	c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
	if len(c.Extensions) != 14 || got.Contract.Status != scan.Complete {
		t.Errorf("%d extensions, status %s", len(c.Extensions), got.Contract.Status)
	}
	if got.Checklist != (scan.Checklist{}) {
		t.Errorf("checklist = %+v, want all false", got.Checklist)
	}
}

func TestAssessScnSOLMetaplex(t *testing.T) {
	srv := newServer(t)
	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, scnSOL))
	if err != nil {
		t.Fatal(err)
	}
	c := got.Contract.Evidence.(analysis.SolanaContractEvidence)
	if c.TokenProgram != analysis.SolanaSPLToken || c.Metadata == nil || c.Metadata.Source != analysis.SolanaMetaplex || c.Metadata.Address != "5iU74sxq9PbpiYdw7srLkh69CrywuSnSu2Pxnn2ezwM2" || c.Metadata.Name != "Socean staked SOL" {
		t.Errorf("contract = %+v, metadata %+v", c, c.Metadata)
	}
	if !hasFlag(got.Contract.Flags, risk.MintAuthorityEnabled) || !hasFlag(got.Contract.Flags, risk.MetadataMutable) || hasFlag(got.Contract.Flags, risk.FreezeAuthorityEnabled) {
		t.Errorf("flags = %+v", got.Contract.Flags)
	}
	// No signatures served: the creator falls back to the update
	// authority and the deployer analysis is partial.
	d := got.Deployer.Evidence.(analysis.SolanaDeployerEvidence)
	if strPtr(d.CreatorSource) != analysis.SolanaCreatorUpdateAuthority || got.Deployer.Status != scan.Partial {
		t.Errorf("deployer = %s, %+v", got.Deployer.Status, d)
	}
}

func TestAssessDeployerFromFirstTransaction(t *testing.T) {
	feePayer := megaAuth // a wallet (on the curve)
	tests := []struct {
		name       string
		signatures int
		wantTx     bool
		wantStatus scan.Status
	}{
		{"one page", 3, true, scan.Complete},
		{"two pages", 1500, true, scan.Complete},
		{"beyond the bound", 3500, false, scan.Partial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			sigs := make([]solanatest.Signature, tt.signatures)
			for i := range sigs {
				sigs[i] = solanatest.Signature{Signature: fmt.Sprintf("sig%05d", tt.signatures-i), Slot: uint64(1000 + tt.signatures - i), BlockTime: 1700000000 + int64(tt.signatures-i)}
			}
			srv.SetSignatures(scnSOL, sigs)
			srv.SetTransaction("sig00001", solanatest.Transaction{Slot: 1001, BlockTime: 1700000001, AccountKeys: []string{feePayer, scnSOL}})
			srv.SetAccount(feePayer, solanatest.Account{Lamports: 2_500_000_000, Owner: "11111111111111111111111111111111"})
			// One SYNTHETIC holder of the whole supply: the holder list
			// is whole, so the creator's share (0) is established.
			data, _ := fixture(t, scnSOL)
			m, err := solana.DecodeMint(data)
			if err != nil {
				t.Fatal(err)
			}
			if err := srv.AddTokenAccount(syntheticKey("scn-holder"), scnSOL, creator, m.Supply, solanatest.TokenProgram); err != nil {
				t.Fatal(err)
			}
			// The fee payer's own history: two transactions, the first
			// an hour before the mint's.
			srv.SetSignatures(feePayer, []solanatest.Signature{{Signature: "own2", BlockTime: 1700000001}, {Signature: "own1", BlockTime: 1699996401}})
			a := newAdapter(t, solana.Options{}, srv.URL())
			got, err := a.Assess(context.Background(), request(t, scnSOL))
			if err != nil {
				t.Fatal(err)
			}
			d := got.Deployer.Evidence.(analysis.SolanaDeployerEvidence)
			if got.Deployer.Status != tt.wantStatus {
				t.Errorf("status = %s, want %s", got.Deployer.Status, tt.wantStatus)
			}
			if !tt.wantTx {
				if strPtr(d.CreatorSource) != analysis.SolanaCreatorUpdateAuthority || d.CreationTx != nil {
					t.Errorf("deployer = %+v, want the update authority fallback", d)
				}
				return
			}
			if strPtr(d.Creator) != feePayer || strPtr(d.CreatorSource) != analysis.SolanaCreatorFeePayer || strPtr(d.CreationTx) != "sig00001" {
				t.Errorf("deployer = creator %s source %s tx %s", strPtr(d.Creator), strPtr(d.CreatorSource), strPtr(d.CreationTx))
			}
			if d.CreatorBalanceSOL == nil || *d.CreatorBalanceSOL != 2.5 {
				t.Errorf("creator balance = %v, want 2.5 SOL", d.CreatorBalanceSOL)
			}
			if d.CreatedAt == nil || *d.CreatedAt != "2023-11-14T22:13:21Z" {
				t.Errorf("created at = %s", strPtr(d.CreatedAt))
			}
			if d.CreatorTxCount == nil || *d.CreatorTxCount != 2 || strPtr(d.CreatorFirstActivity) != "2023-11-14T21:13:21Z" {
				t.Errorf("creator history = %v txs since %s", d.CreatorTxCount, strPtr(d.CreatorFirstActivity))
			}
			if !hasFlag(got.Deployer.Flags, risk.CreatorNewWallet) {
				t.Errorf("deployer flags = %+v, want CREATOR_NEW_WALLET", got.Deployer.Flags)
			}
		})
	}
}

func TestAssessErrors(t *testing.T) {
	srv := newServer(t)
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad gateway", http.StatusBadGateway)
	}))
	t.Cleanup(down.Close)
	slow := solanatest.New()
	t.Cleanup(slow.Close)
	slow.SetLatency(500 * time.Millisecond)

	tests := []struct {
		name string
		addr string
		plan []string
		urls []string
		opts solana.Options
		want fault.Code
	}{
		{"absent account", syntheticKey("nothing here"), nil, []string{srv.URL()}, solana.Options{}, fault.TokenNotFound},
		{"token account, not a mint", "47KLLXNKUMuJBgis11NWmZ9iNPW2wHX2ZKQKUDCL3LA6", nil, []string{srv.URL()}, solana.Options{}, fault.NotAToken},
		{"Token-2022 token account", "5Ap19VZWbmP9NnvFabeyGzWjTqXFcFLPcuFDsNyAB9Sg", nil, []string{srv.URL()}, solana.Options{}, fault.NotAToken},
		{"pool account", cpmmPool, nil, []string{srv.URL()}, solana.Options{}, fault.NotAToken},
		{"plan without solana", pumpMint, []string{"bsc", "ethereum"}, []string{srv.URL()}, solana.Options{}, fault.PlanForbidden},
		{"every endpoint fails", pumpMint, nil, []string{down.URL, down.URL}, solana.Options{}, fault.UpstreamError},
		{"deadline before the mint", pumpMint, nil, []string{slow.URL()}, solana.Options{Deadline: 100 * time.Millisecond}, fault.UpstreamTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAdapter(t, tt.opts, tt.urls...)
			_, err := a.Assess(context.Background(), request(t, tt.addr, tt.plan...))
			if got := fault.CodeOf(err); got != tt.want {
				t.Fatalf("error = %v (code %s), want %s", err, got, tt.want)
			}
			if msg := fault.MessageOf(err); strings.Contains(msg, "127.0.0.1") {
				t.Errorf("client message leaks the RPC URL: %s", msg)
			}
		})
	}
}

func TestAssessFailover(t *testing.T) {
	srv := newServer(t)
	var hits int
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Header().Set("Retry-After", "0")
		http.Error(w, "busy", http.StatusTooManyRequests)
	}))
	t.Cleanup(down.Close)
	a := newAdapter(t, solana.Options{}, down.URL, srv.URL())
	if _, err := a.Assess(context.Background(), request(t, pumpMint)); err != nil {
		t.Fatalf("failover to the second endpoint failed: %v", err)
	}
	if hits != 3+countRequest || srv.Requests() != 3+countRequest {
		t.Errorf("first endpoint hit %d times, second %d; want 4 and 4 (each round trip and the holder count fail over)", hits, srv.Requests())
	}

	// A transient 503 on the only endpoint is retried.
	srv.ResetCounters()
	srv.FailNext(http.StatusServiceUnavailable, http.StatusServiceUnavailable)
	a = newAdapter(t, solana.Options{}, srv.URL())
	if _, err := a.Assess(context.Background(), request(t, pumpMint)); err != nil {
		t.Fatalf("retry after 503 failed: %v", err)
	}
	if srv.Requests() != 2+3+countRequest {
		t.Errorf("requests = %d, want 6 (2 failed + 3 + the holder count)", srv.Requests())
	}
}

func TestAssessDegraded(t *testing.T) {
	tests := []struct {
		name      string
		disable   string
		liquidity scan.Status
		holders   scan.Status
		noLiq     bool
		unchecked []string
	}{
		{"getProgramAccounts refused", "getProgramAccounts", scan.Partial, scan.Complete, false, []string{risk.CheckPools}},
		// With no holder list, neither the insider verdict nor the
		// creator's share is established.
		{"largest accounts refused", "getTokenLargestAccounts", scan.Complete, scan.Unavailable, false, []string{risk.CheckHolders, risk.CheckInsiders, risk.CheckDeployer}},
	}
	lockLP := []lpHolding{{raydiumLockAuthority, cpmmLPSupply}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			addPumpHolders(t, srv)
			addLPHolders(t, srv, lockLP)
			srv.DisableMethod(tt.disable, "method disabled on this node")
			a := newAdapter(t, solana.Options{}, srv.URL())
			got, err := a.Assess(context.Background(), request(t, pumpMint))
			if err != nil {
				t.Fatal(err)
			}
			if got.Contract.Status != scan.Complete || got.Liquidity.Status != tt.liquidity || got.Holder.Status != tt.holders {
				t.Errorf("statuses contract %s liquidity %s holders %s; want complete %s %s", got.Contract.Status, got.Liquidity.Status, got.Holder.Status, tt.liquidity, tt.holders)
			}
			if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) != tt.noLiq {
				t.Errorf("NO_LIQUIDITY = %v, want %v: unknown is not absent", !tt.noLiq, tt.noLiq)
			}
			if len(got.Warnings) == 0 {
				t.Error("no warnings for a degraded scan")
			}
			if !slices.Equal(got.Unchecked, tt.unchecked) {
				t.Errorf("unchecked %v, want %v", got.Unchecked, tt.unchecked)
			}
		})
	}
}

func TestAssessUpstreamHook(t *testing.T) {
	srv := newServer(t)
	counts := map[string]int{}
	var mu sync.Mutex // the hook is called from several goroutines
	a := newAdapter(t, solana.Options{Upstream: func(chain, method string) {
		if chain != "solana" {
			t.Errorf("hook chain = %s", chain)
		}
		mu.Lock()
		counts[method]++
		mu.Unlock()
	}}, srv.URL())
	if _, err := a.Assess(context.Background(), request(t, pumpMint)); err != nil {
		t.Fatal(err)
	}
	// getProgramAccounts: 8 DEXes x 2 mint positions, the DBC's and the
	// LaunchLab's base position, the SOL/USDC price pools, and the CPMM
	// pool's LP holders under both token programs and its LP's lock
	// streams; the holder count.
	for method, want := range map[string]int{"getMultipleAccounts": 2, "getProgramAccounts": 22 + countRequest, "getTokenLargestAccounts": 1, "getEpochInfo": 1} {
		if counts[method] != want {
			t.Errorf("%s counted %d times, want %d", method, counts[method], want)
		}
	}
	if counts["getAccountInfo"] != 0 {
		t.Error("getAccountInfo used; mints are read with getMultipleAccounts")
	}
}

func TestAssessTrustedToken(t *testing.T) {
	srv := newServer(t)
	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, usdcMint))
	if err != nil {
		t.Fatal(err)
	}
	if !hasFlag(got.Contract.Flags, risk.TrustedToken) || !hasFlag(got.Contract.Flags, risk.FreezeAuthorityEnabled) {
		t.Errorf("contract flags = %+v, want TRUSTED_TOKEN next to the capability flags", got.Contract.Flags)
	}
	if srv.Calls("getProgramAccounts") != 0 {
		t.Errorf("getProgramAccounts called %d times for a trusted token", srv.Calls("getProgramAccounts"))
	}
	if got.Liquidity.Status != scan.Partial {
		t.Errorf("liquidity status = %s, want partial (pools not searched)", got.Liquidity.Status)
	}
	r := scan.Build(risk.NewCatalogue(), request(t, usdcMint).Address, got)
	if r.RiskLevel != risk.Minimal && r.RiskLevel != risk.LevelLow {
		t.Errorf("trusted token level = %s, want at most low", r.RiskLevel)
	}
}

func TestAssessDeadlineAfterVerdict(t *testing.T) {
	srv := newServer(t)
	// The node answers the first round trip, then stops answering: the
	// deadline passes after the contract verdict, however busy the machine.
	srv.HangAfter(1)
	a := newAdapter(t, solana.Options{Deadline: time.Second}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, pumpMint))
	if err != nil {
		t.Fatalf("a deadline after the contract verdict must not fail the scan: %v", err)
	}
	if got.Contract.Status != scan.Complete {
		t.Errorf("contract status = %s", got.Contract.Status)
	}
	if got.Liquidity.Status == scan.Complete || got.Holder.Status != scan.Unavailable {
		t.Errorf("liquidity %s, holders %s: late data must not look complete", got.Liquidity.Status, got.Holder.Status)
	}
	if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) {
		t.Error("NO_LIQUIDITY raised although the pools were never read")
	}
	for _, c := range []string{risk.CheckPools, risk.CheckHolders, risk.CheckDeployer} {
		if !slices.Contains(got.Unchecked, c) {
			t.Errorf("unchecked %v, want %s in it: the deadline cut it short", got.Unchecked, c)
		}
	}
	if got.Checklist.NotHoneypot || got.Checklist.HealthyHolders {
		t.Errorf("checklist = %+v: unknown must be false", got.Checklist)
	}
	for _, w := range got.Warnings {
		if strings.Contains(w, "127.0.0.1") || strings.Contains(w, "http") {
			t.Errorf("warning names the RPC endpoint: %s", w)
		}
	}
}

func TestAssessNodeWithoutBatches(t *testing.T) {
	srv := newServer(t)
	addPumpHolders(t, srv)
	addLPHolders(t, srv, []lpHolding{{raydiumLockAuthority, cpmmLPSupply}})
	srv.RejectBatches()
	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, pumpMint))
	if err != nil {
		t.Fatal(err)
	}
	if got.Liquidity.Status != scan.Complete || got.Holder.Status != scan.Complete {
		t.Errorf("liquidity %s, holders %s; want complete through single calls", got.Liquidity.Status, got.Holder.Status)
	}
	l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
	if len(l.Pools) != 1 || l.Pools[0].TokenReserve == nil {
		t.Errorf("pools = %+v", l.Pools)
	}
}
