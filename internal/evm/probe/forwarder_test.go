package probe

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/holiman/uint256"

	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// TestForwarderRunsTheProberAsTheVictim: the victim and the donors hold
// only a forwarder to the caller, and still answer as the Prober did
// there: calls are counted in the victim's own storage, a token's
// callback to the victim is answered and counted, a delegated hook's call
// is counted on the victim while a call to the caller or a donor is not,
// reverts pass through with their data, and coin is accepted.
func TestForwarderRunsTheProberAsTheVictim(t *testing.T) {
	prober, err := proberContract()
	if err != nil {
		t.Fatal(err)
	}
	st, err := state.New(types.EmptyRootHash, state.NewDatabase(triedb.NewDatabase(rawdb.NewMemoryDatabase(), nil), nil))
	if err != nil {
		t.Fatal(err)
	}
	caller := common.HexToAddress("0x00000000000000000000000000000000c0ffee01")
	hook := common.HexToAddress("0x00000000000000000000000000000000c0ffee02")
	donor := common.HexToAddress("0x00000000000000000000000000000000c0ffee03")
	origin := caller // the probe's eth_call is sent from the caller, to it
	fwd := forwarderCode(caller)
	if len(fwd) != 45 {
		t.Errorf("forwarder is %d bytes, want 45", len(fwd))
	}
	st.SetCode(caller, prober.DeployedBytecode, tracing.CodeChangeUnspecified)
	st.SetCode(ProbeVictim, fwd, tracing.CodeChangeUnspecified)
	st.SetCode(donor, forwarderCode(caller), tracing.CodeChangeUnspecified)
	// A contract of its own running the Prober by DELEGATECALL.
	st.SetCode(hook, append(forwarderCode(caller), byte(vm.STOP)), tracing.CodeChangeUnspecified)
	st.SetBalance(origin, uint256.NewInt(100), tracing.BalanceChangeUnspecified)
	call := func(to common.Address, data []byte, value int64) ([]byte, error) {
		t.Helper()
		out, _, err := runtime.Call(to, data, &runtime.Config{Origin: origin, State: st, GasLimit: 5_000_000, Value: big.NewInt(value)})
		return out, err
	}
	sel := func(sig string) []byte { return bytecode.SelectorOf(sig).Bytes() }
	hitsSlot := crypto.Keccak256Hash([]byte("tokenrisk.prober.hits"))
	hits := func() int64 {
		t.Helper()
		out, err := call(ProbeVictim, sel("hits()"), 0)
		if err != nil {
			t.Fatalf("hits(): %v", err)
		}
		if got := st.GetState(ProbeVictim, hitsSlot).Big(); got.Cmp(new(big.Int).SetBytes(out)) != 0 {
			t.Fatalf("hits() answered %x, the victim's slot holds %v", out, got)
		}
		return new(big.Int).SetBytes(out).Int64()
	}
	one := common.LeftPadBytes([]byte{1}, 32)

	if _, err := call(ProbeVictim, sel("hit()"), 0); err != nil {
		t.Fatalf("hit(): %v", err)
	}
	if got := hits(); got != 1 {
		t.Errorf("after hit(): hits %d, want 1", got)
	}
	if got := st.GetState(caller, hitsSlot); got != (common.Hash{}) {
		t.Errorf("the caller's storage was written (%x): the Prober ran in the wrong account", got)
	}
	for _, c := range []struct {
		name string
		to   common.Address
		want int64
	}{
		{"a token's callback to the victim counts", ProbeVictim, 2},
		{"a call to the caller does not", caller, 2},
		{"nor one to a donor", donor, 2},
		{"a hook running the Prober by DELEGATECALL counts on the victim", hook, 3},
	} {
		out, err := call(c.to, sel("onTokenTransfer(address,uint256)"), 0)
		if err != nil || !bytes.Equal(out, one) {
			t.Errorf("%s: answered %x, %v; want a true word", c.name, out, err)
		}
		if got := hits(); got != c.want {
			t.Errorf("%s: hits %d, want %d", c.name, got, c.want)
		}
	}
	out, err := call(ProbeVictim, append(sel("probeAndRevert(bytes)"), make([]byte, 64)...), 0)
	if !errors.Is(err, vm.ErrExecutionReverted) || !bytes.Contains(out, []byte("prober: self only")) {
		t.Errorf("a refused call: got %q, %v; want the Prober's revert passed through", out, err)
	}
	if _, err := call(ProbeVictim, nil, 7); err != nil {
		t.Errorf("coin to the victim: %v", err)
	}
	if got := st.GetBalance(ProbeVictim).Uint64(); got != 7 {
		t.Errorf("victim balance %d, want 7", got)
	}
}
