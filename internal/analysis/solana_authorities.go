package analysis

import (
	"fmt"
	"slices"
)

// Kinds of the account behind an authority.
const (
	// SolanaAuthorityWallet: an address on the ed25519 curve, whose key
	// holder signs alone.
	SolanaAuthorityWallet = "wallet"
	// SolanaAuthorityMultisig: an SPL Token multisig (m of n signers).
	SolanaAuthorityMultisig = "multisig"
	// SolanaAuthorityProgram: an executable account.
	SolanaAuthorityProgram = "program"
	// SolanaAuthorityPDA: a program-derived address (off the curve): no
	// key exists; only the program that derived it signs, under its own
	// rules (a stake pool mints against deposits).
	SolanaAuthorityPDA = "pda"
)

// SolanaAuthority labels the account behind an authority address.
type SolanaAuthority struct {
	Kind string `json:"kind"`
	// Owner is the program owning the authority's account when it exists
	// and is not a plain system account (for a PDA, usually the program
	// that derived it).
	Owner *string `json:"owner"`
	// Program is the program proven to have derived a PDA (a configured
	// authority program: the PDA's derivation from its account checked),
	// and Role what the PDA is there ("withdraw authority of SPL Stake
	// Pool pool …").
	Program *string `json:"program,omitempty"`
	Role    string  `json:"role,omitempty"`
	// SignersRequired and Signers are a multisig's m and n.
	SignersRequired *int `json:"signers_required,omitempty"`
	Signers         *int `json:"signers,omitempty"`
}

// SolanaProgram is a program the mint calls (its transfer hook), read from
// its account and, for the upgradeable loader, its program-data account.
type SolanaProgram struct {
	Address string `json:"address"`
	// Exists and Executable say whether an executable account is there: a
	// hook program that is not executable makes every transfer fail.
	Exists     bool   `json:"exists"`
	Executable bool   `json:"executable"`
	Loader     string `json:"loader"`
	// Upgradeable is true when its upgrade authority is set (by
	// UpgradeAuthority); nil when not established.
	Upgradeable      *bool   `json:"upgradeable"`
	UpgradeAuthority *string `json:"upgrade_authority"`
}

// AuthorityAddresses lists every authority the mint names (mint, freeze,
// each extension's, the metadata update authority), each once, in that
// order.
func (f *SolanaFacts) AuthorityAddresses() []string {
	var out []string
	add := func(p *string) {
		if p != nil && *p != "" && !slices.Contains(out, *p) {
			out = append(out, *p)
		}
	}
	add(f.Mint.MintAuthority)
	add(f.Mint.FreezeAuthority)
	for _, e := range f.Mint.Extensions {
		switch p := e.Params.(type) {
		case SolanaTransferFeeParams:
			add(p.ConfigAuthority)
			add(p.WithdrawAuthority)
		case SolanaAuthorityParams:
			add(p.Authority)
		case SolanaConfidentialTransferParams:
			add(p.Authority)
		case SolanaInterestBearingParams:
			add(p.RateAuthority)
		case SolanaScaledUIAmountParams:
			add(p.Authority)
		case SolanaTransferHookParams:
			add(p.Authority)
		case SolanaPointerParams:
			add(p.Authority)
		case SolanaPausableParams:
			add(p.Authority)
		case SolanaConfidentialTransferFeeParams:
			add(p.Authority)
		case SolanaTokenGroupParams:
			add(p.UpdateAuthority)
		}
	}
	if f.Metadata != nil {
		add(f.Metadata.UpdateAuthority)
	}
	return out
}

// solanaWho names an authority with its label for a flag's text: "X (a
// wallet)", "X (a 2-of-3 multisig)", "X (a program-derived address of
// program P)"; the bare address when it was not read.
func solanaWho(f *SolanaFacts, addr string) string {
	a, ok := f.Authorities[addr]
	if !ok {
		return addr
	}
	switch a.Kind {
	case SolanaAuthorityWallet:
		return addr + " (a wallet)"
	case SolanaAuthorityMultisig:
		if a.SignersRequired != nil && a.Signers != nil {
			return fmt.Sprintf("%s (a %d-of-%d multisig)", addr, *a.SignersRequired, *a.Signers)
		}
		return addr + " (a multisig)"
	case SolanaAuthorityProgram:
		return addr + " (a program)"
	case SolanaAuthorityPDA:
		if a.Role != "" {
			return addr + " (the " + a.Role + ")"
		}
		if a.Owner != nil {
			return addr + " (a program-derived address of program " + *a.Owner + ")"
		}
		return addr + " (a program-derived address)"
	}
	return addr
}

// solanaMintAuthorityDetail is MINT_AUTHORITY_ENABLED's text: who can mint
// and under which rules, by the authority's label.
func solanaMintAuthorityDetail(f *SolanaFacts, addr string) string {
	a, ok := f.Authorities[addr]
	switch {
	case !ok:
		return addr + " can mint new tokens (what holds that authority was not read)."
	case a.Kind == SolanaAuthorityWallet:
		return solanaWho(f, addr) + " can mint new tokens at will."
	case a.Kind == SolanaAuthorityMultisig:
		return solanaWho(f, addr) + " can mint new tokens when enough of its signers agree."
	case a.Kind == SolanaAuthorityPDA && a.Program != nil:
		return solanaWho(f, addr) + " holds the mint authority: no key holder mints at will; program " + *a.Program + " mints under its own rules, and they change if that program is upgraded."
	case a.Kind == SolanaAuthorityPDA:
		return solanaWho(f, addr) + " holds the mint authority: no key holder mints at will; the program that derived it mints under its own rules (a stake pool mints against deposits), and they change if that program is upgraded."
	}
	return solanaWho(f, addr) + " holds the mint authority: it mints under its own rules."
}

// SolanaIdentity is an address tied to who made the token, with how it
// is tied (a SolanaCreator* source, "mint_authority" or "pool_creator").
type SolanaIdentity struct {
	Address string `json:"address"`
	Source  string `json:"source"`
}

// Identity sources beside the creator's.
const (
	SolanaIdentityMintAuthority = "mint_authority"
	SolanaIdentityPoolCreator   = "pool_creator"
)

// CreatorCandidates are the addresses tied to who made the token, for the
// creator's record across scans (package reputation): the creator found
// (bonding curve, first transaction's fee payer, metadata update
// authority), the mint's current mint authority when it is a wallet or
// not read, the metadata update authority, and each pool's recorded
// creator; each address once, in that order.
func (f *SolanaFacts) CreatorCandidates() []SolanaIdentity {
	var out []SolanaIdentity
	add := func(addr *string, source string) {
		if addr == nil || *addr == "" || slices.ContainsFunc(out, func(i SolanaIdentity) bool { return i.Address == *addr }) {
			return
		}
		out = append(out, SolanaIdentity{Address: *addr, Source: source})
	}
	if f.Creator != nil {
		add(&f.Creator.Address, f.Creator.Source)
	}
	if a := f.Mint.MintAuthority; a != nil {
		// A program-derived authority (a stake pool's) is no one's
		// identity.
		if l, ok := f.Authorities[*a]; !ok || l.Kind == SolanaAuthorityWallet || l.Kind == SolanaAuthorityMultisig {
			add(a, SolanaIdentityMintAuthority)
		}
	}
	if f.Metadata != nil {
		add(f.Metadata.UpdateAuthority, SolanaCreatorUpdateAuthority)
	}
	for _, p := range f.Liquidity.Pools {
		if p.Creator != "" {
			c := p.Creator
			add(&c, SolanaIdentityPoolCreator)
		}
	}
	return out
}
