package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"

	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// probePowerToken deploys a testdata token with its pool, gives a holder
// some tokens, runs the probes from the owner and the contract analysis.
func probePowerToken(t *testing.T, bin string) (*analysis.EVMProbeFacts, []risk.Flag) {
	t.Helper()
	dn, c := startContractNet(t)
	m := dn.Manifest()
	deployer := common.HexToAddress(m.Deployer)
	weth := common.HexToAddress(m.WETH)
	token, pool := deployWithPool(t, dn, c, bin)
	holder := common.HexToAddress("0x4011de4011de4011de4011de4011de4011de4011")
	sendAs(t, dn, deployer, &token, nil, calldata("transfer(address,uint256)", holder.Bytes(), new(big.Int).Exp(big.NewInt(10), big.NewInt(25), nil).Bytes()))

	code, err := c.CodeAt(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	report := bytecode.AnalyseCode(code)
	elems, decode, err := probe.ProbeCalls(probe.ProbeRequest{Token: token, Pool: pool, Code: report, Owner: &deployer,
		Creator: &deployer, Donors: []common.Address{deployer}, Holders: []common.Address{deployer, holder},
		Exclude: []common.Address{weth}, Wrapped: weth, FeeBps: 30, Stock: new(big.Int).Exp(big.NewInt(10), big.NewInt(24), nil)})
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
		t.Logf("%s proven=%s ceiling=%s %s", cp.Name, fmtPtr(cp.Proven), fmtPtr(cp.Ceiling), cp.Evidence)
	}
	sec, _, _ := analysis.AnalyseEVMContract(&analysis.EVMContractFacts{OwnerKnown: true, OwnerGetter: true,
		Owner: deployer.Hex(), Code: codeFactsOf(report), Probe: pf})
	for _, f := range sec.Flags {
		t.Logf("flag %s (%s, %s) value=%s: %s", f.Code, f.Severity, f.Evidence, fmtPtr(f.Value), f.Detail)
	}
	return pf, sec.Flags
}

func flagOf(flags []risk.Flag, code string) *risk.Flag {
	for i := range flags {
		if flags[i].Code == code {
			return &flags[i]
		}
	}
	return nil
}

// TestProbesProveUnnamedBalancePowers: functions named like bookkeeping,
// their arguments in an order no catalogue has, that credit an account
// from nowhere (supply untouched), set a balance, or zero a holder while
// "excluding" it. The argument types come from the bytecode; the effects
// from every watched balance.
func TestProbesProveUnnamedBalancePowers(t *testing.T) {
	tests := []struct {
		bin, flag, fn string
	}{
		{"QuietMintToken.bin", risk.OwnerCanMint, "(uint256,address)"},
		{"SyncToken.bin", risk.OwnerCanSeize, "(address,uint256)"},
		{"ExcludeTrapToken.bin", risk.OwnerCanSeize, "(address)"},
	}
	for _, tt := range tests {
		t.Run(tt.bin, func(t *testing.T) {
			pf, flags := probePowerToken(t, tt.bin)
			f := flagOf(flags, tt.flag)
			if f == nil {
				t.Fatalf("no %s flag", tt.flag)
			}
			if f.Evidence != risk.EvidenceProbe || !strings.Contains(f.Source, tt.fn) {
				t.Errorf("%s evidence %q from %q, want a probe of %s", tt.flag, f.Evidence, f.Source, tt.fn)
			}
			if pf.Functions == 0 || pf.Unprobed != 0 {
				t.Errorf("functions probed %d, unprobed %d", pf.Functions, pf.Unprobed)
			}
		})
	}
}

// TestProbesFindFeeCeilings: the same fee setter capped at 10% reads a
// low, capped fee power; uncapped, a high one whose value is the highest
// sell fee the owner could set.
func TestProbesFindFeeCeilings(t *testing.T) {
	_, flags := probePowerToken(t, "CappedRateToken.bin")
	if f := flagOf(flags, risk.OwnerCanChangeFees); f != nil {
		t.Errorf("capped fee raised %s: %s", f.Code, f.Detail)
	}
	capped := flagOf(flags, risk.FeeCapped)
	if capped == nil || capped.Value == nil || *capped.Value > risk.FeeCappedPct || *capped.Value < 9 {
		t.Fatalf("capped fee flag %+v, want a ceiling of about 10%%", capped)
	}

	_, flags = probePowerToken(t, "OpenRateToken.bin")
	open := flagOf(flags, risk.OwnerCanChangeFees)
	if open == nil || open.Value == nil || *open.Value < risk.FeeCeilingHighPct || open.Severity != risk.High {
		t.Fatalf("uncapped fee flag %+v, want high with a ceiling of 50%% or more", open)
	}
}

// TestPricedSaleIsASeizure: a token that buys its own tokens back at a
// price the owner sets lets the owner zero the price, so holders who
// sell give their tokens away: a seizure read from the code (the setter
// and the holder's sale are two calls, which no single probe makes). The
// same sale at a price fixed in the code is no power. A contract selling
// the tokens it holds at a price the owner sets is the same power, the
// other way round.
func TestPricedSaleIsASeizure(t *testing.T) {
	_, flags := probePowerToken(t, "PricedSaleToken.bin")
	f := flagOf(flags, risk.OwnerCanSeize)
	if f == nil {
		t.Fatal("no OWNER_CAN_SEIZE flag for an owner-priced sale")
	}
	if f.Evidence != risk.EvidenceCode || !strings.Contains(f.Source, bytecode.SelectorOf("setPrices(uint256,uint256)").String()) ||
		!strings.Contains(f.Source, bytecode.SelectorOf("sell(uint256)").String()) {
		t.Errorf("seizure evidence %q from %q, want code naming the sale and its price setter", f.Evidence, f.Source)
	}

	// The other direction: the contract sells what it holds at a price the
	// owner sets.
	_, flags = probePowerToken(t, "PricedStockToken.bin")
	if f := flagOf(flags, risk.OwnerCanSeize); f == nil || f.Evidence != risk.EvidenceCode ||
		!strings.Contains(f.Source, bytecode.SelectorOf("setBuyPrice(uint256)").String()) {
		t.Errorf("owner-priced sale of the contract's tokens: seizure flag %+v, want code evidence naming the price setter", f)
	}

	_, flags = probePowerToken(t, "FixedSaleToken.bin")
	if f := flagOf(flags, risk.OwnerCanSeize); f != nil {
		t.Errorf("a sale at a fixed price raised %s: %s", f.Code, f.Detail)
	}
}

// TestProbesKeepUntestedCodeMint: an owner issue function that answers
// true for a zero amount and false for any other (its cap is reached on
// this state) went through only where it could show nothing. Those calls
// did not put it to the test, so the mint its code shows is reported, as
// code evidence, instead of being dropped as "called, no effect".
func TestProbesKeepUntestedCodeMint(t *testing.T) {
	pf, flags := probePowerToken(t, "CappedIssueToken.bin")
	sel := bytecode.SelectorOf("issueTokens(uint256)").String()
	if pf.Exercised[sel] {
		t.Errorf("issueTokens counted as exercised: only a zero amount went through and the others answered false")
	}
	f := flagOf(flags, risk.OwnerCanMint)
	if f == nil {
		t.Fatal("no OWNER_CAN_MINT flag for a guarded issue function")
	}
	if f.Evidence != risk.EvidenceCode || !strings.Contains(f.Source, sel) {
		t.Errorf("OWNER_CAN_MINT evidence %q from %q, want code evidence naming %s", f.Evidence, f.Source, sel)
	}
}

// TestRatedIssueIsAMint: a token that sells newly created tokens for
// ether at a rate the owner sets lets the owner raise the rate and create
// any amount for dust: a mint read from the code (the setter and the
// purchase are two calls, which no single probe makes). The same sale at
// a rate fixed in the code is no power.
func TestRatedIssueIsAMint(t *testing.T) {
	_, flags := probePowerToken(t, "RatedIssueToken.bin")
	f := flagOf(flags, risk.OwnerCanMint)
	if f == nil {
		t.Fatal("no OWNER_CAN_MINT flag for an issue at an owner-set rate")
	}
	if f.Evidence != risk.EvidenceCode || !strings.Contains(f.Source, bytecode.SelectorOf("buyTokens()").String()) ||
		!strings.Contains(f.Source, bytecode.SelectorOf("changeRate(uint256)").String()) {
		t.Errorf("mint evidence %q from %q, want code naming the issue and its rate setter", f.Evidence, f.Source)
	}

	_, flags = probePowerToken(t, "FixedIssueToken.bin")
	if f := flagOf(flags, risk.OwnerCanMint); f != nil {
		t.Errorf("an issue at a fixed rate raised %s: %s", f.Code, f.Detail)
	}
}

// TestProbesTakeTheContractsOwnTokens: a "recover any token" function
// that also accepts the token's own address hands the owner the tokens
// holders sent to the contract: proven once the contract holds tokens and
// the function is called with the token's address and the contract's
// balance. It is its own flag, not a seizure of holders: a buyer's own
// wallet is not touched. The same function refusing the token's own
// address proves nothing.
func TestProbesTakeTheContractsOwnTokens(t *testing.T) {
	_, flags := probePowerToken(t, "StockToken.bin")
	if f := flagOf(flags, risk.OwnerCanSeize); f != nil {
		t.Errorf("taking what the contract holds raised %s (%s): no holder's wallet is touched", f.Code, f.Severity)
	}
	f := flagOf(flags, risk.OwnerCanTakeContractTokens)
	if f == nil {
		t.Fatal("no OWNER_CAN_TAKE_CONTRACT_TOKENS flag for a recover function that takes the contract's own tokens")
	}
	if f.Evidence != risk.EvidenceProbe || !strings.Contains(f.Source, "token contract's own holdings") {
		t.Errorf("seizure evidence %q from %q, want a probe of the contract's holdings", f.Evidence, f.Source)
	}
	if f.Severity != risk.Medium {
		t.Errorf("taking what the contract holds is %s, want medium (a buyer's own wallet is not touched)", f.Severity)
	}

	_, flags = probePowerToken(t, "ForeignOnlyStockToken.bin")
	if f := flagOf(flags, risk.OwnerCanTakeContractTokens); f != nil {
		t.Errorf("a recover function refusing the token's own address raised %s: %s", f.Code, f.Detail)
	}
}

// TestProbesTakeTheContractsTokensADripAtATime: an owner function that
// hands the owner one token of what the contract holds a call moves far
// less than the supply's rounding tolerance, but the owner received
// exactly what the contract lost: as many calls empty the contract.
func TestProbesTakeTheContractsTokensADripAtATime(t *testing.T) {
	_, flags := probePowerToken(t, "DripStockToken.bin")
	f := flagOf(flags, risk.OwnerCanTakeContractTokens)
	if f == nil {
		t.Fatal("no OWNER_CAN_TAKE_CONTRACT_TOKENS flag for a function handing the owner the contract's tokens one at a time")
	}
	if f.Evidence != risk.EvidenceProbe || !strings.Contains(f.Source, bytecode.SelectorOf("claimReward(bool)").String()) {
		t.Errorf("evidence %q from %q, want a probe of claimReward", f.Evidence, f.Source)
	}
}

// TestProbesCreditTheStockOfATokenRefusingItself: a token that refuses
// transfers to its own address cannot be given tokens by the test
// wallet, yet its recover function hands the owner whatever the contract
// holds (fees, tokens credited some other way). The stock calls credit
// the contract by state override of its balance mapping, so the power is
// proven all the same.
func TestProbesCreditTheStockOfATokenRefusingItself(t *testing.T) {
	_, flags := probePowerToken(t, "SelfGuardStockToken.bin")
	f := flagOf(flags, risk.OwnerCanTakeContractTokens)
	if f == nil {
		t.Fatal("no OWNER_CAN_TAKE_CONTRACT_TOKENS flag for a recover function of a token refusing transfers to itself")
	}
	if f.Evidence != risk.EvidenceProbe || !strings.Contains(f.Source, "token contract's own holdings") {
		t.Errorf("evidence %q from %q, want a probe of the contract's holdings", f.Evidence, f.Source)
	}
	if f := flagOf(flags, risk.OwnerCanSeize); f != nil {
		t.Errorf("taking what the contract holds raised %s: no holder's wallet is touched", f.Code)
	}
}
