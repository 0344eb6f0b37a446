// Package contracts embeds the compiled Solidity artifacts (ABI, creation
// and runtime bytecode) of the devnet AMM, its token zoo, the lens and the
// simulator, so Go code needs no Solidity toolchain.
package contracts

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

//go:embed artifacts/*.json
var artifacts embed.FS

// ErrUnknown is returned by Artifact for a name with no committed artifact.
var ErrUnknown = errors.New("contracts: unknown contract")

// Compiled is one compiled contract.
type Compiled struct {
	// Name is the Solidity contract name (the artifact's file name).
	Name string
	// Source is the source unit it came from, e.g. "src/amm/V2Pair.sol".
	Source string
	// ABI is the parsed contract ABI.
	ABI abi.ABI
	// Bytecode is the creation bytecode (constructor arguments not included).
	Bytecode []byte
	// DeployedBytecode is the runtime bytecode, e.g. for a state override.
	DeployedBytecode []byte
	// EVMVersion is the EVM version it was compiled for ("shanghai").
	EVMVersion string
}

// file is the artifact JSON written by compile.js.
type file struct {
	ContractName     string          `json:"contractName"`
	SourceName       string          `json:"sourceName"`
	EVMVersion       string          `json:"evmVersion"`
	ABI              json.RawMessage `json:"abi"`
	Bytecode         string          `json:"bytecode"`
	DeployedBytecode string          `json:"deployedBytecode"`
}

// Artifact returns the compiled contract called name (case-sensitive).
func Artifact(name string) (Compiled, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return Compiled{}, fmt.Errorf("%w: %q", ErrUnknown, name)
	}
	data, err := artifacts.ReadFile(path.Join("artifacts", name+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return Compiled{}, fmt.Errorf("%w: %q", ErrUnknown, name)
	}
	if err != nil {
		return Compiled{}, fmt.Errorf("contracts: read %s: %w", name, err)
	}
	return parse(data)
}

// Names lists every embedded contract, sorted.
func Names() []string {
	entries, err := artifacts.ReadDir("artifacts")
	if err != nil {
		return nil // the directory is embedded; it cannot be missing
	}
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func parse(data []byte) (Compiled, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return Compiled{}, fmt.Errorf("contracts: decode artifact: %w", err)
	}
	parsed, err := abi.JSON(strings.NewReader(string(f.ABI)))
	if err != nil {
		return Compiled{}, fmt.Errorf("contracts: %s: abi: %w", f.ContractName, err)
	}
	code, err := hexutil.Decode(f.Bytecode)
	if err != nil {
		return Compiled{}, fmt.Errorf("contracts: %s: bytecode: %w", f.ContractName, err)
	}
	runtime, err := hexutil.Decode(f.DeployedBytecode)
	if err != nil {
		return Compiled{}, fmt.Errorf("contracts: %s: deployed bytecode: %w", f.ContractName, err)
	}
	return Compiled{
		Name:             f.ContractName,
		Source:           f.SourceName,
		ABI:              parsed,
		Bytecode:         code,
		DeployedBytecode: runtime,
		EVMVersion:       f.EVMVersion,
	}, nil
}
