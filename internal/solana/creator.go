package solana

import (
	"context"
	"fmt"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// creatorHistory is a getSignaturesForAddress call on a creator.
type creatorHistory struct {
	of   PublicKey
	sigs []signatureInfo
	call *Call
}

func signaturesCall(addr PublicKey, out *[]signatureInfo) *Call {
	return &Call{Method: "getSignaturesForAddress", Params: []any{addr.String(), map[string]any{"limit": signaturePageSize}}, Result: out}
}

func (c *collector) transactionCall(sig string) *Call {
	return &Call{
		Method: "getTransaction",
		Params: []any{sig, map[string]any{"encoding": "json", "maxSupportedTransactionVersion": 0}},
		Result: &transactionResult{},
	}
}

// lateCreator is the outcome of paging to a mint's oldest signature.
type lateCreator struct {
	oldest   *signatureInfo
	complete bool
	tx       *transactionResult
	err      error
}

func (c *collector) pageToOldest(ctx context.Context) *lateCreator {
	out := &lateCreator{}
	last := c.signatures[len(c.signatures)-1]
	for page := 1; page < c.sigPages; page++ {
		var sigs []signatureInfo
		err := c.client.Do(ctx, "getSignaturesForAddress", &sigs, c.mint.String(), map[string]any{"limit": signaturePageSize, "before": last.Signature})
		if err != nil {
			out.err = err
			return out
		}
		if len(sigs) > 0 {
			last = sigs[len(sigs)-1]
		}
		if len(sigs) < signaturePageSize {
			out.complete = true
			break
		}
	}
	out.oldest = &last
	if !out.complete {
		return out
	}
	call := c.transactionCall(last.Signature)
	if err := c.client.Batch(ctx, []*Call{call}); err != nil {
		out.err = err
	} else if call.Err != nil {
		out.err = call.Err
	} else {
		out.tx = call.Result.(*transactionResult)
	}
	return out
}

func (c *collector) buildCreator(ctx context.Context, get func(PublicKey) (*Account, bool), tx *Call, late *lateCreator, history *creatorHistory) {
	f := c.facts
	cr := &analysis.SolanaCreator{}
	// Creation transaction evidence.
	var txr *transactionResult
	var oldest *signatureInfo
	switch {
	case c.sigErr != nil:
		f.Uncheck(risk.CheckDeployer)
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: the mint's signatures could not be read: "+describe(c.sigErr))
	case len(c.signatures) == 0:
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: the node returned no signatures for the mint (history pruned?)")
	case c.sigsComplete:
		oldest = &c.signatures[len(c.signatures)-1]
		cr.OldestSignatureComplete = true
		if tx != nil && tx.Err == nil {
			txr = tx.Result.(*transactionResult)
		} else if tx != nil {
			f.Uncheck(risk.CheckDeployer)
			f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: the creation transaction could not be read: "+describe(tx.Err))
		}
	case late != nil:
		oldest = late.oldest
		cr.OldestSignatureComplete = late.complete
		txr = late.tx
		switch {
		case late.err != nil:
			f.Uncheck(risk.CheckDeployer)
			f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: paging to the first transaction failed: "+describe(late.err))
		case !late.complete:
			f.Warnings.Deployer = append(f.Warnings.Deployer, fmt.Sprintf("deployer: more than %d signatures; the first transaction was not reached", c.sigPages*signaturePageSize))
		}
	}
	if oldest != nil && cr.OldestSignatureComplete {
		slot := oldest.Slot
		c.mintFirstSlot = &slot
		s := oldest.Signature
		cr.CreationSignature = &s
		cr.CreationTime = oldest.BlockTime
		if txr != nil && txr.BlockTime != nil {
			cr.CreationTime = txr.BlockTime
		}
	}
	var feePayer string
	if txr != nil && len(txr.Transaction.Message.AccountKeys) > 0 {
		feePayer = txr.Transaction.Message.AccountKeys[0]
	}

	switch {
	case f.Liquidity.BondingCurve != nil && f.Liquidity.BondingCurve.Creator != nil:
		cr.Address, cr.Source = *f.Liquidity.BondingCurve.Creator, analysis.SolanaCreatorBondingCurve
	case feePayer != "":
		cr.Address, cr.Source = feePayer, analysis.SolanaCreatorFeePayer
	case f.Metadata != nil && f.Metadata.UpdateAuthority != nil:
		cr.Address, cr.Source = *f.Metadata.UpdateAuthority, analysis.SolanaCreatorUpdateAuthority
	default:
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: no creator evidence (no bonding curve, first transaction or metadata update authority)")
		return
	}
	key, err := ParsePublicKey(cr.Address)
	if err != nil {
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: creator address is malformed: "+cr.Address)
		return
	}
	pda := !IsOnCurve(key)
	cr.IsProgramAccount = &pda
	if acc, ok := get(key); ok {
		var lamports uint64
		if acc != nil {
			lamports = acc.Lamports
		}
		cr.BalanceLamports = &lamports
	}
	if history == nil || history.of != key {
		history = nil
	}
	if (cr.BalanceLamports == nil || history == nil) && ctx.Err() == nil {
		// The creator was only found in round trip 3 (or its batch
		// failed): one more request for its balance and history.
		var bal balanceResult
		balCall := &Call{Method: "getBalance", Params: []any{cr.Address}, Result: &bal}
		history = &creatorHistory{of: key}
		history.call = signaturesCall(key, &history.sigs)
		if err := c.client.Batch(ctx, []*Call{balCall, history.call}); err == nil && balCall.Err == nil && cr.BalanceLamports == nil {
			cr.BalanceLamports = &bal.Value
		}
	}
	switch {
	case history == nil || history.call.Err != nil:
		f.Uncheck(risk.CheckDeployer)
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: creator transaction history unknown")
	case len(history.sigs) == 0:
		// A creator signed at least the mint's creation: an empty
		// history means the node does not keep it.
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: the node returned no transactions for the creator (history not kept); creator transaction count unknown")
	case len(history.sigs) >= signaturePageSize:
		f.Warnings.Deployer = append(f.Warnings.Deployer, fmt.Sprintf("deployer: creator has at least %d transactions; exact count not established", signaturePageSize))
	default:
		n := len(history.sigs)
		cr.TxCount = &n
		if n > 0 {
			cr.FirstActivity = history.sigs[n-1].BlockTime
			slot := history.sigs[n-1].Slot
			c.creatorFirstSlot = &slot
		}
	}
	if cr.BalanceLamports == nil {
		f.Uncheck(risk.CheckDeployer)
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: creator balance unknown")
	}
	f.Creator = cr
}
