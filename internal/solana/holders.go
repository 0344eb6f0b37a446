package solana

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

func (c *collector) buildHolders(get func(PublicKey) (*Account, bool)) {
	f := c.facts
	if c.largest == nil {
		if c.holderCount != nil {
			c.holderCount() // the list failed: the count has nothing to stand with
		}
		return
	}
	// Fewer accounts than the node's limit is the whole list only if they
	// hold the whole supply: a node with an incomplete token index (or
	// balances the amount field does not show, such as withheld transfer
	// fees) lists fewer.
	h := &analysis.SolanaHolderFacts{}
	unresolved := 0
	var listed uint64
	for _, la := range c.largest {
		amt, err := strconv.ParseUint(la.Amount, 10, 64)
		if err != nil {
			f.Warnings.Holder = append(f.Warnings.Holder, "holders: malformed amount for "+la.Address)
			continue
		}
		ta := analysis.SolanaTokenAccount{Address: la.Address, Amount: amt}
		if k, err := ParsePublicKey(la.Address); err == nil {
			if acc, ok := get(k); ok && acc != nil {
				if tok, err := c.tokenAccountOf(acc); err == nil && tok.Mint == c.mint {
					owner := tok.Owner.String()
					ta.Owner = &owner
					pda := !IsOnCurve(tok.Owner)
					ta.OwnerIsProgramAccount = &pda
				}
			}
		}
		if ta.Owner == nil {
			unresolved++
		}
		listed = satAdd(listed, amt)
		h.Accounts = append(h.Accounts, ta)
	}
	if len(c.largest) < 20 {
		h.Complete = listed == c.mintData.Supply
		h.Inconsistent = !h.Complete
		if !h.Complete {
			f.Warnings.Holder = append(f.Warnings.Holder, fmt.Sprintf("holders: the node listed %d token accounts holding %s of %d raw units of supply; the list is not the whole set of holders", len(c.largest), strconv.FormatUint(listed, 10), c.mintData.Supply))
		}
	}
	sort.SliceStable(h.Accounts, func(i, j int) bool { return h.Accounts[i].Amount > h.Accounts[j].Amount })
	if unresolved > 0 {
		f.Warnings.Holder = append(f.Warnings.Holder, fmt.Sprintf("holders: %d of %d token account owners unresolved", unresolved, len(h.Accounts)))
	}
	if c.holderCount != nil {
		switch hc := c.holderCount(); {
		case hc.err != nil:
			f.Warnings.Holder = append(f.Warnings.Holder, "holders: the node would not count the mint's token accounts: "+describe(hc.err))
		default:
			h.Count = &analysis.SolanaHolderCount{Accounts: hc.accounts, Held: hc.held}
		}
	}
	f.Holders = h
}
