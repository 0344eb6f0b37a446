package evm

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
)

// testChain is a simulated go-ethereum node reachable over real HTTP
// JSON-RPC, with one funded key.
type testChain struct {
	backend *simulated.Backend
	url     string
	key     *ecdsa.PrivateKey
	from    common.Address
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// newTestChain starts a simulated chain with an HTTP endpoint.
func newTestChain(t *testing.T) *testChain {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	port := freePort(t)
	cfg := *params.AllDevChainProtocolChanges
	cfg.BogotaTime = nil
	alloc := types.GenesisAlloc{from: {Balance: new(big.Int).Mul(big.NewInt(1e18), big.NewInt(1e6))}}
	b := simulated.NewBackend(alloc, func(nc *node.Config, ec *ethconfig.Config) {
		nc.HTTPHost = "127.0.0.1"
		nc.HTTPPort = port
		nc.HTTPModules = []string{"eth", "net", "web3"}
		nc.HTTPVirtualHosts = []string{"*"}
		ec.Genesis.Config = &cfg
	})
	t.Cleanup(func() { b.Close() })
	return &testChain{backend: b, url: fmt.Sprintf("http://127.0.0.1:%d", port), key: key, from: from}
}

func jsonDecode(r *http.Request, v any) error { return json.NewDecoder(r.Body).Decode(v) }
