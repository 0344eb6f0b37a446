package analysis

// CreatorAddress implements scan.CreatorEvidence: the creator the
// deployer analysis established (explorer or inferred), if any.
func (e EVMDeployerEvidence) CreatorAddress() string { return deref(e.Creator) }

// CreatorLaunches implements scan.LaunchesEvidence: the creator's other
// deployments the explorer listed (nil without an explorer).
func (e EVMDeployerEvidence) CreatorLaunches() []string { return e.OtherLaunches }

// CreatorAddress implements scan.CreatorEvidence: the mint's creator
// (first authority, curve or metadata update authority), if known.
func (e SolanaDeployerEvidence) CreatorAddress() string { return deref(e.Creator) }

// CreatorKeys implements scan.CreatorKeysEvidence: the keys the
// creator's record keeps the mint under. The creator is the one a
// creation proves (the bonding curve's creator, the first transaction's
// fee payer); else the mint authority when a wallet or multisig holds it
// (whoever can mint is who made the token, to the record); else the
// metadata update authority. A metadata update authority beside a proven
// creator is not a key: launchpads hold one authority over thousands of
// unrelated mints. The pool creator is the first pool's that its state
// records.
func (e SolanaDeployerEvidence) CreatorKeys() (creator, poolCreator string) {
	var mintAuthority, updateAuthority string
	for _, c := range e.CreatorCandidates {
		switch c.Source {
		case SolanaCreatorBondingCurve, SolanaCreatorFeePayer:
			if creator == "" {
				creator = c.Address
			}
		case SolanaIdentityMintAuthority:
			mintAuthority = c.Address
		case SolanaCreatorUpdateAuthority:
			updateAuthority = c.Address
		case SolanaIdentityPoolCreator:
			if poolCreator == "" {
				poolCreator = c.Address
			}
		}
	}
	switch {
	case creator != "":
	case mintAuthority != "":
		creator = mintAuthority
	default:
		creator = updateAuthority
	}
	return creator, poolCreator
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
