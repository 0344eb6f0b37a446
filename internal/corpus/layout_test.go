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
	raw, err := os.ReadFile("testdata/gated/0xa5b91fbfec2f9a708592f9cd3c9e20becdfcb816.hex")
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
