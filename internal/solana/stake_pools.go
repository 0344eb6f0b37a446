package solana

import (
	"fmt"
)

// stakePoolMintOffset is where an SPL stake pool keeps its pool mint:
// account type (1), manager, staker, stake deposit authority (32 each),
// withdraw bump (1), validator list and reserve stake (32 each).
const stakePoolMintOffset = 162

// stakePoolAccountType is AccountType::StakePool.
const stakePoolAccountType = 1

// stakePoolSearch is a getProgramAccounts call for the stake pools of a
// program that issue the mint.
type stakePoolSearch struct {
	prog namedProgram
	out  []programAccount
	call *Call
}

// derivation is an authority proven to be an address a configured
// program derived, with the role it plays there.
type derivation struct {
	program PublicKey
	role    string
}

// stakePoolSearches asks, in round trip 2, each configured stake pool
// program for the pools whose pool mint is the mint (one call each, the
// data sliced to the pool mint), when the mint authority is off the
// curve: the way to prove it is a pool's withdraw authority.
func (c *collector) stakePoolSearches() []*stakePoolSearch {
	a := c.mintData.MintAuthority
	if a == nil || IsOnCurve(*a) || c.facts.Trusted != "" {
		return nil
	}
	var out []*stakePoolSearch
	for _, p := range c.cfg.stakePools {
		s := &stakePoolSearch{prog: p}
		s.call = programAccountsCall(p.program, 0, []memcmp{{0, []byte{stakePoolAccountType}}, {stakePoolMintOffset, c.mint[:]}}, &s.out)
		s.call.Params[1].(map[string]any)["dataSlice"] = map[string]any{"offset": stakePoolMintOffset, "length": 32}
		out = append(out, s)
	}
	return out
}

// attributeStakePools records the mint authority as a stake pool's
// withdraw authority when one of the pools found derives it (PDA [pool,
// "withdraw"] of the program); the pool's own bytes must name the mint.
func (c *collector) attributeStakePools(searches []*stakePoolSearch) {
	a := c.mintData.MintAuthority
	for _, s := range searches {
		if s.call.Err != nil {
			c.facts.Warnings.Contract = append(c.facts.Warnings.Contract, fmt.Sprintf("contract: the %s pools of the mint could not be searched: %s; its off-curve mint authority stays unattributed", s.prog.name, describe(s.call.Err)))
			continue
		}
		for _, pa := range s.out {
			pool, err := ParsePublicKey(pa.Pubkey)
			if err != nil {
				continue
			}
			acc, err := pa.Account.decode()
			if err != nil || acc.Owner != s.prog.program || len(acc.Data) != 32 || PublicKey(acc.Data) != c.mint {
				continue
			}
			k, _, err := FindProgramAddress([][]byte{pool[:], []byte("withdraw")}, s.prog.program)
			if err != nil || k != *a {
				continue
			}
			if c.derived == nil {
				c.derived = map[PublicKey]derivation{}
			}
			c.derived[k] = derivation{program: s.prog.program, role: "withdraw authority of " + s.prog.name + " pool " + pool.String()}
			return
		}
	}
}
