package corpus

import (
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/params"
)

// TestDiscoverOpensGatedGetter: a real token (unlabelled in the corpus)
// whose balanceOf reverts until a flag its constructor set, packed above
// an address in one storage word, is true. The flag is found from the
// words the failing getter read and set, so the balance mapping is found
// and the holders can be funded; without it the token would read as no
// token at all.
func TestDiscoverOpensGatedGetter(t *testing.T) {
	sb := testSandbox(t, "testdata/gated/0xa5b91fbfec2f9a708592f9cd3c9e20becdfcb816.hex")
	if _, err := sb.word(bystander, withAddress("balanceOf(address)", balanceProbe)); err == nil {
		t.Fatal("balanceOf answers on the empty state: the test token no longer shows the gate")
	}
	owner := common.HexToAddress("0x00000000000000000000000000000000000c4ea7")
	l := discover(sb, owner)
	if l.Balance == nil {
		t.Fatalf("no balance mapping found (notes %v)", l.Notes)
	}
	opened := false
	for _, n := range l.Notes {
		opened = opened || strings.HasPrefix(n, "getter opened")
	}
	if !opened {
		t.Errorf("notes %v do not say which word was set", l.Notes)
	}
	c := &Chain{from: owner}
	s := &Seeded{Pair: common.HexToAddress("0x00000000000000000000000000000000000ba1f0")}
	c.fund(sb, l, s)
	if !s.Funded {
		t.Errorf("holders not funded: %v", s.Notes)
	}
}

// testSandbox loads a token's runtime code from file into a sandbox.
func testSandbox(t *testing.T, file string) *sandbox {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code := hexutil.MustDecode(strings.TrimSpace(string(raw)))
	cfg := *params.AllDevChainProtocolChanges
	cfg.BogotaTime = nil
	token := common.HexToAddress("0x00000000000000000000000000000000c0ffee01")
	sb, err := newSandbox(token, code, &cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// TestDiscoverCheckpointHistories: a real token (a backdoors.json entry)
// that keeps balances and the supply as checkpoint histories (arrays of
// block and value pairs, MiniMe's shape) gets them found and seeded, so
// its holders hold what balanceOf answers and the supply is non-zero; a
// plain word there would read as a history's length.
func TestDiscoverCheckpointHistories(t *testing.T) {
	sb := testSandbox(t, "testdata/history/0x0794ce7d4459105926da230f318c1e34bc790517.hex")
	l := discover(sb, common.HexToAddress("0x00000000000000000000000000000000000c4ea7"))
	if l.Balance == nil || !l.Balance.History || l.SupplyHistory == nil {
		t.Fatalf("balance %+v, supply history %v (notes %v): want both histories", l.Balance, l.SupplyHistory, l.Notes)
	}
	c := &Chain{from: common.HexToAddress("0x00000000000000000000000000000000000c4ea7")}
	s := &Seeded{Pair: common.HexToAddress("0x00000000000000000000000000000000000ba1f0")}
	c.fund(sb, l, s)
	if !s.Funded {
		t.Errorf("holders not funded: %v", s.Notes)
	}
	w, err := sb.word(bystander, selector("totalSupply()"))
	if err != nil || w == (common.Hash{}) {
		t.Errorf("totalSupply() = %x, %v after seeding", w, err)
	}
}

// TestDiscoverOpensHiddenBalances: a MiniMe fork (backdoors.json, seize)
// whose balanceOf answers 0 without reading any balance until a flag its
// controller sets is on; the flag is found from the words the getter
// read, so the checkpoint balances are found and the holders funded.
func TestDiscoverOpensHiddenBalances(t *testing.T) {
	sb := testSandbox(t, "testdata/gated/0xcbeaec699431857fdb4d37addbbdc20e132d4903.hex")
	owner := common.HexToAddress("0x00000000000000000000000000000000000c4ea7")
	l := discover(sb, owner)
	if l.Balance == nil || !l.Balance.History {
		t.Fatalf("balance mapping %+v, want a checkpoint history (notes %v)", l.Balance, l.Notes)
	}
	c := &Chain{from: owner}
	s := &Seeded{Pair: common.HexToAddress("0x00000000000000000000000000000000000ba1f0")}
	c.fund(sb, l, s)
	if !s.Funded {
		t.Errorf("holders not funded: %v", s.Notes)
	}
}
