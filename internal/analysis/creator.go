package analysis

// CreatorAddress implements scan.CreatorEvidence: the creator the
// deployer analysis established (explorer or inferred), if any.
func (e EVMDeployerEvidence) CreatorAddress() string { return deref(e.Creator) }

// CreatorAddress implements scan.CreatorEvidence: the mint's creator
// (first authority, curve or metadata update authority), if known.
func (e SolanaDeployerEvidence) CreatorAddress() string { return deref(e.Creator) }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
