package solana

import (
	"context"
	"encoding/binary"
	"time"

	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/insider"
)

// Bounds of the insider check (see collector.insiders).
const (
	// insiderPools bounds the pools whose creation slot is looked up
	// (the bonding curve counts as one).
	insiderPools = 3
	// insiderAccounts bounds the token accounts read per holder.
	insiderAccounts = 2
	// insiderFundingTxs is how many of a wallet's oldest successful
	// transactions are read to find its first SOL.
	insiderFundingTxs = 2
	// DefaultInsiderBudget is the time the insider check may take after
	// round trip 3; past it, what is not established stays undecided.
	DefaultInsiderBudget = 2 * time.Second
)

// systemProgram is the System program, whose transfers fund wallets.
const systemProgram = "11111111111111111111111111111111"

// insiderRun is one insider check's state.
type insiderRun struct {
	c    *collector
	cost insider.Cost
}

// batch sends one round of calls; false when the node did not answer.
func (r *insiderRun) batch(ctx context.Context, calls []*Call) bool {
	if len(calls) == 0 {
		return true
	}
	r.cost.Calls += len(calls)
	r.cost.Requests++
	r.cost.RoundTrips++
	return r.c.client.Batch(ctx, calls) == nil
}

// history is an address's signatures, oldest last.
type history struct {
	sigs []signatureInfo
	call *Call
}

func (r *insiderRun) historyCall(addr string, out map[string]*history, calls *[]*Call) {
	if _, ok := out[addr]; ok {
		return
	}
	k, err := ParsePublicKey(addr)
	if err != nil {
		return
	}
	h := &history{}
	h.call = signaturesCall(k, &h.sigs)
	out[addr] = h
	*calls = append(*calls, h.call)
}

// span is when an address first appeared: exact when its whole history
// was listed, else no later than the oldest signature seen (and no
// earlier than floor); ok is false when nothing is known.
func (h *history) span(floor uint64) (insider.Span, bool) {
	if h == nil || h.call.Err != nil || len(h.sigs) == 0 {
		return insider.Span{}, false
	}
	oldest := h.sigs[len(h.sigs)-1].Slot
	if len(h.sigs) < signaturePageSize {
		return insider.At(oldest), true
	}
	return insider.Span{Lo: min(floor, oldest), Hi: oldest}, true
}

// oldestOK are the signatures of up to n oldest successful transactions,
// oldest first, when the whole history was listed.
func (h *history) oldestOK(n int) []string {
	if h == nil || h.call.Err != nil || len(h.sigs) >= signaturePageSize {
		return nil
	}
	var out []string
	for i := len(h.sigs) - 1; i >= 0 && len(out) < n; i-- {
		if h.sigs[i].Err == nil {
			out = append(out, h.sigs[i].Signature)
		}
	}
	return out
}

// insiders runs the insider check over the top holders after round trip
// 3, in at most four more round trips, each one JSON-RPC batch:
//
//	A. getSignaturesForAddress of each candidate wallet (when the creator
//	   is known), of its token accounts (up to 2) and of up to 3 pools;
//	B. getTransaction of each wallet's oldest 2 successful transactions
//	   (its first SOL);
//	C. getSignaturesForAddress of each wallet's funder (not the creator,
//	   not an exchange);
//	D. getTransaction of the funders' oldest 2 successful transactions.
//
// With 10 candidates that is at most 10+20+3, 20, 10 and 20 calls. Rounds
// are skipped when nothing is left to decide, and stopped at the budget:
// what is not established then stays undecided, never guessed.
func (c *collector) insiders(ctx context.Context) {
	f := c.facts
	if f.Holders == nil || f.Trusted != "" || f.Mint.Supply == 0 {
		return
	}
	budget := c.insiderBudget
	if budget <= 0 {
		budget = DefaultInsiderBudget
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	r := &insiderRun{c: c}
	in := &analysis.SolanaInsiderFacts{First: map[string]insider.Span{}, Funding: map[string]insider.Funding{}}
	candidates := analysis.SolanaInsiderCandidates(f)
	creator := ""
	if f.Creator != nil {
		creator = f.Creator.Address
	}
	var floor uint64 // no token account of the mint predates the mint
	if c.mintFirstSlot != nil {
		floor = *c.mintFirstSlot
		in.Launch = append(in.Launch, insider.At(*c.mintFirstSlot))
	}

	// A: histories of wallets, token accounts and pools.
	var calls []*Call
	wallets, accounts, pools := map[string]*history{}, map[string]*history{}, map[string]*history{}
	for _, h := range candidates {
		if creator != "" {
			r.historyCall(h.Address, wallets, &calls)
		}
		for i, ta := range h.TokenAccounts {
			if i == insiderAccounts {
				break
			}
			r.historyCall(ta, accounts, &calls)
		}
	}
	var poolAddrs []string
	if bc := f.Liquidity.BondingCurve; bc != nil {
		poolAddrs = append(poolAddrs, bc.Address)
	}
	for _, p := range f.Liquidity.Pools {
		poolAddrs = append(poolAddrs, p.Address)
	}
	for _, p := range poolAddrs {
		if len(pools) == insiderPools {
			break
		}
		r.historyCall(p, pools, &calls)
	}
	if len(candidates) > 0 && !r.batch(ctx, calls) {
		f.Warnings.Holder = append(f.Warnings.Holder, "insiders: the holders' histories could not be read")
	}
	for _, p := range poolAddrs {
		if s, ok := pools[p].span(floor); ok {
			in.Launch = append(in.Launch, s)
		}
	}
	for _, h := range candidates {
		var first *insider.Span
		all := len(h.TokenAccounts) <= insiderAccounts
		for i, ta := range h.TokenAccounts {
			if i == insiderAccounts {
				break
			}
			s, ok := accounts[ta].span(floor)
			if !ok {
				first, all = nil, false
				break
			}
			if first == nil {
				first = &s
				continue
			}
			first.Lo, first.Hi = min(first.Lo, s.Lo), min(first.Hi, s.Hi)
		}
		if first != nil && !all {
			first.Lo = min(first.Lo, floor) // an account not read may be older
		}
		if first != nil {
			in.First[h.Address] = *first
		}
	}

	// B to D: the chains of first funders, two links deep.
	if creator != "" {
		r.fundingChains(ctx, candidates, wallets, creator, in)
	}
	in.Cost = r.cost
	f.Insiders = in
}

// fundingChains follows each candidate's first SOL to its funder, and the
// funder's to its own (rounds B, C and D).
func (r *insiderRun) fundingChains(ctx context.Context, candidates []analysis.SolanaHolder, wallets map[string]*history, creator string, in *analysis.SolanaInsiderFacts) {
	c := r.c
	// A wallet first seen before the creator's first activity cannot have
	// been funded by it or by anything it funded.
	predates := func(h *history) bool {
		s, ok := h.span(0)
		return ok && c.creatorFirstSlot != nil && s.Hi < *c.creatorFirstSlot
	}
	ends := func(addr string, h *history) bool {
		_, exchange := c.facts.Exchanges[addr]
		return exchange || predates(h)
	}

	funders := map[string]string{} // wallet → funder
	unknown := map[string]bool{}   // wallet whose funder was not established
	first := func(ws map[string]*history, addrs []string) {
		// Round B/D: the oldest transactions of each wallet.
		var calls []*Call
		txs := map[string][]*Call{}
		for _, a := range addrs {
			for _, sig := range ws[a].oldestOK(insiderFundingTxs) {
				call := &Call{Method: "getTransaction", Params: []any{sig, map[string]any{"encoding": "json", "maxSupportedTransactionVersion": 0}}, Result: &fundingTx{}}
				txs[a] = append(txs[a], call)
				calls = append(calls, call)
			}
		}
		if ctx.Err() != nil || !r.batch(ctx, calls) {
			for _, a := range addrs {
				unknown[a] = true
			}
			return
		}
		for _, a := range addrs {
			unknown[a] = true
			for _, call := range txs[a] {
				if call.Err != nil {
					break
				}
				by, out := call.Result.(*fundingTx).firstFunder(a)
				if out == fundedHere {
					funders[a], unknown[a] = by, false
					break
				}
				if out == fundingUnknown {
					break
				}
			}
		}
	}

	var direct []string
	for _, h := range candidates {
		if ends(h.Address, wallets[h.Address]) {
			in.Funding[h.Address] = insider.Funding{Ended: true}
			continue
		}
		direct = append(direct, h.Address)
	}
	first(wallets, direct)

	// C: the funders' histories (a funder that is the creator, an
	// exchange or predates the creator needs none).
	hop := map[string]*history{}
	var calls []*Call
	for _, a := range direct {
		if by, ok := funders[a]; ok && by != creator {
			if _, exchange := c.facts.Exchanges[by]; !exchange {
				r.historyCall(by, hop, &calls)
			}
		}
	}
	if len(calls) > 0 && ctx.Err() == nil && r.batch(ctx, calls) {
		var next []string
		for by, h := range hop {
			if !predates(h) {
				next = append(next, by)
			}
		}
		first(hop, next)
	}
	for _, a := range direct {
		by, ok := funders[a]
		switch {
		case !ok || unknown[a]:
			// not established
		case by == creator:
			in.Funding[a] = insider.Funding{Chain: []string{by}}
		default:
			fu := insider.Funding{Chain: []string{by}}
			if _, exchange := c.facts.Exchanges[by]; exchange {
				fu.Ended = true
			} else if h := hop[by]; h != nil && predates(h) {
				fu.Ended = true
			} else if second, ok := funders[by]; ok && !unknown[by] {
				fu.Chain = append(fu.Chain, second)
			} else {
				// The funder's own funder is unknown: one link only.
			}
			in.Funding[a] = fu
		}
	}
}

// fundingTx is the part of a getTransaction answer (json encoding) that
// shows who sent a wallet SOL.
type fundingTx struct {
	Slot uint64 `json:"slot"`
	Meta *struct {
		Err               any      `json:"err"`
		PreBalances       []uint64 `json:"preBalances"`
		PostBalances      []uint64 `json:"postBalances"`
		InnerInstructions []struct {
			Index        int              `json:"index"`
			Instructions []rawInstruction `json:"instructions"`
		} `json:"innerInstructions"`
		LoadedAddresses *struct {
			Writable []string `json:"writable"`
			Readonly []string `json:"readonly"`
		} `json:"loadedAddresses"`
	} `json:"meta"`
	Transaction struct {
		Message struct {
			AccountKeys  []string         `json:"accountKeys"`
			Instructions []rawInstruction `json:"instructions"`
		} `json:"message"`
	} `json:"transaction"`
}

// rawInstruction is a compiled instruction: indexes into the account keys
// and base58 data.
type rawInstruction struct {
	ProgramIDIndex int    `json:"programIdIndex"`
	Accounts       []int  `json:"accounts"`
	Data           string `json:"data"`
}

// fundingOutcome is what one transaction says of a wallet's first SOL.
type fundingOutcome int

const (
	// notFundedHere: the wallet's balance did not start here (it held no
	// SOL before or after); a later transaction may fund it.
	notFundedHere fundingOutcome = iota
	// fundedHere: a System transfer here is the wallet's first SOL.
	fundedHere
	// fundingUnknown: the wallet's SOL started before this transaction
	// (history not kept) or came by a way that names no sender.
	fundingUnknown
)

// firstFunder finds the sender of the first System program credit to
// wallet in the transaction (Transfer, TransferWithSeed, CreateAccount,
// CreateAccountWithSeed; top-level and inner instructions, in execution
// order).
func (t *fundingTx) firstFunder(wallet string) (string, fundingOutcome) {
	if t.Meta == nil || t.Meta.Err != nil {
		return "", notFundedHere
	}
	keys := append([]string(nil), t.Transaction.Message.AccountKeys...)
	if la := t.Meta.LoadedAddresses; la != nil {
		keys = append(append(keys, la.Writable...), la.Readonly...)
	}
	idx := -1
	for i, k := range keys {
		if k == wallet {
			idx = i
			break
		}
	}
	if idx < 0 || idx >= len(t.Meta.PreBalances) || idx >= len(t.Meta.PostBalances) {
		return "", fundingUnknown
	}
	if t.Meta.PreBalances[idx] > 0 {
		return "", fundingUnknown // it had SOL before its oldest transaction
	}
	order := func(yield func(rawInstruction) bool) {
		for i, ix := range t.Transaction.Message.Instructions {
			if !yield(ix) {
				return
			}
			for _, inner := range t.Meta.InnerInstructions {
				if inner.Index != i {
					continue
				}
				for _, ix := range inner.Instructions {
					if !yield(ix) {
						return
					}
				}
			}
		}
	}
	for ix := range order {
		if from, to, lamports, ok := systemCredit(keys, ix); ok && to == wallet && from != wallet && lamports > 0 {
			return from, fundedHere
		}
	}
	if t.Meta.PostBalances[idx] > 0 {
		return "", fundingUnknown // credited without a System transfer
	}
	return "", notFundedHere
}

// systemCredit decodes a System program instruction that moves lamports
// into an account.
func systemCredit(keys []string, ix rawInstruction) (from, to string, lamports uint64, ok bool) {
	if ix.ProgramIDIndex < 0 || ix.ProgramIDIndex >= len(keys) || keys[ix.ProgramIDIndex] != systemProgram {
		return "", "", 0, false
	}
	data, err := base58.Decode(ix.Data)
	if err != nil || len(data) < 4 {
		return "", "", 0, false
	}
	account := func(i int) (string, bool) {
		if i >= len(ix.Accounts) || ix.Accounts[i] < 0 || ix.Accounts[i] >= len(keys) {
			return "", false
		}
		return keys[ix.Accounts[i]], true
	}
	var fromAt, toAt, amountAt int
	switch binary.LittleEndian.Uint32(data) {
	case 0: // CreateAccount {lamports, space, owner}: [funder, new]
		fromAt, toAt, amountAt = 0, 1, 4
	case 2: // Transfer {lamports}: [from, to]
		fromAt, toAt, amountAt = 0, 1, 4
	case 3: // CreateAccountWithSeed {base, seed, lamports, space, owner}: [funder, new, base]
		if len(data) < 4+32+8 {
			return "", "", 0, false
		}
		n := binary.LittleEndian.Uint64(data[36:44])
		if n > uint64(len(data)) {
			return "", "", 0, false
		}
		fromAt, toAt, amountAt = 0, 1, 44+int(n)
	case 11: // TransferWithSeed {lamports, seed, owner}: [from, base, to]
		fromAt, toAt, amountAt = 0, 2, 4
	default:
		return "", "", 0, false
	}
	if amountAt+8 > len(data) {
		return "", "", 0, false
	}
	f, ok1 := account(fromAt)
	t, ok2 := account(toAt)
	if !ok1 || !ok2 {
		return "", "", 0, false
	}
	return f, t, binary.LittleEndian.Uint64(data[amountAt:]), true
}
