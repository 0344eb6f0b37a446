package evm

import (
	"context"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// precisionNet is one zoo precision token (contracts/src/zoo/
// PrecisionTokens.sol) deployed with its pool and a holder.
type precisionNet struct {
	dn                          *devnet.Devnet
	c                           *node.Client
	deployer, token, pool, weth common.Address
	holder                      common.Address
	code                        bytecode.CodeReport
}

func deployPrecision(t *testing.T, name string) precisionNet {
	t.Helper()
	dn, c := startContractNet(t)
	m := dn.Manifest()
	n := precisionNet{dn: dn, c: c, deployer: common.HexToAddress(m.Deployer), weth: common.HexToAddress(m.WETH),
		holder: common.HexToAddress("0x4011de4011de4011de4011de4011de4011de4012")}
	art, err := contracts.Artifact(name)
	if err != nil {
		t.Fatal(err)
	}
	code := append(append([]byte(nil), art.Bytecode...), append(common.LeftPadBytes(common.HexToAddress(m.Factory).Bytes(), 32), common.LeftPadBytes(n.weth.Bytes(), 32)...)...)
	n.token = sendAs(t, dn, n.deployer, nil, nil, code).ContractAddress
	out, err := c.CallContract(context.Background(), node.CallMsg{To: n.token, Data: bytecode.SelectorOf("pair()").Bytes()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n.pool = common.BytesToAddress(out)
	ten := new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))
	sendAs(t, dn, n.deployer, &n.weth, ten, bytecode.SelectorOf("deposit()").Bytes())
	sendAs(t, dn, n.deployer, &n.weth, nil, calldata("transfer(address,uint256)", n.pool.Bytes(), ten.Bytes()))
	half := new(big.Int).Div(new(big.Int).Exp(big.NewInt(10), big.NewInt(27), nil), big.NewInt(2))
	sendAs(t, dn, n.deployer, &n.token, nil, calldata("transfer(address,uint256)", n.pool.Bytes(), half.Bytes()))
	sendAs(t, dn, n.deployer, &n.pool, nil, calldata("mint(address)", n.deployer.Bytes()))
	sendAs(t, dn, n.deployer, &n.token, nil, calldata("transfer(address,uint256)", n.holder.Bytes(), new(big.Int).Exp(big.NewInt(10), big.NewInt(25), nil).Bytes()))
	if err := dn.AdjustTime(time.Minute); err != nil {
		t.Fatal(err)
	}
	runtime, err := c.CodeAt(context.Background(), n.token)
	if err != nil {
		t.Fatal(err)
	}
	n.code = bytecode.AnalyseCode(runtime)
	return n
}

// analyse runs the probes (owner nil once renounced; grant: the victim's
// balance credited by override) and the contract analysis with the guard
// slots read from the chain, as the adapter does.
func (n precisionNet) analyse(t *testing.T, owner *common.Address, grant *big.Int) ([]risk.Flag, *analysis.EVMProbeFacts) {
	t.Helper()
	ctx := context.Background()
	req := probe.ProbeRequest{Token: n.token, Pool: n.pool, Code: n.code, Owner: owner, Creator: &n.deployer,
		Donors: []common.Address{n.deployer, n.holder}, Holders: []common.Address{n.deployer, n.holder},
		Exclude: []common.Address{n.weth}, Wrapped: n.weth, FeeBps: 30, Grant: grant}
	elems, decode, err := probe.ProbeCalls(req)
	if err != nil {
		t.Fatal(err)
	}
	storeElems, _ := probe.StorageCandidateCalls(n.token)
	if err := n.c.Batch(ctx, append(elems, storeElems...)); err != nil {
		t.Fatal(err)
	}
	pf, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	code := codeFactsOf(n.code)
	clearInert(code, n.code, storageWords(storeElems)())
	facts := &analysis.EVMContractFacts{OwnerKnown: true, OwnerGetter: true, Code: code, Probe: pf}
	if owner != nil {
		facts.Owner = owner.Hex()
	}
	sec, _, _ := analysis.AnalyseEVMContract(facts)
	for _, f := range sec.Flags {
		t.Logf("flag %s (%s): %s", f.Code, f.Severity, f.Detail)
	}
	return sec.Flags, pf
}

// contractLevel is the level the contract flags alone give (the other
// analyses are not run here).
func contractLevel(flags []risk.Flag) risk.Level {
	return risk.NewCatalogue().Score(flags).Level
}

// atMostLow reports whether a level is minimal or low.
func atMostLow(l risk.Level) bool { return l == risk.Minimal || l == risk.LevelLow }

func codesOf(flags []risk.Flag) []string {
	var out []string
	for _, f := range flags {
		out = append(out, f.Code)
	}
	return out
}

// TestUnfreezeIsNoMint: a holder moving its own frozen tokens back
// (unfreeze(uint256), checked against its own frozen amount) is no mint
// and no owner power, read from the code or probed.
func TestUnfreezeIsNoMint(t *testing.T) {
	n := deployPrecision(t, "FrostToken")
	m, ok := n.code.Methods.Lookup(bytecode.SelectorOf("unfreeze(uint256)"))
	if !ok || m.Credit || m.GuardedCredit || m.Guarded {
		t.Errorf("unfreeze: credit %v, guarded credit %v, guarded %v: the caller's own stash read as a mint or a check", m.Credit, m.GuardedCredit, m.Guarded)
	}
	flags, _ := n.analyse(t, &n.deployer, nil)
	for _, code := range []string{risk.OwnerCanMint, risk.OwnerCanChangeBalance, risk.OwnerCanSeize} {
		if slices.Contains(codesOf(flags), code) {
			t.Errorf("%s raised on a token whose only balance function moves the caller's own tokens", code)
		}
	}
	if l := contractLevel(flags); !atMostLow(l) {
		t.Errorf("level %s from the contract flags %v, want minimal or low: no privileged party has a power over holders", l, codesOf(flags))
	}
}

// TestZeroOwnerGuardIsNoPower: setOwner and issue behind a check of the
// owner slot are powers while the owner lives; once it is zero only the
// zero address passes, so neither is a reclaim nor a mint.
func TestZeroOwnerGuardIsNoPower(t *testing.T) {
	n := deployPrecision(t, "ZeroOwnerToken")
	live, _ := n.analyse(t, &n.deployer, nil)
	if !slices.Contains(codesOf(live), risk.OwnerCanMint) {
		t.Fatalf("live owner: flags %v, want OWNER_CAN_MINT (the case is not exercised)", codesOf(live))
	}
	sendAs(t, n.dn, n.deployer, &n.token, nil, bytecode.SelectorOf("renounceOwnership()").Bytes())
	dead, _ := n.analyse(t, nil, nil)
	for _, code := range []string{risk.OwnerCanMint, risk.HiddenOwner, risk.OwnerCanReclaim} {
		if slices.Contains(codesOf(dead), code) {
			t.Errorf("renounced: %s raised, though only the zero address passes the owner check", code)
		}
	}
	if l := contractLevel(dead); !atMostLow(l) {
		t.Errorf("renounced: level %s from the contract flags %v, want minimal or low", l, codesOf(dead))
	}
}

// TestVestingReleaseIsNoMint: an owner paying out a reserve the fixed
// supply already counts reads OWNER_CAN_RELEASE_RESERVE (low), not a
// (hidden) mint.
func TestVestingReleaseIsNoMint(t *testing.T) {
	n := deployPrecision(t, "VestingReserveToken")
	flags, _ := n.analyse(t, &n.deployer, nil)
	codes := codesOf(flags)
	if slices.Contains(codes, risk.OwnerCanMint) || !slices.Contains(codes, risk.OwnerCanReleaseReserve) {
		t.Errorf("flags %v: want OWNER_CAN_RELEASE_RESERVE and no OWNER_CAN_MINT", codes)
	}
	if l := contractLevel(flags); !atMostLow(l) {
		t.Errorf("level %s from the contract flags %v, want minimal or low: a release dilutes no holder", l, codes)
	}
}

// TestGrantedVictimSeesTheSwitch: once every transfer is off no donor can
// fund the probes' wallet, so the switch is invisible; credited by
// balance-slot override, the wallet shows the owner's call turning
// transfers back on.
func TestGrantedVictimSeesTheSwitch(t *testing.T) {
	n := deployPrecision(t, "SealedLaunchToken")
	sendAs(t, n.dn, n.deployer, &n.token, nil, calldata("setMarketPhase(uint8)", []byte{0}))
	switches := func(flags []risk.Flag) bool {
		c := codesOf(flags)
		return slices.Contains(c, risk.TradingSwitch) || slices.Contains(c, risk.OwnerCanPause)
	}
	flags, pf := n.analyse(t, &n.deployer, nil)
	if pf.Funded || switches(flags) {
		t.Fatalf("without a grant: funded %v, flags %v: the sealed state is not exercised", pf.Funded, codesOf(flags))
	}
	flags, _ = n.analyse(t, &n.deployer, new(big.Int).Exp(big.NewInt(10), big.NewInt(24), nil))
	if !switches(flags) {
		t.Errorf("with the victim granted tokens: flags %v, want TRADING_SWITCH or OWNER_CAN_PAUSE", codesOf(flags))
	}
}
