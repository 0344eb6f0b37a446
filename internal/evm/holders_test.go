package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"context"
	"math/big"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/contracts"

	"github.com/ethereum/go-ethereum/common"
)

func TestRebuildHolders(t *testing.T) {
	tc := newTestChain(t)
	m := newMarket(t, tc)
	var recipients []common.Address
	for i := range 20 {
		a := common.BigToAddress(big.NewInt(int64(0xa000 + i)))
		recipients = append(recipients, a)
		tc.transact(t, "StableUSD", m.token, nil, "transfer", a, big.NewInt(int64(1000*(i+1))))
	}
	latest, err := tc.backend.Client().BlockNumber(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		maxLogRange  uint64
		delay        time.Duration
		budget       holder.HolderBudget
		wantComplete bool
		wantSplits   bool
	}{
		{"one page", 0, 0, holder.HolderBudget{}, true, false},
		{"provider refuses ranges over 4 blocks", 4, 0, holder.HolderBudget{}, true, true},
		{"time budget cuts a slow scan", 0, 60 * time.Millisecond, holder.HolderBudget{Duration: 150 * time.Millisecond, InitialRange: 2, Parallel: 1}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newRPCProxy(t, tc.url, tt.delay, tt.maxLogRange)
			c := node.NewClient("sim", []string{p.URL()}, node.ClientOptions{})
			s, err := holder.RebuildHolders(context.Background(), c, m.token, latest, tt.budget)
			if err != nil {
				t.Fatalf("RebuildHolders: %v", err)
			}
			if s.Complete != tt.wantComplete {
				t.Fatalf("Complete = %v (%s), want %v", s.Complete, s.StopReason, tt.wantComplete)
			}
			if (s.Splits > 0) != tt.wantSplits {
				t.Errorf("splits = %d, want some: %v", s.Splits, tt.wantSplits)
			}
			if !tt.wantComplete {
				if s.StopReason == "" || s.Reached >= latest {
					t.Errorf("partial scan reached %d of %d, reason %q", s.Reached, latest, s.StopReason)
				}
				return
			}
			holders := s.Holders()
			// deployer, two pools' worth (token pool), 20 recipients; the
			// WETH/USD pool holds no token.
			if len(holders) != 22 {
				t.Errorf("holders = %d, want 22", len(holders))
			}
			for _, a := range append(recipients, tc.from, m.pair) {
				want := tc.call(t, "StableUSD", m.token, "balanceOf", a)[0].(*big.Int)
				got := s.Balances[a]
				if got == nil || got.Cmp(want) != 0 {
					t.Errorf("balance of %s = %v, want %v", a, got, want)
				}
			}
			if s.FirstMintTo == nil || *s.FirstMintTo != tc.from {
				t.Errorf("first mint to %v, want the deployer", s.FirstMintTo)
			}
			if holders[0].Address != tc.from {
				t.Errorf("largest holder %s, want the deployer", holders[0].Address)
			}
			if seen, ok := s.FirstIn[m.pair]; !ok || seen.Block == 0 {
				t.Errorf("first transfer into the pool not seen: %+v", seen)
			}
		})
	}
}

func TestTooMuchClassifiesProviderAnswers(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&node.RPCError{Code: -32005, Message: "query returned more than 10000 results"}, true},
		{&node.RPCError{Code: -32602, Message: "eth_getLogs block range is too large, max 2000"}, true},
		{&node.RPCError{Code: -32000, Message: "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range"}, true},
		{&node.RPCError{Code: -32000, Message: "exceed maximum block range: 50000"}, true},
		{&node.TransportError{Chain: "x", Timeout: true}, true},
		{&node.RPCError{Code: -32601, Message: "the method eth_getLogs does not exist/is not available"}, false},
		{&node.TransportError{Chain: "x", Err: context.Canceled}, false},
	}
	for _, tt := range tests {
		if got := holder.TooMuch(tt.err); got != tt.want {
			t.Errorf("tooMuch(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestLocateCreation(t *testing.T) {
	tc := newTestChain(t)
	for range 40 { // history before the token
		tc.backend.Commit()
	}
	c, err := contracts.Artifact("StableUSD")
	if err != nil {
		t.Fatal(err)
	}
	ctorArgs, _ := c.ABI.Pack("", big.NewInt(1000))
	rcpt := tc.sendTx(t, nil, append(append([]byte(nil), c.Bytecode...), ctorArgs...), nil)
	for range 25 {
		tc.backend.Commit()
	}
	latest, _ := tc.backend.Client().BlockNumber(context.Background())
	cl := node.NewClient("sim", []string{tc.url}, node.ClientOptions{})
	got, err := holder.LocateCreation(context.Background(), cl, rcpt.ContractAddress, latest)
	if err != nil {
		t.Fatal(err)
	}
	if want := rcpt.BlockNumber.Uint64(); got != want {
		t.Errorf("creation block = %d, want %d", got, want)
	}

	// A provider refusing the whole history: the rebuild jumps to the
	// creation block and is still complete.
	p := newRPCProxy(t, tc.url, 0, 30)
	s, err := holder.RebuildHolders(context.Background(), node.NewClient("sim", []string{p.URL()}, node.ClientOptions{}), rcpt.ContractAddress, latest, holder.HolderBudget{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Complete || s.Created == nil || *s.Created != rcpt.BlockNumber.Uint64() || len(s.Holders()) != 1 {
		t.Errorf("rebuild complete %v created %v holders %d (%s)", s.Complete, fmtPtr(s.Created), len(s.Holders()), s.StopReason)
	}
}
