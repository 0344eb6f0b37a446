package evm

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// TestHolderSellsOnDevnet: the real holders' sells (issue 18) on tokens
// whose trap a fresh wallet never meets. The owner's switch (EarlyBird)
// or list (AirdropVault) stops every launch recipient's sell while a
// wallet that buys now trades: the report is a honeypot naming holders
// the Transfer logs show holding tokens. A clean token's holders all
// sell, a taxed token's holders pay its tax, and neither is a honeypot.
func TestHolderSellsOnDevnet(t *testing.T) {
	dn := startAdapterNet(t)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{})
	for _, kind := range []string{"honeypot_holders_armed", "honeypot_holders_listed"} {
		t.Run(kind, func(t *testing.T) {
			tok, _ := dn.Manifest().Token(kind)
			r, err := assess(t, ad, tok.Address)
			if err != nil {
				t.Fatal(err)
			}
			s := simOf(t, r)
			if s.CanSell == nil || !*s.CanSell {
				t.Fatalf("a fresh wallet's sell: can_sell %v, want true (the trap is for holders only)", fmtPtr(s.CanSell))
			}
			h := s.HolderSells
			if h == nil || h.Tried < 2 || 2*h.Failed < h.Tried || len(h.FailedHolders) != h.Failed {
				t.Fatalf("holder sells %+v, want at least half of two or more refused, named", h)
			}
			var detail string
			for _, f := range r.RiskFlags {
				if f.Code == risk.HoneypotCannotSell && strings.Contains(f.Detail, "real holders") {
					detail = f.Detail
				}
			}
			if detail == "" {
				t.Fatalf("no HONEYPOT_CANNOT_SELL from the holders' sells; flags %v", r.RiskFlags)
			}
			if r.RiskLevel != risk.LevelCritical {
				t.Errorf("level %s, want critical", r.RiskLevel)
			}
			ec, err := ethclient.Dial(dn.RPCURL())
			if err != nil {
				t.Fatal(err)
			}
			defer ec.Close()
			for _, a := range h.FailedHolders {
				if !strings.Contains(detail, a) {
					t.Errorf("the flag does not name refused holder %s: %s", a, detail)
				}
				tokAddr := common.HexToAddress(tok.Address)
				out, err := ec.CallContract(context.Background(), ethereum.CallMsg{To: &tokAddr,
					Data: append(bytecode.SelBalanceOf.Bytes(), common.LeftPadBytes(common.HexToAddress(a).Bytes(), 32)...)}, nil)
				if err != nil || new(big.Int).SetBytes(out).Sign() == 0 {
					t.Errorf("refused holder %s holds nothing on chain (%v)", a, err)
				}
			}
			if h.Error == nil || *h.Error == "" {
				t.Errorf("no revert reason for the refused sells")
			}
		})
	}
	for _, c := range []struct {
		kind string
		tax  float64
	}{{"clean", 0}, {"tax_sell_high", 30}} {
		t.Run(c.kind, func(t *testing.T) {
			tok, _ := dn.Manifest().Token(c.kind)
			r, err := assess(t, ad, tok.Address)
			if err != nil {
				t.Fatal(err)
			}
			h := simOf(t, r).HolderSells
			if h == nil || h.Tried < 2 || h.Failed != 0 || len(h.Siphoned) != 0 {
				t.Fatalf("holder sells %+v, want two or more tried, none refused or siphoned", h)
			}
			near(t, "average_tax", h.AverageTax, c.tax, 1)
			near(t, "highest_tax", h.HighestTax, c.tax, 1)
			for _, f := range r.RiskFlags {
				if f.Code == risk.HoneypotCannotSell {
					t.Errorf("HONEYPOT_CANNOT_SELL on %s: %s", c.kind, f.Detail)
				}
			}
		})
	}
}
