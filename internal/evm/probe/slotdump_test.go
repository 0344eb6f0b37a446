package probe

import (
	"errors"
	"math/big"
	"os"
	"slices"
	"strings"
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

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
)

// TestSlotDumpReadsTheProxysWindowAndTheImplementationsConstants runs
// the dump program on the go-ethereum EVM in a proxy's account: it
// answers exactly the non-zero words of slots 12..523 and of the slots
// the implementation pushes as 32-byte constants, never a slot before
// the window, past it, or a hashed slot the implementation does not
// name; a 0x7f byte inside push data is no constant.
func TestSlotDumpReadsTheProxysWindowAndTheImplementationsConstants(t *testing.T) {
	st, err := state.New(types.EmptyRootHash, state.NewDatabase(triedb.NewDatabase(rawdb.NewMemoryDatabase(), nil), nil))
	if err != nil {
		t.Fatal(err)
	}
	proxyAddr := common.HexToAddress("0x00000000000000000000000000000000abcd0001")
	implAddr := common.HexToAddress("0x00000000000000000000000000000000abcd0002")
	named := crypto.Keccak256Hash([]byte("tokenrisk.test.keeper"))    // the implementation reads it
	other := crypto.Keccak256Hash([]byte("tokenrisk.test.elsewhere")) // no code names it
	hidden := crypto.Keccak256Hash([]byte("tokenrisk.test.in-push-data"))
	// The implementation: PUSH32 named SLOAD; a PUSH2 whose data is
	// 0x7f00 (no PUSH32); PUSH32 of a word that is no slot; STOP.
	impl := append([]byte{byte(vm.PUSH32)}, named[:]...)
	impl = append(impl, byte(vm.SLOAD), byte(vm.PUSH2), 0x7f, 0x00)
	impl = append(impl, hidden[:31]...) // read as opcodes, never as a constant
	impl = append(impl, byte(vm.PUSH32))
	impl = append(impl, common.LeftPadBytes([]byte{0xee}, 32)...)
	impl = append(impl, byte(vm.STOP))
	st.SetCode(implAddr, impl, tracing.CodeChangeUnspecified)

	word := func(i int64) common.Hash { return common.BigToHash(big.NewInt(i)) }
	val := func(i int64) common.Hash { return common.BigToHash(big.NewInt(1000 + i)) }
	want := map[common.Hash]common.Hash{}
	for _, i := range []int64{0, 5, 11, 12, 17, 40, 300, 523, 524, 9999} {
		st.SetState(proxyAddr, word(i), val(i))
		if i >= 12 && i < 524 {
			want[word(i)] = val(i)
		}
	}
	keeper := common.BytesToHash(common.HexToAddress("0x1111111111111111111111111111111111111111").Bytes())
	st.SetState(proxyAddr, named, keeper)
	want[named] = keeper
	st.SetState(proxyAddr, other, val(1))
	st.SetState(proxyAddr, hidden, val(2))

	st.SetCode(proxyAddr, slotDumpCode(), tracing.CodeChangeUnspecified)
	d := SlotDumpCall(proxyAddr, implAddr)
	msg := d.elems[0].Args[0].(node.CallMsg)
	out, left, err := runtime.Call(proxyAddr, msg.Data, &runtime.Config{State: st, GasLimit: uint64(msg.Gas)})
	if err != nil {
		t.Fatalf("dump: %v", err)
	}
	t.Logf("dump: %d bytes of code, %d gas, %d bytes answered", len(slotDumpCode()), uint64(msg.Gas)-left, len(out))
	*d.out = out
	d.Apply(true, impl)
	if !d.Read || d.Err != "" {
		t.Fatalf("not read: %q", d.Err)
	}
	if len(d.Words) != len(want) {
		t.Errorf("dump answered %d words, want %d", len(d.Words), len(want))
	}
	for slot, w := range want {
		if got, ok := d.Words[slot]; !ok || common.BytesToHash(got) != w {
			t.Errorf("slot %x: got %x (%v), want %x", slot, got, ok, w)
		}
	}
	for slot := range d.Words {
		if _, ok := want[slot]; !ok {
			t.Errorf("slot %x answered, outside the window and the implementation's constants", slot)
		}
	}
	for _, c := range []struct {
		slot common.Hash
		want bool
	}{
		{word(11), false}, {word(12), true}, {word(20), true}, {word(523), true}, {word(524), false},
		{named, true}, {other, false}, {hidden, false},
	} {
		if got := d.Covers(c.slot); got != c.want {
			t.Errorf("Covers(%x) = %v, want %v", c.slot, got, c.want)
		}
	}

	// Without an implementation (a beacon's, unknown yet): the window.
	st.SetCode(proxyAddr, slotDumpCode(), tracing.CodeChangeUnspecified)
	d = SlotDumpCall(proxyAddr, common.Address{})
	msg = d.elems[0].Args[0].(node.CallMsg)
	out, _, err = runtime.Call(proxyAddr, msg.Data, &runtime.Config{State: st, GasLimit: uint64(msg.Gas)})
	if err != nil {
		t.Fatalf("dump without implementation: %v", err)
	}
	*d.out = out
	d.Apply(true, nil)
	if len(d.Words) != len(want)-1 || d.Covers(named) {
		t.Errorf("without an implementation: %d words, covers the constant %v; want %d, false", len(d.Words), d.Covers(named), len(want)-1)
	}

	// A large implementation (the Prober) is swept well
	// within the dump's gas.
	prober, err := proberContract()
	if err != nil {
		t.Fatal(err)
	}
	st.SetCode(implAddr, prober.DeployedBytecode, tracing.CodeChangeUnspecified)
	d = SlotDumpCall(proxyAddr, implAddr)
	msg = d.elems[0].Args[0].(node.CallMsg)
	_, left, err = runtime.Call(proxyAddr, msg.Data, &runtime.Config{State: st, GasLimit: uint64(msg.Gas)})
	if used := uint64(msg.Gas) - left; err != nil || used > dumpGas/2 {
		t.Errorf("sweeping %d bytes of code: %d gas, %v; want under %d", len(prober.DeployedBytecode), used, err, dumpGas/2)
	} else {
		t.Logf("sweeping %d bytes of code: %d gas, %d PUSH32 constants", len(prober.DeployedBytecode), used, len(push32Constants(prober.DeployedBytecode)))
	}

	// A refusal is no read: nothing is covered.
	d = SlotDumpCall(proxyAddr, implAddr)
	d.elems[0].Error = errors.New("state overrides not supported")
	d.Apply(true, impl)
	if d.Read || d.Covers(word(17)) || d.Err == "" {
		t.Errorf("refused dump: read %v, covers 17 %v, err %q", d.Read, d.Covers(word(17)), d.Err)
	}
}

// TestProxyGuardsFromTheSlotDump: KeeperProxyToken, behind a
// TransparentProxy, checks the caller against slot 4 (owner) and slot 58
// (keeper). The proxy's own code names neither, so round trip 2's reads
// miss the keeper; the slot dump's word makes it a guard, and without a
// dump the slot is reported unread, never silently dropped.
func TestProxyGuardsFromTheSlotDump(t *testing.T) {
	impl, err := contracts.Artifact("KeeperProxyToken")
	if err != nil {
		t.Fatal(err)
	}
	px, err := contracts.Artifact("TransparentProxy")
	if err != nil {
		t.Fatal(err)
	}
	token := common.HexToAddress("0x00000000000000000000000000000000abcd0001")
	implAddr := common.HexToAddress("0x00000000000000000000000000000000abcd0002")
	keeper := common.HexToAddress("0x2222222222222222222222222222222222222222")
	owner := common.HexToAddress("0x3333333333333333333333333333333333333333")
	implReport := bytecode.AnalyseCode(impl.DeployedBytecode)
	known := map[uint64][]byte{4: common.LeftPadBytes(owner.Bytes(), 32)}
	slot58 := common.BigToHash(big.NewInt(58))

	elems, decode := GuardSlotCalls(token, bytecode.AnalyseCode(px.DeployedBytecode), known)
	for _, e := range elems {
		if e.Args[1] == slot58 {
			t.Fatal("the proxy's own code named slot 58: the test shows nothing")
		}
	}
	d := SlotDumpCall(token, implAddr)
	*d.out = append(common.LeftPadBytes(slot58.Bytes(), 32), common.LeftPadBytes(keeper.Bytes(), 32)...)
	d.Apply(true, impl.DeployedBytecode)
	guards, unread := decode(implReport, d)
	i := slices.IndexFunc(guards, func(g Guard) bool { return g.Addr == keeper })
	if i < 0 || guards[i].Slot != slot58 || len(unread) != 0 {
		t.Errorf("with the dump: guards %+v, unread %x; want the keeper at slot 58, nothing unread", guards, unread)
	}

	refused := SlotDumpCall(token, implAddr)
	refused.elems[0].Error = errors.New("state overrides not supported")
	refused.Apply(true, impl.DeployedBytecode)
	for _, dump := range []*SlotDump{refused, nil} {
		guards, unread = decode(implReport, dump)
		if slices.ContainsFunc(guards, func(g Guard) bool { return g.Addr == keeper }) || !slices.Equal(unread, []common.Hash{slot58}) {
			t.Errorf("without a dump: guards %+v, unread %x; want slot 58 unread", guards, unread)
		}
	}
}

// TestSlotDumpSweepsAHashedOwnerSlot: a real proxy's owner sits at a
// hashed slot (TestCallerSlotsOfRealCode), the slot its code compares
// the caller with; the dump's sweep of that code finds it among the
// 32-byte constants, so the dump covers it.
func TestSlotDumpSweepsAHashedOwnerSlot(t *testing.T) {
	raw, err := os.ReadFile("../method/testdata/corpus-proxy-owner.hex")
	if err != nil {
		t.Fatal(err)
	}
	code := common.FromHex(strings.TrimSpace(string(raw)))
	slot := common.HexToHash("0x6279e8199720cf3557ecd8b58d667c8edc486bd1cf3ad59ea9ebdfcae0d0dfac")
	found := false
	for _, s := range bytecode.AnalyseCode(code).Methods.CallerSlots() {
		found = found || common.Hash(s.Slot.Bytes32()) == slot
	}
	if !found {
		t.Fatal("the code checks no caller against the owner slot: the test shows nothing")
	}
	d := SlotDumpCall(common.Address{1}, common.Address{2})
	d.Apply(true, code)
	if !d.Covers(slot) {
		t.Errorf("the dump does not cover %x; constants swept: %x", slot, push32Constants(code))
	}
}
