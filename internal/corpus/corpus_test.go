package corpus_test

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/internal/corpus"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// The tokens in testdata/corpus (real mainnet runtime code, copied from
// the shared corpus with their labels).
var (
	pausable   = common.HexToAddress("0x0886949c1b8c412860c4264ceb8083d1365e86cf") // limit: true
	mintable   = common.HexToAddress("0x0d42fb07a685d2ff9d6bb93df0389946192cd322") // mint: true
	notAToken  = common.HexToAddress("0x1327c3993c24de9a821b2e512817a2668185d878") // no balanceOf
	ownedToken = common.HexToAddress("0x0566c17dc2a9efcaa2f63e04cf06a69e8fc77f60") // leak: false
	// mint: true; no owner getter: its owner is found by the caller checks.
	getterless = common.HexToAddress("0x03260e1b0f53e1a1f93cf126a7ca42a1c71648d6")
	// limit: true; its buys revert until a storage flag (a trading
	// switch, off in the bare runtime code) is set.
	unlaunched = common.HexToAddress("0xc900ebf1eb284c9374ff8af4c68d9b3a65046d88")
	// mint: true; no owner at all: mint is for the members of a minters
	// mapping (OpenZeppelin's MinterRole), empty in the bare runtime code.
	minterRole = common.HexToAddress("0x5e2cdfaaa35273bb4c1ca9c3c8f335af1b1bf4b7")
)

func TestLoad(t *testing.T) {
	tokens, err := corpus.Load("testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(tokens) != 7 {
		t.Fatalf("loaded %d tokens, want 7", len(tokens))
	}
	for _, tk := range tokens {
		if len(tk.Code) == 0 || !tk.Labelled() {
			t.Errorf("%s: code %d bytes, labelled %v", tk.Address.Hex(), len(tk.Code), tk.Labelled())
		}
		if tk.Address == pausable && (tk.Labels[corpus.Limit] == nil || !*tk.Labels[corpus.Limit] || tk.Labels[corpus.Mint] != nil) {
			t.Errorf("%s labels = %v, want limit true, mint unknown", tk.Address.Hex(), tk.Labels)
		}
	}
	if _, err := corpus.Load(t.TempDir()); err == nil {
		t.Error("an empty directory loads without error")
	}
}

func call(t *testing.T, dn *devnet.Devnet, to common.Address, sig string, args ...common.Address) []byte {
	t.Helper()
	data := crypto.Keccak256([]byte(sig))[:4]
	for _, a := range args {
		data = append(data, common.LeftPadBytes(a.Bytes(), 32)...)
	}
	out, err := dn.Backend().Client().CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		t.Fatalf("%s on %s: %v", sig, to.Hex(), err)
	}
	return out
}

func TestSeedAndScan(t *testing.T) {
	if testing.Short() {
		t.Skip("devnet tests are not short")
	}
	ctx := context.Background()
	tokens, err := corpus.Load("testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	dn, err := devnet.Start(ctx, devnet.Options{CommitInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer dn.Close()
	// A deadline far above a scan's (~1s): under the race detector on a
	// loaded machine a scan cut short would miss its probes.
	results, err := corpus.Run(ctx, dn, tokens, corpus.Options{Workers: 2, Timeout: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	byAddr := map[common.Address]corpus.Result{}
	for _, r := range results {
		byAddr[r.Token.Address] = r
	}
	for _, a := range []common.Address{pausable, mintable, ownedToken, getterless, unlaunched, minterRole} {
		r := byAddr[a]
		s := r.Seeded
		if s == nil || !s.Deployed || !s.Funded || !s.Pool {
			t.Fatalf("%s: seeded %+v, want deployed, funded and pooled", a.Hex(), s)
		}
		switch {
		case a == minterRole:
			// No owner: the creator is given the minter role instead.
		case s.Owner == (common.Address{}):
			t.Errorf("%s: no owner slot found (notes %v)", a.Hex(), s.AllNotes())
		case s.Layout.OwnerGetter == "":
			if s.Layout.Guard == nil {
				t.Fatalf("%s: owner set without a getter or a guard", a.Hex())
			}
			word, err := dn.Backend().Client().StorageAt(ctx, s.Address, s.Layout.Guard.Key, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := common.BytesToAddress(new(big.Int).Rsh(new(big.Int).SetBytes(word), 8*s.Layout.Guard.Shift).Bytes()); got != s.Owner {
				t.Errorf("%s: guard slot holds %s, want the seeded owner %s", a.Hex(), got.Hex(), s.Owner.Hex())
			}
		default:
			if got := common.BytesToAddress(call(t, dn, s.Address, s.Layout.OwnerGetter)); got != s.Owner {
				t.Errorf("%s: %s = %s, want the seeded owner %s", a.Hex(), s.Layout.OwnerGetter, got.Hex(), s.Owner.Hex())
			}
		}
		if bal := new(big.Int).SetBytes(call(t, dn, s.Address, "balanceOf(address)", s.Holders[0])); bal.Sign() <= 0 {
			t.Errorf("%s: the top holder's balance is %s", a.Hex(), bal)
		}
		res := call(t, dn, s.Pair, "getReserves()")
		if len(res) < 64 || new(big.Int).SetBytes(res[:32]).Sign() == 0 || new(big.Int).SetBytes(res[32:64]).Sign() == 0 {
			t.Errorf("%s: pool %s reserves %x, want both non-zero", a.Hex(), s.Pair.Hex(), res)
		}
		if r.Err != nil || r.Panicked || r.TimedOut || len(r.Flags) == 0 {
			t.Errorf("%s: scan err %v (panicked %v, timed out %v), %d flags: want a report", a.Hex(), r.Err, r.Panicked, r.TimedOut, len(r.Flags))
		}
	}
	if r := byAddr[notAToken]; r.Err == nil || fault.CodeOf(r.Err) != fault.NotAToken {
		t.Errorf("%s (no balanceOf): err %v, want not_a_token", notAToken.Hex(), r.Err)
	}

	if got := byAddr[getterless].Seeded.Layout.OwnerGetter; got != "" {
		t.Errorf("%s: owner found by getter %s, want by its caller checks (the test token has no getter)", getterless.Hex(), got)
	}

	// A token that refuses buys until launched is seeded launched: the
	// engine's buy goes through, as it did on mainnet.
	if r := byAddr[unlaunched]; r.Seeded.Opened == 0 {
		t.Errorf("%s: trading not opened (notes %v)", unlaunched.Hex(), r.Seeded.AllNotes())
	}
	for _, a := range []common.Address{pausable, mintable, ownedToken, getterless, unlaunched} {
		for _, f := range byAddr[a].Flags {
			if f.Code == risk.HoneypotCannotBuy {
				t.Errorf("%s: %s (%s) on a seeded token", a.Hex(), f.Code, f.Detail)
			}
		}
	}

	// A token whose mint is for a minters mapping is seeded with the
	// creator in it, as its constructor did: the probes then prove the
	// mint from the creator.
	if r := byAddr[minterRole]; len(r.Seeded.Layout.Roles) == 0 {
		t.Errorf("%s: no role given to the creator (notes %v)", minterRole.Hex(), r.Seeded.AllNotes())
	}
	if f := flagWith(byAddr[minterRole].Flags, risk.OwnerCanMint); f == nil || f.Evidence != risk.EvidenceProbe {
		t.Errorf("%s: OWNER_CAN_MINT %+v, want one proven by a probe", minterRole.Hex(), f)
	}

	// End to end: both owner pause powers and the three mints (one behind
	// a getter-less owner, one behind a minter role) are found and scored
	// as labelled.
	scores, misses := corpus.Tally(results)
	if s := scores[corpus.Limit]; s.TP != 2 || s.FN != 0 {
		t.Errorf("limit: %+v, want both pausable tokens true positives (misses %+v)", *s, misses)
	}
	if s := scores[corpus.Mint]; s.TP != 3 || s.FN != 0 {
		t.Errorf("mint: %+v, want the three mintable tokens true positives (misses %+v)", *s, misses)
	}
	if got := corpus.Behaviour(byAddr[pausable].Flags)[corpus.Limit]; len(got) == 0 {
		t.Errorf("pausable token: no limit flag in %v", byAddr[pausable].Flags)
	}
}

func flagWith(flags []risk.Flag, code string) *risk.Flag {
	for i := range flags {
		if flags[i].Code == code {
			return &flags[i]
		}
	}
	return nil
}

// TestCanTransfer: the corpus scores apart only contracts whose code has
// no transfer function and no delegation; a real token and a clone (whose
// implementation decides) stay in.
func TestCanTransfer(t *testing.T) {
	tokens, err := corpus.Load("testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	byAddr := map[common.Address]corpus.Token{}
	for _, tk := range tokens {
		byAddr[tk.Address] = tk
	}
	if !byAddr[pausable].CanTransfer() || !byAddr[mintable].CanTransfer() {
		t.Error("a real token's code reads as having no transfer function")
	}
	if byAddr[notAToken].CanTransfer() {
		t.Error("a contract with no transfer function (and no balanceOf) reads as a token")
	}
	clone := common.FromHex("0x363d3d373d3d3d363d73" + notAToken.Hex()[2:] + "5af43d82803e903d91602b57fd5bf3")
	if !(corpus.Token{Code: clone}).CanTransfer() {
		t.Error("an EIP-1167 clone is scored apart: its implementation decides, so it must count as a token")
	}
}

// backdoors.json adds its powers to a token already listed and loads a
// new one on its own; a power label that is not true or null, or not a
// power, is refused (the file measures recall only).
func TestLoadBackdoors(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/corpus")); err != nil {
		t.Fatal(err)
	}
	code := "code/0x0886949c1b8c412860c4264ceb8083d1365e86cf.hex"
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "backdoors.json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`[{"address": "0x0886949c1b8c412860c4264ceb8083d1365e86cf", "labels": {"mint": null, "blacklist": null, "pause": true, "seize": null}, "code_file": "` + code + `", "source": "s"},
{"address": "0x00000000000000000000000000000000000000b1", "labels": {"mint": true, "blacklist": null, "pause": null, "seize": true}, "code_file": "` + code + `", "source": "s", "note": "n"}]`)
	tokens, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tokens) != 8 {
		t.Fatalf("loaded %d tokens, want 8 (7 labelled, 1 new backdoor)", len(tokens))
	}
	var merged, added *corpus.Token
	for i := range tokens {
		switch tokens[i].Address {
		case pausable:
			merged = &tokens[i]
		case common.HexToAddress("0xb1"):
			added = &tokens[i]
		}
	}
	if merged == nil || !merged.Backdoor() || merged.Powers[corpus.PowerPause] == nil || !merged.Labelled() {
		t.Errorf("the listed token lost its labels or did not gain its power: %+v", merged)
	}
	if added == nil || !added.Backdoor() || added.Labelled() || len(added.Code) == 0 {
		t.Errorf("the new backdoor token: %+v", added)
	}
	for _, bad := range []string{`"pause": false`, `"freeze": true`} {
		write(`[{"address": "0x00000000000000000000000000000000000000b1", "labels": {` + bad + `}, "code_file": "` + code + `"}]`)
		if _, err := corpus.Load(dir); err == nil {
			t.Errorf("labels {%s} load without error", bad)
		}
	}
}

// A backdoor power counts as found only from the flags that express it.
func TestTallyPowers(t *testing.T) {
	yes := true
	tok := func(powers ...string) corpus.Token {
		m := map[string]*bool{}
		for _, p := range powers {
			m[p] = &yes
		}
		return corpus.Token{Powers: m}
	}
	flag := func(code string) risk.Flag { return risk.Flag{Code: code} }
	results := []corpus.Result{
		{Token: tok(corpus.PowerMint, corpus.PowerSeize), Flags: []risk.Flag{flag(risk.OwnerCanMint)}},
		{Token: tok(corpus.PowerSeize), Flags: []risk.Flag{flag(risk.OwnerCanChangeBalance)}},
		{Token: tok(corpus.PowerPause), Flags: []risk.Flag{flag(risk.OwnerCanBlacklist)}},
		{Token: tok(corpus.PowerBlacklist), Flags: []risk.Flag{flag(risk.WhitelistOnly)}},
		{Token: tok(), Flags: []risk.Flag{flag(risk.OwnerCanPause)}},
	}
	scores, misses := corpus.TallyPowers(results)
	want := map[string][2]int{corpus.PowerMint: {1, 0}, corpus.PowerSeize: {1, 1}, corpus.PowerPause: {0, 1}, corpus.PowerBlacklist: {1, 0}}
	for p, w := range want {
		if s := scores[p]; s.TP != w[0] || s.FN != w[1] || s.FP != 0 || s.TN != 0 {
			t.Errorf("%s: %+v, want TP %d FN %d", p, *s, w[0], w[1])
		}
	}
	if len(misses) != 2 {
		t.Errorf("misses %v, want 2", misses)
	}
}
