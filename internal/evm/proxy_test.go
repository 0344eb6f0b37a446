package evm

import (
	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/proxy"

	"context"
	"fmt"
	"math/big"
	"net"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"
)

// proxyChain is a simulated chain whose accounts (code and storage) are set
// in genesis: proxies of every kind without deploying anything.
func proxyChain(t *testing.T, alloc types.GenesisAlloc) *rpc.Client {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	b := simulated.NewBackend(alloc, func(nc *node.Config, _ *ethconfig.Config) {
		nc.HTTPHost, nc.HTTPPort, nc.HTTPModules, nc.HTTPVirtualHosts = "127.0.0.1", port, []string{"eth"}, []string{"*"}
	})
	t.Cleanup(func() { _ = b.Close() })
	rc, err := rpc.DialHTTP(fmt.Sprintf("http://127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	return rc
}

func word(a common.Address) common.Hash { return common.BytesToHash(a.Bytes()) }

// TestProxySlotsAreTheirPreimages checks every hard-coded proxy slot
// against the hash its standard defines.
func TestProxySlotsAreTheirPreimages(t *testing.T) {
	minusOne := func(s string) common.Hash {
		h := new(big.Int).SetBytes(crypto.Keccak256([]byte(s)))
		return common.BigToHash(h.Sub(h, big.NewInt(1)))
	}
	tests := []struct {
		name      string
		slot, got common.Hash
	}{
		{"EIP-1967 implementation", proxy.SlotEIP1967Implementation, minusOne("eip1967.proxy.implementation")},
		{"EIP-1967 admin", proxy.SlotEIP1967Admin, minusOne("eip1967.proxy.admin")},
		{"EIP-1967 beacon", proxy.SlotEIP1967Beacon, minusOne("eip1967.proxy.beacon")},
		{"EIP-1822 PROXIABLE", proxy.SlotEIP1822Proxiable, crypto.Keccak256Hash([]byte("PROXIABLE"))},
		{"zeppelinos implementation", proxy.SlotZeppelinOSImplementation, crypto.Keccak256Hash([]byte("org.zeppelinos.proxy.implementation"))},
		{"zeppelinos admin", proxy.SlotZeppelinOSAdmin, crypto.Keccak256Hash([]byte("org.zeppelinos.proxy.admin"))},
	}
	for _, tt := range tests {
		if tt.slot != tt.got {
			t.Errorf("%s slot = %s, want %s", tt.name, tt.slot.Hex(), tt.got.Hex())
		}
	}
}

func TestProxyKindsOnChain(t *testing.T) {
	var (
		token  = common.HexToAddress("0x1000000000000000000000000000000000000001")
		impl   = common.HexToAddress("0x2000000000000000000000000000000000000002")
		beacon = common.HexToAddress("0x3000000000000000000000000000000000000003")
		admin  = common.HexToAddress("0x4000000000000000000000000000000000000004")
		boss   = common.HexToAddress("0x5000000000000000000000000000000000000005")
		eoa    = common.HexToAddress("0x6000000000000000000000000000000000000006")
		shady  = common.HexToAddress("0x7000000000000000000000000000000000000007")
	)
	delegating, plain := readHex(t, "DelegatingStub.hex"), readHex(t, "PlainToken.hex")
	// An implementation with upgradeTo(address) (a UUPS implementation).
	upgradable := append(asm(t, "6000 35 60e0 1c 80 633659cfe6 14 610040 57"), plain...)
	base := func() types.GenesisAlloc {
		return types.GenesisAlloc{
			impl:   {Code: plain},
			shady:  {Code: upgradable},
			beacon: {Code: readHex(t, "BeaconStub.hex"), Storage: map[common.Hash]common.Hash{{}: word(impl)}},
			admin:  {Code: readHex(t, "AdminStub.hex"), Storage: map[common.Hash]common.Hash{{}: word(boss)}},
		}
	}
	clone := append(append(asm(t, "363d3d373d3d3d363d73"), impl.Bytes()...), asm(t, "5af43d82803e903d91602b57fd5bf3")...)
	// A slot of its own naming: VaultRouterProxy keeps its logic at
	// keccak256("vault.router.logic") and repoints it in its fallback.
	vault, err := contracts.Artifact("VaultRouterProxy")
	if err != nil {
		t.Fatal(err)
	}
	logicSlot := crypto.Keccak256Hash([]byte("vault.router.logic"))
	// delegatecall(gas, sload(0), 0, calldatasize, 0, 0) after copying
	// the calldata: slot 0, never written; and the same to a constant
	// address (a library, not a proxy).
	slotZero := asm(t, "365f5f37 5f5f365f 600054 5af4 00")
	library := append(append(asm(t, "365f5f37 5f5f365f 73"), impl.Bytes()...), asm(t, "5af4 00")...)
	tests := []struct {
		name        string
		token       types.Account
		wantKind    string // "" = not a proxy
		wantImpl    common.Address
		authority   *common.Address
		adminIsCode *bool
		upgradeable bool
	}{
		{"transparent, admin contract", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotEIP1967Implementation: word(impl), proxy.SlotEIP1967Admin: word(admin)}}, proxy.ProxyEIP1967, impl, &boss, new(true), true},
		{"transparent, admin EOA", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotEIP1967Implementation: word(impl), proxy.SlotEIP1967Admin: word(eoa)}}, proxy.ProxyEIP1967, impl, &eoa, new(false), true},
		{"UUPS without upgrade function", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotEIP1967Implementation: word(impl)}}, proxy.ProxyEIP1967, impl, nil, nil, false},
		{"beacon", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotEIP1967Beacon: word(beacon)}}, proxy.ProxyBeacon, impl, nil, nil, true},
		{"EIP-1822 PROXIABLE", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotEIP1822Proxiable: word(impl)}}, proxy.ProxyEIP1822, impl, nil, nil, false},
		{"EIP-1822 with an upgradeable implementation", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotEIP1822Proxiable: word(shady)}}, proxy.ProxyEIP1822, shady, nil, nil, true},
		{"zeppelinos (USDC FiatTokenProxy layout), admin contract", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotZeppelinOSImplementation: word(impl), proxy.SlotZeppelinOSAdmin: word(admin)}}, proxy.ProxyZeppelinOS, impl, &boss, new(true), true},
		{"zeppelinos, admin EOA", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotZeppelinOSImplementation: word(impl), proxy.SlotZeppelinOSAdmin: word(eoa)}}, proxy.ProxyZeppelinOS, impl, &eoa, new(false), true},
		{"zeppelinos, admin a contract without owner() (a multisig): the admin itself upgrades", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotZeppelinOSImplementation: word(shady), proxy.SlotZeppelinOSAdmin: word(impl)}}, proxy.ProxyZeppelinOS, shady, &impl, new(true), true},
		{"zeppelinos, admin renounced to zero", types.Account{Code: delegating, Storage: map[common.Hash]common.Hash{
			proxy.SlotZeppelinOSImplementation: word(impl)}}, proxy.ProxyZeppelinOS, impl, nil, nil, false},
		{"EIP-1167 clone", types.Account{Code: clone}, proxy.ProxyEIP1167, impl, nil, nil, false},
		{"a slot of its own, repointed by its fallback", types.Account{Code: vault.DeployedBytecode, Storage: map[common.Hash]common.Hash{
			logicSlot: word(impl)}}, proxy.ProxyStorageSlot, impl, nil, nil, true},
		{"slot 0, never written", types.Account{Code: slotZero, Storage: map[common.Hash]common.Hash{{}: word(impl)}},
			proxy.ProxyStorageSlot, impl, nil, nil, false},
		{"slot 0 naming an upgradeable implementation", types.Account{Code: slotZero, Storage: map[common.Hash]common.Hash{{}: word(shady)}},
			proxy.ProxyStorageSlot, shady, nil, nil, true},
		{"a library at a constant address", types.Account{Code: library}, "", common.Address{}, nil, nil, false},
		{"slot set but code never delegates", types.Account{Code: plain, Storage: map[common.Hash]common.Hash{
			proxy.SlotEIP1967Implementation: word(impl)}}, "", common.Address{}, nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			alloc := base()
			alloc[token] = tt.token
			rc := proxyChain(t, alloc)
			ctx := context.Background()
			var hexCode []byte
			elems, slots := proxy.ProxySlotCalls(token)
			if err := rc.BatchCallContext(ctx, elems); err != nil {
				t.Fatal(err)
			}
			if err := rc.CallContext(ctx, (*hexBytes)(&hexCode), "eth_getCode", token, "latest"); err != nil {
				t.Fatal(err)
			}
			s, err := slots()
			if err != nil {
				t.Fatal(err)
			}
			p := proxy.DetectProxy(bytecode.AnalyseCode(hexCode), s)
			if tt.wantKind == "" {
				if p != nil {
					t.Fatalf("proxy = %+v, want none", p)
				}
				return
			}
			if p == nil || p.Kind != tt.wantKind {
				t.Fatalf("proxy = %+v, want kind %s", p, tt.wantKind)
			}
			more, decode := proxy.ProxyDetailCalls(token, p)
			if err := rc.BatchCallContext(ctx, more); err != nil {
				t.Fatal(err)
			}
			implCode, err := decode()
			if err != nil {
				t.Fatal(err)
			}
			if p.Implementation != tt.wantImpl {
				t.Errorf("implementation = %s, want %s", p.Implementation.Hex(), tt.wantImpl.Hex())
			}
			// Every kind's implementation code comes with the details (a
			// beacon's and a storage slot's by a state-overridden read):
			// no round trip of its own.
			if len(implCode) == 0 {
				t.Error("implementation code not fetched")
			}
			if got := p.UpgradeAuthority(); fmtPtr(got) != fmtPtr(tt.authority) {
				t.Errorf("upgrade authority = %s, want %s", fmtPtr(got), fmtPtr(tt.authority))
			}
			if fmtPtr(p.AdminIsContract) != fmtPtr(tt.adminIsCode) {
				t.Errorf("admin is contract = %s, want %s", fmtPtr(p.AdminIsContract), fmtPtr(tt.adminIsCode))
			}
			implUpgrade := bytecode.AnalyseCode(implCode).HasSelector(bytecode.SelectorOf("upgradeTo(address)"))
			if got := p.Upgradeable(implUpgrade); got != tt.upgradeable {
				t.Errorf("upgradeable = %v, want %v", got, tt.upgradeable)
			}
		})
	}
}
