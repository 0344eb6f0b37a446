package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chaos"
)

// TestClientRetriesWhileTheNodeAnswers: a provider that rate-limits one
// call in two inside batches answers half of what is asked again each
// round. Eight calls need four rounds past the first: beyond the client's
// two retries, rounds continue while each gets some answers, so every
// call is answered. A node that answers none of them gets only the
// retries.
func TestClientRetriesWhileTheNodeAnswers(t *testing.T) {
	m := startAdapterNet(t).Manifest()
	balances := func(c *node.Client) []rpc.BatchElem {
		bals := make([]hexutil.Big, 8)
		elems := make([]rpc.BatchElem, len(bals))
		for i := range elems {
			elems[i] = node.BalanceElem(common.HexToAddress(m.Deployer), &bals[i])
		}
		if err := c.Batch(context.Background(), elems); err != nil {
			t.Fatalf("Batch: %v", err)
		}
		for i, el := range elems {
			if el.Error == nil && (*big.Int)(&bals[i]).Sign() <= 0 {
				t.Errorf("elem %d: no error and no balance", i)
			}
		}
		return elems
	}

	p, _ := chaosChain(t)
	p.Set(chaos.Fault{Every: 2, Error: &chaos.CallError{Code: 429, Message: "Too Many Requests"}})
	for i, el := range balances(node.NewClient("devnet", []string{p.URL()}, node.ClientOptions{Backoff: time.Millisecond})) {
		if el.Error != nil {
			t.Errorf("elem %d: %v, want an answer (the node answered every round)", i, el.Error)
		}
	}

	p2, _ := chaosChain(t)
	p2.Set(chaos.Fault{Error: &chaos.CallError{Code: 429, Message: "Too Many Requests"}})
	elems := balances(node.NewClient("devnet", []string{p2.URL()}, node.ClientOptions{Backoff: time.Millisecond}))
	for i, el := range elems {
		if el.Error == nil {
			t.Errorf("elem %d answered by a node that answers nothing", i)
		}
	}
	if got := p2.Requests(); got != 3 {
		t.Errorf("%d requests to a node that answers no call, want 3 (the first and two retries)", got)
	}
}

// TestEmptyAnswersAskedInTurn: a node that answers every other
// totalSupply()/balanceOf() with 0x empties the same call each time the
// pair is asked in the same order; asked in turn, each call gets its
// answer and the token its report (not a 502, never not_a_token).
func TestEmptyAnswersAskedInTurn(t *testing.T) {
	m := startAdapterNet(t).Manifest()
	clean, _ := m.Token("clean")
	p, ad := chaosChain(t)
	p.Set(chaos.Fault{Methods: []string{"eth_call"}, Data: []string{bytecode.SelTotalSupply.String(), bytecode.SelBalanceOf.String()}, Every: 2, Empty: true})
	r, err := assess(t, ad, clean.Address)
	if err != nil {
		t.Fatalf("Assess: %v", err)
	}
	if r.Decimals == nil || *r.Decimals != clean.Decimals {
		t.Errorf("decimals %s, want %d", fmtPtr(r.Decimals), clean.Decimals)
	}
	if p.Faulted() == 0 {
		t.Fatal("the fault was never applied")
	}
}
