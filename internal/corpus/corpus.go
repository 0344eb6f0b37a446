// Package corpus gives real tokens' runtime bytecode a state on the devnet
// (owner, balances, supply, a V2 pool against WETH), runs the EVM engine
// on each and measures its verdicts against hand-checked labels.
package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/tokenrisk/tokenrisk/internal/evm"
)

// The behaviours the corpus labels.
const (
	Mint  = "mint"
	Leak  = "leak"
	Limit = "limit"
)

// Behaviours lists the labelled behaviours in report order.
var Behaviours = []string{Mint, Leak, Limit}

// Token is one corpus entry: its mainnet address, runtime code and labels
// (nil for an unlabelled token).
type Token struct {
	Address common.Address
	Code    []byte
	// Labels maps a behaviour to true (present), false (a near miss:
	// flagged upstream but not really there) or nil (unknown).
	Labels map[string]*bool
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

// Load reads the corpus in dir: labelled.json, then unlabelled.json (each
// optional), with every token's code.
func Load(dir string) ([]Token, error) {
	var out []Token
	found := false
	for _, name := range []string{"labelled.json", "unlabelled.json"} {
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
			raw, err := os.ReadFile(filepath.Join(dir, e.CodeFile))
			if err != nil {
				return nil, fmt.Errorf("corpus: %s: %w", e.Address, err)
			}
			code, err := hexutil.Decode(strings.TrimSpace(string(raw)))
			if err != nil {
				return nil, fmt.Errorf("corpus: %s: code: %w", e.Address, err)
			}
			out = append(out, Token{Address: common.HexToAddress(e.Address), Code: code, Labels: e.Labels})
		}
	}
	if !found {
		return nil, fmt.Errorf("corpus: no labelled.json or unlabelled.json in %s", dir)
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
	r := evm.AnalyseCode(t.Code)
	return r.HasSelector(evm.SelTransfer) || r.MinimalProxyTarget != nil || r.StorageTargetDelegatecall
}
