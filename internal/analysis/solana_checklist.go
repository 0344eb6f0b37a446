package analysis

import (
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// SolanaChecklist fills the safety checklist; each entry is true only
// where the facts prove it:
//   - verified: never (SPL mints have no source to verify);
//   - not_honeypot: the mint has no way to block transfers (no freeze
//     authority, hook, permanent delegate, pause, non-transferable or
//     frozen default state, no transfer fee of 50% or more; extensions
//     fully read) and there is somewhere to sell (a pool with quote
//     reserves or an active bonding curve);
//   - healthy_holders: top-10 share established and at most 50%, no whale,
//     not provably few holders, and the insider check conclusive without
//     INSIDER_SUPPLY;
//   - ownership_renounced: no mint, freeze or extension authority remains
//     and the metadata is known and immutable (or absent);
//   - liquidity_locked: at least 90% of the main pool's LP is burned or
//     held by a configured locker, or the liquidity sits on an active
//     pump.fun curve that no one can withdraw;
//   - no_mint: the mint authority is revoked.
func SolanaChecklist(f *SolanaFacts) scan.Checklist {
	var c scan.Checklist
	c.NoMint = f.Mint.MintAuthority == nil
	c.OwnershipRenounced = c.NoMint && f.Mint.FreezeAuthority == nil && !f.Mint.ExtensionsIncomplete &&
		f.MetadataKnown && (f.Metadata == nil || (f.Metadata.IsMutable != nil && !*f.Metadata.IsMutable)) &&
		!solanaExtensionAuthority(f)
	c.NotHoneypot = solanaTransferable(f) && solanaSellable(f)
	if f.Holders != nil && f.Mint.Supply > 0 {
		hs, _ := AnalyseSolanaHolders(f)
		ev := hs.Evidence.(SolanaHolderEvidence)
		c.HealthyHolders = ev.Top10SharePct != nil && hs.Status == scan.Complete &&
			(f.Trusted != "" || ev.Insiders != nil && ev.Insiders.Conclusive)
		for _, fl := range hs.Flags {
			if fl.Code == risk.Top10Concentrated || fl.Code == risk.WhaleHolder || fl.Code == risk.FewHolders || fl.Code == risk.InsiderSupply {
				c.HealthyHolders = false
			}
		}
	}
	if bc := f.Liquidity.BondingCurve; bc != nil && !bc.Complete {
		c.LiquidityLocked = true
	} else if ls, _ := AnalyseSolanaLiquidity(f, time.Time{}); ls.Evidence != nil {
		ev := ls.Evidence.(SolanaLiquidityEvidence)
		c.LiquidityLocked = len(ev.Pools) > 0 && (ev.Pools[0].LPBurnedPct != nil || ev.Pools[0].LPLockedPct != nil) && solanaLPSafePct(ev.Pools[0]) >= risk.LPLockedEnoughPct
	}
	return c
}

// solanaExtensionAuthority reports whether any extension keeps an
// authority that can change how the token behaves.
func solanaExtensionAuthority(f *SolanaFacts) bool {
	for _, e := range f.Mint.Extensions {
		switch p := e.Params.(type) {
		case SolanaTransferFeeParams:
			if p.ConfigAuthority != nil {
				return true
			}
		case SolanaAuthorityParams:
			if p.Authority != nil {
				return true
			}
		case SolanaTransferHookParams:
			if p.Authority != nil || p.ProgramID != nil {
				return true
			}
		case SolanaPausableParams:
			if p.Authority != nil {
				return true
			}
		case SolanaInterestBearingParams:
			if p.RateAuthority != nil {
				return true
			}
		case SolanaScaledUIAmountParams:
			if p.Authority != nil {
				return true
			}
		case SolanaConfidentialTransferParams:
			if p.Authority != nil {
				return true
			}
		case SolanaPointerParams:
			if p.Authority != nil && e.Name == SolanaExtMetadataPointer {
				return true
			}
		}
		if e.Name == SolanaExtTokenMetadata && f.Metadata != nil && f.Metadata.UpdateAuthority != nil {
			return true
		}
	}
	return false
}

// solanaTransferable reports whether nothing in the mint can block a
// holder's transfer.
func solanaTransferable(f *SolanaFacts) bool {
	if f.Mint.FreezeAuthority != nil || f.Mint.ExtensionsIncomplete {
		return false
	}
	for _, e := range f.Mint.Extensions {
		switch p := e.Params.(type) {
		case SolanaTransferHookParams:
			if p.ProgramID != nil || p.Authority != nil {
				return false
			}
		case SolanaAuthorityParams:
			if e.Name == SolanaExtPermanentDelegate && p.Authority != nil {
				return false
			}
		case SolanaPausableParams:
			if p.Paused || p.Authority != nil {
				return false
			}
		case SolanaDefaultAccountStateParams:
			if p.State != "initialized" {
				return false
			}
		case SolanaTransferFeeParams:
			// A fee of half or more takes most of every sale.
			if float64(max(p.Older.BasisPoints, p.Newer.BasisPoints))/100 >= risk.TaxExtremePct {
				return false
			}
		case SolanaRawParams:
			// An extension we cannot read might restrict transfers.
			return false
		}
		if e.Name == SolanaExtNonTransferable {
			return false
		}
	}
	return true
}

// solanaSellable reports whether a venue with quote liquidity exists.
func solanaSellable(f *SolanaFacts) bool {
	if bc := f.Liquidity.BondingCurve; bc != nil && !bc.Complete && bc.RealSOLReserves > 0 {
		return true
	}
	for _, p := range f.Liquidity.Pools {
		if p.QuoteReserve != nil && *p.QuoteReserve > 0 && p.TokenReserve != nil && *p.TokenReserve > 0 {
			return true
		}
	}
	return false
}
