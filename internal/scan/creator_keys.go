package scan

// CreatorEvidence is deployer evidence that names the token's creator
// (the analyses' deployer evidence implements it).
type CreatorEvidence interface {
	CreatorAddress() string
}

// CreatorKeysEvidence is deployer evidence that chooses, among several
// addresses tied to the token's making, the keys the creator's record
// keeps it under (Solana: creator, mint authority, metadata update
// authority, pool creator).
type CreatorKeysEvidence interface {
	CreatorKeys() (creator, poolCreator string)
}

// LaunchesEvidence is deployer evidence listing the creator's other
// deployments an explorer returned (nil when none was asked).
type LaunchesEvidence interface {
	CreatorLaunches() []string
}

// CreatorKeys are deployer_analysis.creator_keys: the addresses the
// creator's record keeps the token under and was read by ("" when
// unknown). A pool creator links one way only (see store.RelatedQuery).
type CreatorKeys struct {
	Creator     string `json:"creator"`
	PoolCreator string `json:"pool_creator"`
}

func creatorKeysOf(ev any) CreatorKeys {
	if c, ok := ev.(CreatorKeysEvidence); ok {
		var k CreatorKeys
		k.Creator, k.PoolCreator = c.CreatorKeys()
		return k
	}
	if c, ok := ev.(CreatorEvidence); ok {
		return CreatorKeys{Creator: c.CreatorAddress()}
	}
	return CreatorKeys{}
}

func launchesOf(ev any) []string {
	if l, ok := ev.(LaunchesEvidence); ok {
		return l.CreatorLaunches()
	}
	return nil
}
