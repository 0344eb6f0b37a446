package evm

import (
	"context"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/explorer"
)

// explorerFacts is what the explorers said.
type explorerFacts struct {
	verified       *bool
	verifiedSource string
	creation       *explorer.Creation
	launches       []string
	launchesKnown  bool
	warnings       []string
}

func (a *Adapter) explore(ctx context.Context, ch chains.Chain, token common.Address) explorerFacts {
	var f explorerFacts
	id := ch.ChainID
	if ch.ExplorerChainID != 0 {
		id = ch.ExplorerChainID
	}
	addr := token.Hex()
	if a.opts.Sourcify != nil {
		v, err := a.opts.Sourcify.Verification(ctx, id, addr)
		switch {
		case err != nil:
			f.warnings = append(f.warnings, "contract: Sourcify did not answer ("+safeErr(err)+")")
		case v.Verified:
			t := true
			f.verified, f.verifiedSource = &t, "sourcify"
		case a.opts.Etherscan == nil:
			no := false
			f.verified, f.verifiedSource = &no, "sourcify"
		}
	}
	if a.opts.Etherscan == nil {
		if a.opts.Sourcify == nil {
			f.warnings = append(f.warnings, "deployer: no explorer configured; creator history unknown")
		} else {
			f.warnings = append(f.warnings, "deployer: no Etherscan-family key configured; creator history unknown")
		}
		return f
	}
	if f.verified == nil || !*f.verified {
		v, err := a.opts.Etherscan.Verification(ctx, id, addr)
		if err != nil {
			f.warnings = append(f.warnings, "contract: the explorer did not answer the verification query ("+safeErr(err)+")")
		} else {
			f.verified, f.verifiedSource = &v.Verified, "etherscan"
		}
	}
	c, ok, err := a.opts.Etherscan.Creation(ctx, id, addr)
	switch {
	case err != nil:
		f.warnings = append(f.warnings, "deployer: the explorer did not answer the creation query ("+safeErr(err)+")")
		return f
	case !ok:
		f.warnings = append(f.warnings, "deployer: the explorer has no creation record for the token")
		return f
	}
	f.creation = &c
	l, err := a.opts.Etherscan.Launches(ctx, id, c.Creator, addr, 200)
	if err != nil {
		f.warnings = append(f.warnings, "deployer: the explorer did not list the creator's transactions ("+safeErr(err)+")")
		return f
	}
	f.launches, f.launchesKnown = l, true
	return f
}
