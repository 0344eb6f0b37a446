// Package corpus gives real tokens' runtime bytecode a state on the devnet
// (owner, balances, supply, a V2 pool against WETH), runs the EVM engine
// on each and measures its verdicts against hand-checked labels.
package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// The behaviours the corpus labels.
const (
	Mint  = "mint"
	Leak  = "leak"
	Limit = "limit"
)

// Behaviours lists the labelled behaviours in report order.
var Behaviours = []string{Mint, Leak, Limit}

// The backdoor powers backdoors.json labels (positives only).
const (
	PowerMint      = "mint"
	PowerBlacklist = "blacklist"
	PowerPause     = "pause"
	PowerSeize     = "seize"
)

// Powers lists the backdoor powers in report order.
var Powers = []string{PowerMint, PowerBlacklist, PowerPause, PowerSeize}

// Token is one corpus entry: its mainnet address, runtime code and labels
// (nil for an unlabelled token).
type Token struct {
	Address common.Address
	Code    []byte
	// Labels maps a behaviour to true (present), false (a near miss:
	// flagged upstream but not really there) or nil (unknown).
	Labels map[string]*bool
	// Powers maps a backdoor power (backdoors.json) to true (the study
	// confirmed it) or nil (unknown); it has no false: it measures
	// recall only.
	Powers map[string]*bool
}

// Backdoor says whether the token carries at least one backdoor power.
func (t Token) Backdoor() bool {
	for _, v := range t.Powers {
		if v != nil && *v {
			return true
		}
	}
	return false
}

// Labelled says whether the token carries at least one known label.
func (t Token) Labelled() bool {
	for _, v := range t.Labels {
		if v != nil {
			return true
		}
	}
	return false
}

type entry struct {
	Address  string           `json:"address"`
	Labels   map[string]*bool `json:"labels"`
	CodeFile string           `json:"code_file"`
}

// Load reads the corpus in dir: labelled.json, then unlabelled.json, then
// backdoors.json (each optional), with every token's code. A backdoor
// entry whose address is already listed adds its powers to that token.
func Load(dir string) ([]Token, error) {
	var out []Token
	found := false
	index := map[common.Address]int{}
	for _, name := range []string{"labelled.json", "unlabelled.json", "backdoors.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		found = true
		var entries []entry
		if err := json.Unmarshal(data, &entries); err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", name, err)
		}
		for _, e := range entries {
			if !common.IsHexAddress(e.Address) {
				return nil, fmt.Errorf("corpus: %s: bad address %q", name, e.Address)
			}
			if e.CodeFile == "" || filepath.IsAbs(e.CodeFile) || strings.Contains(e.CodeFile, "..") {
				return nil, fmt.Errorf("corpus: %s: %s: bad code_file %q", name, e.Address, e.CodeFile)
			}
			addr := common.HexToAddress(e.Address)
			labels, powers := e.Labels, map[string]*bool(nil)
			if name == "backdoors.json" {
				labels, powers = nil, e.Labels
				for p, v := range powers {
					if !slices.Contains(Powers, p) || (v != nil && !*v) {
						return nil, fmt.Errorf("corpus: %s: %s: label %q: want a power (%s), true or null", name, e.Address, p, strings.Join(Powers, ", "))
					}
				}
				if i, ok := index[addr]; ok {
					out[i].Powers = powers
					continue
				}
			}
			raw, err := os.ReadFile(filepath.Join(dir, e.CodeFile))
			if err != nil {
				return nil, fmt.Errorf("corpus: %s: %w", e.Address, err)
			}
			code, err := hexutil.Decode(strings.TrimSpace(string(raw)))
			if err != nil {
				return nil, fmt.Errorf("corpus: %s: code: %w", e.Address, err)
			}
			index[addr] = len(out)
			out = append(out, Token{Address: addr, Code: code, Labels: labels, Powers: powers})
		}
	}
	if !found {
		return nil, fmt.Errorf("corpus: no labelled.json, unlabelled.json or backdoors.json in %s", dir)
	}
	return out, nil
}

// CanTransfer says whether the code can be a token a holder sells: its
// dispatcher compares against transfer(address,uint256), or it hands its
// calls to other code (a proxy or clone, whose implementation decides).
// A contract with neither is no ERC-20, whatever the labels say
// (crowdsales, games, vaults, multisigs): the API answers it 422
// not_a_token, so the corpus figures count it apart. The test reads the
// bytecode only, never the engine's answer, so an engine that wrongly
// refuses a token still loses its labels.
func (t Token) CanTransfer() bool {
	r := bytecode.AnalyseCode(t.Code)
	return r.HasSelector(bytecode.SelTransfer) || r.MinimalProxyTarget != nil || r.StorageTargetDelegatecall
}
