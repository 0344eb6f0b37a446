package analysis

import (
	"fmt"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// AnalyseSolanaContract reports authorities, extensions and metadata.
func AnalyseSolanaContract(f *SolanaFacts) (scan.Section, []string) {
	warnings := append([]string(nil), f.Warnings.Contract...)
	ev := SolanaContractEvidence{
		TokenProgram:         f.Mint.TokenProgram,
		TokenProgramID:       f.Mint.ProgramID,
		Supply:               f.Mint.Supply,
		Decimals:             f.Mint.Decimals,
		MintAuthority:        f.Mint.MintAuthority,
		FreezeAuthority:      f.Mint.FreezeAuthority,
		Extensions:           make([]SolanaExtension, 0, len(f.Mint.Extensions)),
		ExtensionsIncomplete: f.Mint.ExtensionsIncomplete,
		Metadata:             f.Metadata,
		SourceVerification:   "not_applicable: an SPL mint has no program code of its own; its rules are the token program's and the authorities and extensions below",
	}
	if f.Trusted != "" {
		t := f.Trusted
		ev.TrustedToken = &t
	}
	var flags []risk.Flag
	if a := f.Mint.MintAuthority; a != nil {
		flags = append(flags, risk.NewFlag(risk.MintAuthorityEnabled, "Mint authority is set", solanaMintAuthorityDetail(f, *a)))
	}
	if a := f.Mint.FreezeAuthority; a != nil {
		flags = append(flags, risk.NewFlag(risk.FreezeAuthorityEnabled, "Freeze authority is set", solanaWho(f, *a)+" can freeze any holder's token account."))
	}
	for _, e := range f.Mint.Extensions {
		switch p := e.Params.(type) {
		case SolanaTransferFeeParams:
			if f.CurrentEpoch != nil {
				cur := p.Older
				if *f.CurrentEpoch >= p.Newer.Epoch {
					cur = p.Newer
				}
				p.Current = &cur
				e.Params = p
			}
			bps := solanaTransferFeeBps(p)
			if bps > 0 || p.ConfigAuthority != nil {
				detail := fmt.Sprintf("Transfers pay %.2f%% (older %d bps, newer %d bps from epoch %d, maximum %d raw units per transfer).", float64(bps)/100, p.Older.BasisPoints, p.Newer.BasisPoints, p.Newer.Epoch, max(p.Older.MaximumFee, p.Newer.MaximumFee))
				if p.ConfigAuthority != nil {
					detail += " " + *p.ConfigAuthority + " can change the fee."
				}
				flags = append(flags, risk.NewFlag(risk.TransferFee, fmt.Sprintf("Transfer fee %.2f%%", float64(bps)/100), detail).WithValue(float64(bps)/100))
			}
		case SolanaTransferHookParams:
			switch {
			case p.ProgramID != nil:
				flags = append(flags, risk.NewFlag(risk.TransferHook, "Transfer hook program is set", "Every transfer calls program "+*p.ProgramID+", which can block it"+solanaHookProgramDetail(f, p)+"."))
			case p.Authority != nil:
				flags = append(flags, risk.NewFlag(risk.TransferHook, "Transfer hook can be set", solanaWho(f, *p.Authority)+" can install a program that runs on every transfer."))
			}
		case SolanaAuthorityParams:
			switch {
			case p.Authority == nil:
				// Revoked: listed as evidence, no flag.
			case e.Name == SolanaExtPermanentDelegate:
				flags = append(flags, risk.NewFlag(risk.PermanentDelegate, "Permanent delegate is set", *p.Authority+" can transfer or burn tokens from any account."))
			case e.Name == SolanaExtMintCloseAuthority:
				flags = append(flags, risk.NewFlag(risk.MintCloseAuthority, "Mint close authority is set", *p.Authority+" can close the mint once supply is zero."))
			}
		case SolanaDefaultAccountStateParams:
			if p.State == "frozen" {
				flags = append(flags, risk.NewFlag(risk.DefaultAccountFrozen, "New token accounts start frozen", "Buyers' token accounts are frozen until the freeze authority thaws them."))
			}
		case SolanaConfidentialTransferParams:
			flags = append(flags, risk.NewFlag(risk.ConfidentialTransfers, "Confidential transfers enabled", "Balances and amounts moved confidentially cannot be audited from the chain."))
		case SolanaPausableParams:
			if p.Paused || p.Authority != nil {
				detail := "Transfers can be paused"
				if p.Authority != nil {
					detail += " by " + *p.Authority
				}
				if p.Paused {
					detail += "; the mint is paused now"
				}
				flags = append(flags, risk.NewFlag(risk.OwnerCanPause, "Token-2022 pausable", detail+"."))
			}
		}
		if e.Name == SolanaExtNonTransferable {
			flags = append(flags, risk.NewFlag(risk.NonTransferable, "Token is non-transferable", "The Token-2022 non-transferable extension forbids every transfer: holders can never sell."))
		}
		ev.Extensions = append(ev.Extensions, e)
	}
	solanaWhoCanChange(f, &ev, &warnings)
	status := scan.Complete
	if f.Mint.ExtensionsIncomplete {
		status = scan.Partial
	}
	switch {
	case !f.MetadataKnown:
		status = scan.Partial
	case f.Metadata == nil:
		warnings = append(warnings, "contract: the mint has no metadata (no Token-2022 metadata, no Metaplex account)")
	case f.Metadata.IsMutable != nil && *f.Metadata.IsMutable:
		by := "its update authority"
		if f.Metadata.UpdateAuthority != nil {
			by = *f.Metadata.UpdateAuthority
		}
		if f.Metadata.UpdateAuthority != nil {
			by = solanaWho(f, by)
		}
		flags = append(flags, risk.NewFlag(risk.MetadataMutable, "Metadata is mutable", "Name, symbol and URI can be changed by "+by+"."))
	}
	if f.Trusted != "" {
		flags = append(flags, risk.NewFlag(risk.TrustedToken, "Trusted token: "+f.Trusted, "A configured trusted token: its capability flags stay, its level is capped at low."))
	}
	warnings = append(warnings, "contract: source verification does not apply to SPL mints, so verified is false")
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// solanaWhoCanChange fills who can change the hook, the fee, the default
// account state and the metadata.
func solanaWhoCanChange(f *SolanaFacts, ev *SolanaContractEvidence, warnings *[]string) {
	ev.Authorities = map[string]SolanaAuthority{}
	for _, a := range f.AuthorityAddresses() {
		if l, ok := f.Authorities[a]; ok {
			ev.Authorities[a] = l
		}
	}
	no := false
	ev.TransferHookUpgradable = &no
	for _, e := range f.Mint.Extensions {
		switch p := e.Params.(type) {
		case SolanaTransferHookParams:
			ev.TransferHookProgram = f.HookProgram
			var up bool
			switch hp := f.HookProgram; {
			case p.Authority != nil:
				up = true
			case p.ProgramID == nil:
			case hp == nil || (hp.Executable && hp.Upgradeable == nil):
				*warnings = append(*warnings, "contract: whether the transfer hook program "+*p.ProgramID+" can be upgraded is not established")
				ev.TransferHookUpgradable = nil
				continue
			default:
				up = hp.Upgradeable != nil && *hp.Upgradeable
			}
			ev.TransferHookUpgradable = &up
		case SolanaTransferFeeParams:
			ev.TransferFeeUpgradable = p.ConfigAuthority != nil
		case SolanaDefaultAccountStateParams:
			ev.DefaultAccountStateUpgradable = f.Mint.FreezeAuthority != nil
		}
	}
	if f.MetadataKnown {
		m := f.Metadata != nil && f.Metadata.IsMutable != nil && *f.Metadata.IsMutable
		ev.MetadataMutable = &m
		if m {
			ev.MetadataUpdateAuthority = f.Metadata.UpdateAuthority
		}
	}
}

// solanaHookProgramDetail says what the hook program is, as read.
func solanaHookProgramDetail(f *SolanaFacts, p SolanaTransferHookParams) string {
	hp := f.HookProgram
	switch {
	case hp == nil || p.ProgramID == nil || hp.Address != *p.ProgramID:
		return ""
	case !hp.Exists:
		return "; no account exists there, so every transfer fails"
	case !hp.Executable:
		return "; the account there is not executable, so every transfer fails"
	case hp.Upgradeable != nil && *hp.Upgradeable && hp.UpgradeAuthority != nil:
		return "; the program is upgradeable by " + solanaWho(f, *hp.UpgradeAuthority)
	case hp.Upgradeable != nil && !*hp.Upgradeable:
		return "; the program can no longer be upgraded"
	}
	return ""
}
