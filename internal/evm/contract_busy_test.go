package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"

	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// sendAs mines one transaction from key on the devnet and fails the test
// when it reverts; it returns the receipt.
func sendAs(t *testing.T, dn *devnet.Devnet, from common.Address, to *common.Address, value *big.Int, data []byte) *types.Receipt {
	t.Helper()
	key, ok := dn.Key(from)
	if !ok {
		t.Fatalf("no key for %s", from.Hex())
	}
	ctx := context.Background()
	cl := dn.Backend().Client()
	nonce, err := cl.PendingNonceAt(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	head, err := cl.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	chainID := big.NewInt(dn.Manifest().ChainID)
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(1e9),
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(1e9)),
		Gas:       8_000_000, To: to, Value: value, Data: data})
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(chainID), key)
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.SendTransaction(ctx, signed); err != nil {
		t.Fatal(err)
	}
	dn.Commit()
	r, err := cl.TransactionReceipt(ctx, signed.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction to %v reverted", to)
	}
	return r
}

func calldata(sig string, words ...[]byte) []byte {
	out := bytecode.SelectorOf(sig).Bytes()
	for _, w := range words {
		out = append(out, common.LeftPadBytes(w, 32)...)
	}
	return out
}

// TestProbesIgnoreBusyButHarmlessOwnerFunctions deploys a token written
// the way many real tax tokens are (airdrop, fee-swap threshold, marketing
// wallet, swap toggle, rescue) and checks that the probes prove none of
// them privileged, while the simulation still measures its 3% sell tax.
func TestProbesIgnoreBusyButHarmlessOwnerFunctions(t *testing.T) {
	dn, c := startContractNet(t)
	m := dn.Manifest()
	deployer := common.HexToAddress(m.Deployer)
	weth := common.HexToAddress(m.WETH)
	token, pool := deployWithPool(t, dn, c, "BusyTaxToken.bin")

	z := collectZooContract(t, c, devnet.ManifestToken{Address: token.Hex(), Pair: pool.Hex()})
	if z.owner == nil || *z.owner != deployer {
		t.Fatalf("owner = %v, want the deployer", z.owner)
	}
	elems, decode, err := probe.ProbeCalls(probe.ProbeRequest{Token: token, Pool: pool, Code: z.code, Owner: z.owner, Stored: z.stored,
		Creator: &deployer, Donors: []common.Address{deployer}, Exclude: []common.Address{weth}, Wrapped: weth, FeeBps: 30})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatal(err)
	}
	pf, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	for _, cp := range pf.Capabilities {
		t.Logf("%s proven=%s %s", cp.Name, fmtPtr(cp.Proven), cp.Evidence)
		if cp.Proven != nil && *cp.Proven {
			t.Errorf("capability %s proven by %s; the token has no such power", cp.Name, cp.Evidence)
		}
	}
	if !pf.Funded {
		t.Error("probe wallet not funded")
	}
	sim := simulateZoo(t, "", devnet.ManifestToken{Address: token.Hex(), Pair: pool.Hex()})
	t.Logf("simulation: %s", simString(sim))
	checkRange(t, "sell_tax", sim.SellTax, &[2]float64{2.5, 3.5})
	checkRange(t, "buy_tax", sim.BuyTax, &[2]float64{0, 0.5})
	cf := &analysis.EVMContractFacts{OwnerKnown: true, OwnerGetter: true, Owner: deployer.Hex(), Code: codeFactsOf(z.code), Probe: pf, Simulation: sim}
	sec, _, _ := analysis.AnalyseEVMContract(cf)
	for _, f := range sec.Flags {
		if f.Severity == risk.High || f.Severity == risk.Critical {
			t.Errorf("flag %s (%s): %s", f.Code, f.Severity, f.Detail)
		}
	}
}

// TestProbesCatchADelegatedHook: a token that DELEGATECALLs, on every
// transfer, an address set through an unknown-named function. The probe
// points it at the victim's code, whose fallback reports being run in the
// token's context.
func TestProbesCatchADelegatedHook(t *testing.T) {
	dn, c := startContractNet(t)
	deployer := common.HexToAddress(dn.Manifest().Deployer)
	token := sendAs(t, dn, deployer, nil, nil, readHex(t, "DelegateHookToken.bin")).ContractAddress
	z := collectZooContract(t, c, devnet.ManifestToken{Address: token.Hex()})
	if !z.code.StorageTargetDelegatecall {
		t.Error("StorageTargetDelegatecall = false, want the stored delegate target seen in the code")
	}
	elems, decode, err := probe.ProbeCalls(probe.ProbeRequest{Token: token, Code: z.code, Owner: z.owner, Stored: z.stored,
		Creator: &deployer, Donors: []common.Address{deployer}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatal(err)
	}
	pf, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	var proven []string
	for _, cp := range pf.Capabilities {
		t.Logf("%s proven=%s %s", cp.Name, fmtPtr(cp.Proven), cp.Evidence)
		if cp.Proven != nil && *cp.Proven {
			proven = append(proven, cp.Name)
		}
	}
	if len(proven) != 1 || proven[0] != bytecode.CapExternalTarget {
		t.Errorf("proven = %v, want [%s] only", proven, bytecode.CapExternalTarget)
	}
	sec, _, _ := analysis.AnalyseEVMContract(&analysis.EVMContractFacts{OwnerKnown: true, OwnerGetter: true,
		Owner: deployer.Hex(), Code: codeFactsOf(z.code), Probe: pf})
	if !analysisHas(sec.Flags, risk.ExternalCall) {
		t.Errorf("EXTERNAL_CALL missing")
	}
}

func analysisHas(flags []risk.Flag, code string) bool {
	for _, f := range flags {
		if f.Code == code {
			return true
		}
	}
	return false
}

// deployWithPool deploys a testdata token whose constructor takes
// (factory, weth) and creates its pair (read back with pair()), then seeds
// the pair with half the deployer's tokens and 10 WETH.
func deployWithPool(t *testing.T, dn *devnet.Devnet, c *node.Client, bin string) (token, pool common.Address) {
	t.Helper()
	m := dn.Manifest()
	deployer := common.HexToAddress(m.Deployer)
	weth, factory := common.HexToAddress(m.WETH), common.HexToAddress(m.Factory)
	code := append(readHex(t, bin), append(common.LeftPadBytes(factory.Bytes(), 32), common.LeftPadBytes(weth.Bytes(), 32)...)...)
	token = sendAs(t, dn, deployer, nil, nil, code).ContractAddress
	out, err := c.CallContract(context.Background(), node.CallMsg{To: token, Data: bytecode.SelectorOf("pair()").Bytes()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool = common.BytesToAddress(out)
	ten := new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))
	sendAs(t, dn, deployer, &weth, ten, bytecode.SelectorOf("deposit()").Bytes())
	sendAs(t, dn, deployer, &weth, nil, calldata("transfer(address,uint256)", pool.Bytes(), ten.Bytes()))
	half := new(big.Int).Div(new(big.Int).Exp(big.NewInt(10), big.NewInt(27), nil), big.NewInt(2))
	sendAs(t, dn, deployer, &token, nil, calldata("transfer(address,uint256)", pool.Bytes(), half.Bytes()))
	sendAs(t, dn, deployer, &pool, nil, calldata("mint(address)", deployer.Bytes()))
	if err := dn.AdjustTime(time.Minute); err != nil {
		t.Fatal(err)
	}
	return token, pool
}

// TestSimulationBuysForItself: a token that only lets tx.origin buy for
// itself trades normally in the simulation (the simulator is its own
// origin).
func TestSimulationBuysForItself(t *testing.T) {
	dn, c := startContractNet(t)
	token, pool := deployWithPool(t, dn, c, "OriginGuardToken.bin")
	sim := simulateZoo(t, "", devnet.ManifestToken{Address: token.Hex(), Pair: pool.Hex()})
	if !analysis.EVMNotHoneypot(sim) {
		t.Errorf("simulation = %s, want a buy and a sell", simString(sim))
	}
}

// TestSimulationKeepsDust: a token that refuses to sell a whole balance is
// sellable (the simulator sells 99.9%).
func TestSimulationKeepsDust(t *testing.T) {
	dn, c := startContractNet(t)
	token, pool := deployWithPool(t, dn, c, "KeepDustToken.bin")
	sim := simulateZoo(t, "", devnet.ManifestToken{Address: token.Hex(), Pair: pool.Hex()})
	if !analysis.EVMNotHoneypot(sim) {
		t.Errorf("simulation = %s, want a buy and a sell", simString(sim))
	}
}

// TestProbesTellAPublicPowerFromAHiddenOwner: a renounced token whose
// stored treasury address can mint, but so can anyone: OWNER_CAN_MINT
// (open to anyone), not HIDDEN_OWNER.
func TestProbesTellAPublicPowerFromAHiddenOwner(t *testing.T) {
	dn, c := startContractNet(t)
	deployer := common.HexToAddress(dn.Manifest().Deployer)
	token, pool := deployWithPool(t, dn, c, "FaucetToken.bin")
	sendAs(t, dn, deployer, &token, nil, bytecode.SelectorOf("renounce()").Bytes())
	z := collectZooContract(t, c, devnet.ManifestToken{Address: token.Hex(), Pair: pool.Hex()})
	if z.owner != nil || len(z.stored) == 0 {
		t.Fatalf("owner = %v, stored = %v; want renounced with the treasury stored", z.owner, z.stored)
	}
	elems, decode, err := probe.ProbeCalls(probe.ProbeRequest{Token: token, Pool: pool, Code: z.code, Stored: z.stored, Donors: []common.Address{deployer}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatal(err)
	}
	pf, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	public := false
	for _, cp := range pf.Capabilities {
		t.Logf("%s proven=%s role=%s %s", cp.Name, fmtPtr(cp.Proven), cp.Role, cp.Evidence)
		public = public || (cp.Name == bytecode.CapMint && cp.Role == probe.RoleAnyone)
	}
	if !public {
		t.Error("mint not proven from the control caller")
	}
	sec, _, _ := analysis.AnalyseEVMContract(&analysis.EVMContractFacts{OwnerKnown: true, OwnerGetter: true, Code: codeFactsOf(z.code), Probe: pf})
	if analysisHas(sec.Flags, risk.HiddenOwner) || !analysisHas(sec.Flags, risk.OwnerCanMint) {
		t.Errorf("flags = %+v, want OWNER_CAN_MINT and no HIDDEN_OWNER", sec.Flags)
	}
}
