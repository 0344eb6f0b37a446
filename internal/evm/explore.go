package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"context"
	"sync"

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
	// historyFailed says the creation record or the creator's launches
	// were asked for and not answered (an explorer error or the deadline).
	historyFailed bool
	warnings      []string
}

// explore asks the explorers, side by side: Sourcify's and the
// Etherscan-family verification, and the creation record followed by the
// creator's other launches (two explorer round trips in all).
func (a *Adapter) explore(ctx context.Context, ch chains.Chain, token common.Address) explorerFacts {
	var f explorerFacts
	id := ch.ChainID
	if ch.ExplorerChainID != 0 {
		id = ch.ExplorerChainID
	}
	addr := token.Hex()
	if a.opts.Sourcify == nil && a.opts.Etherscan == nil {
		f.warnings = append(f.warnings, "deployer: no explorer configured; creator history unknown")
		return f
	}

	type answer struct {
		v   explorer.Verification
		err error
	}
	var srcAns, esAns *answer
	var creation explorerFacts
	var wg sync.WaitGroup
	if a.opts.Sourcify != nil {
		srcAns = &answer{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			srcAns.v, srcAns.err = a.opts.Sourcify.Verification(ctx, id, addr)
		}()
	}
	if a.opts.Etherscan != nil {
		esAns = &answer{}
		wg.Add(2)
		go func() {
			defer wg.Done()
			esAns.v, esAns.err = a.opts.Etherscan.Verification(ctx, id, addr)
		}()
		go func() {
			defer wg.Done()
			creation = a.creatorHistory(ctx, id, addr)
		}()
	}
	wg.Wait()

	// Verified when either explorer has the source; not verified only when
	// every configured explorer answered no.
	answered, allNo := 0, true
	for _, ans := range []struct {
		a    *answer
		name string
	}{{srcAns, "sourcify"}, {esAns, "etherscan"}} {
		switch {
		case ans.a == nil:
		case ans.a.err != nil:
			allNo = false
			f.warnings = append(f.warnings, "contract: "+ans.name+" did not answer the verification query ("+node.SafeErr(ans.a.err)+")")
		case ans.a.v.Verified:
			t := true
			f.verified, f.verifiedSource = &t, ans.name
			answered++
		default:
			answered++
		}
	}
	if f.verified == nil && answered > 0 && allNo {
		no := false
		f.verified, f.verifiedSource = &no, "sourcify+etherscan"
		if esAns == nil {
			f.verifiedSource = "sourcify"
		} else if srcAns == nil {
			f.verifiedSource = "etherscan"
		}
	}

	if a.opts.Etherscan == nil {
		f.warnings = append(f.warnings, "deployer: no Etherscan-family key configured; creator history unknown")
		return f
	}
	f.creation, f.launches, f.launchesKnown = creation.creation, creation.launches, creation.launchesKnown
	f.historyFailed = creation.historyFailed
	f.warnings = append(f.warnings, creation.warnings...)
	return f
}

// creatorHistory reads the creation record, then the creator's launches.
func (a *Adapter) creatorHistory(ctx context.Context, id int64, addr string) explorerFacts {
	var f explorerFacts
	c, ok, err := a.opts.Etherscan.Creation(ctx, id, addr)
	switch {
	case err != nil:
		f.historyFailed = true
		f.warnings = append(f.warnings, "deployer: the explorer did not answer the creation query ("+node.SafeErr(err)+")")
		return f
	case !ok:
		f.warnings = append(f.warnings, "deployer: the explorer has no creation record for the token")
		return f
	}
	f.creation = &c
	l, err := a.opts.Etherscan.Launches(ctx, id, c.Creator, addr, 200)
	if err != nil {
		f.historyFailed = true
		f.warnings = append(f.warnings, "deployer: the explorer did not list the creator's transactions ("+node.SafeErr(err)+")")
		return f
	}
	f.launches, f.launchesKnown = l, true
	return f
}
