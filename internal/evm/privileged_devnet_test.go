package evm

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// keeperOf is KeeperToken's keeper: derived from its deployer, so
// neither the owner nor the creator.
func keeperOf(deployer common.Address) common.Address {
	enc := append(common.LeftPadBytes(deployer.Bytes(), 32), common.LeftPadBytes(big.NewInt(0x40).Bytes(), 32)...)
	enc = append(enc, common.LeftPadBytes(big.NewInt(6).Bytes(), 32)...)
	enc = append(enc, common.RightPadBytes([]byte("keeper"), 32)...)
	return common.BytesToAddress(crypto.Keccak256(enc)[12:])
}

// probeKeeper deploys KeeperToken and runs, as a scan does, round trip
// 1's slot reads, round trip 2's caller-check slot reads and the probes
// of round trip 3; owner is the live owner given to the probes.
func probeKeeper(t *testing.T, renounce bool) (*analysis.EVMProbeFacts, common.Address) {
	t.Helper()
	dn, c := startContractNet(t)
	m := dn.Manifest()
	deployer := common.HexToAddress(m.Deployer)
	weth := common.HexToAddress(m.WETH)
	token, pool := deployWithPool(t, dn, c, "KeeperToken.bin")
	holder := common.HexToAddress("0x4011de4011de4011de4011de4011de4011de4011")
	sendAs(t, dn, deployer, &token, nil, calldata("transfer(address,uint256)", holder.Bytes(), new(big.Int).Exp(big.NewInt(10), big.NewInt(25), nil).Bytes()))
	var owner *common.Address
	if renounce {
		sendAs(t, dn, deployer, &token, nil, calldata("renounceOwnership()"))
	} else {
		owner = &deployer
	}
	ctx := context.Background()
	code, err := c.CodeAt(ctx, token)
	if err != nil {
		t.Fatal(err)
	}
	report := bytecode.AnalyseCode(code)
	first, stored := probe.StorageCandidateCalls(token)
	if err := c.Batch(ctx, first); err != nil {
		t.Fatal(err)
	}
	guardElems, guards := probe.GuardSlotCalls(token, report, storageWords(first)())
	if err := c.Batch(ctx, append([]rpc.BatchElem(nil), guardElems...)); err != nil {
		t.Fatal(err)
	}
	guarded, _ := guards(report, nil)
	req := probe.ProbeRequest{Token: token, Pool: pool, Code: report, Owner: owner, Stored: stored(), Guards: guarded,
		Creator: &deployer, Donors: []common.Address{deployer}, Holders: []common.Address{deployer, holder},
		Exclude: []common.Address{weth}, Wrapped: weth, FeeBps: 30, Renounced: renounce}
	var head struct {
		Time hexutil.Uint64 `json:"timestamp"`
	}
	if err := c.Call(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil {
		t.Fatal(err)
	}
	req.BlockTime = uint64(head.Time)
	elems, decode, err := probe.ProbeCalls(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Batch(ctx, elems); err != nil {
		t.Fatal(err)
	}
	pf, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pf.Privileged {
		t.Logf("privileged %s (%s, slot %s) %v after renounce %s: %s", p.Address, p.Role, p.Slot, p.Powers, fmtPtr(p.AfterRenounce), p.AfterRenounceDetail)
	}
	return pf, keeperOf(deployer)
}

// TestProbesFindTheAddressTheCodeGatesOn: KeeperToken's keeper sits in
// slot 17, past the first storage slots, and is neither the owner nor
// the creator; the caller check the code makes names its slot, the scan
// reads it and the probes prove the keeper's seizure from it.
func TestProbesFindTheAddressTheCodeGatesOn(t *testing.T) {
	pf, keeper := probeKeeper(t, false)
	i := slices.IndexFunc(pf.Privileged, func(p analysis.EVMPrivilegedAddress) bool { return p.Address == keeper.Hex() })
	if i < 0 {
		t.Fatalf("keeper %s not among the privileged addresses %+v", keeper.Hex(), pf.Privileged)
	}
	k := pf.Privileged[i]
	if k.Role != probe.RoleGuard || k.Slot != "0x11" || !slices.Contains(k.Powers, bytecode.CapSeize) {
		t.Errorf("keeper = %+v, want role guard, slot 0x11, powers with %s", k, bytecode.CapSeize)
	}
}

// TestPowersThatSurviveTheRenounce: KeeperToken's owner renounces
// through renounceOwnership() inside the probes' batch; its mint dies
// with it, the keeper's seizure survives it (the power that makes
// "renounced" a lie). Once the token is renounced for real, the
// keeper's power was proven after the renounce.
func TestPowersThatSurviveTheRenounce(t *testing.T) {
	for _, renounce := range []bool{false, true} {
		pf, keeper := probeKeeper(t, renounce)
		got := map[string]string{}
		for _, p := range pf.Privileged {
			got[p.Role] = fmtPtr(p.AfterRenounce)
			if p.Address == keeper.Hex() && (p.AfterRenounce == nil || !*p.AfterRenounce) {
				t.Errorf("renounced %v: keeper after_renounce = %s (%s), want true", renounce, fmtPtr(p.AfterRenounce), p.AfterRenounceDetail)
			}
		}
		if !renounce && got[probe.RoleOwner] != "false" {
			t.Errorf("owner after_renounce = %s, want false (its mint is gone)", got[probe.RoleOwner])
		}
	}
}

// TestProbesChainASwitchBeforeTheBurn: ArmedBurnToken's burn of another
// holder's tokens refuses until the owner turns burns on; the probes
// turn every switch the owner can set, then burn: a seizure, proven.
func TestProbesChainASwitchBeforeTheBurn(t *testing.T) {
	_, flags := probePowerToken(t, "ArmedBurnToken.bin")
	f := flagOf(flags, risk.OwnerCanSeize)
	if f == nil {
		t.Fatalf("no %s flag", risk.OwnerCanSeize)
	}
	if f.Evidence != risk.EvidenceProbe || !strings.Contains(f.Source, "after") {
		t.Errorf("%s evidence %q from %q, want a probe of the burn after the switch", risk.OwnerCanSeize, f.Evidence, f.Source)
	}
}
