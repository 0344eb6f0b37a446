package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/lens"

	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/tokenrisk/tokenrisk/contracts"

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

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// newTestChain starts a simulated chain with an HTTP endpoint.
func newTestChain(t testing.TB) *testChain {
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

// deploy deploys the embedded contract name with constructor args and
// mines it.
func (tc *testChain) deploy(t testing.TB, name string, args ...any) common.Address {
	t.Helper()
	c, err := contracts.Artifact(name)
	if err != nil {
		t.Fatal(err)
	}
	ctorArgs, err := c.ABI.Pack("", args...)
	if err != nil {
		t.Fatalf("pack %s constructor: %v", name, err)
	}
	rcpt := tc.sendTx(t, nil, append(append([]byte(nil), c.Bytecode...), ctorArgs...), nil)
	return rcpt.ContractAddress
}

// transact calls method of the contract name at to, mined.
func (tc *testChain) transact(t testing.TB, name string, to common.Address, value *big.Int, method string, args ...any) *types.Receipt {
	t.Helper()
	c, err := contracts.Artifact(name)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.ABI.Pack(method, args...)
	if err != nil {
		t.Fatalf("pack %s.%s: %v", name, method, err)
	}
	return tc.sendTx(t, &to, data, value)
}

// call reads method of the contract name at to.
func (tc *testChain) call(t testing.TB, name string, to common.Address, method string, args ...any) []any {
	t.Helper()
	c, err := contracts.Artifact(name)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.ABI.Pack(method, args...)
	if err != nil {
		t.Fatalf("pack %s.%s: %v", name, method, err)
	}
	out, err := tc.backend.Client().CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		t.Fatalf("call %s.%s: %v", name, method, err)
	}
	vals, err := c.ABI.Unpack(method, out)
	if err != nil {
		t.Fatalf("unpack %s.%s: %v", name, method, err)
	}
	return vals
}

func (tc *testChain) sendTx(t testing.TB, to *common.Address, data []byte, value *big.Int) *types.Receipt {
	t.Helper()
	ctx := context.Background()
	cl := tc.backend.Client()
	nonce, err := cl.PendingNonceAt(ctx, tc.from)
	if err != nil {
		t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	tx := types.NewTx(&types.DynamicFeeTx{
		ChainID: big.NewInt(1337), Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9),
		Gas: 8_000_000, To: to, Value: value, Data: data,
	})
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(big.NewInt(1337)), tc.key)
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.SendTransaction(ctx, signed); err != nil {
		t.Fatalf("send: %v", err)
	}
	tc.backend.Commit()
	rcpt, err := cl.TransactionReceipt(ctx, signed.Hash())
	if err != nil {
		t.Fatalf("receipt: %v", err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction to %v reverted", to)
	}
	return rcpt
}

// market is a small AMM world on a test chain: WETH, a USD stable, a V2
// factory, a token with a token/WETH pool and a WETH/USD pool.
type market struct {
	weth, usd, factory, token, pair, usdPair common.Address
}

var (
	ether = big.NewInt(1e18)
	dead  = common.HexToAddress("0x000000000000000000000000000000000000dEaD")
)

func mul(a *big.Int, n int64) *big.Int { return new(big.Int).Mul(a, big.NewInt(n)) }

// newMarket deploys the market: 1000 WETH against 1,000,000 tokens, and
// 100 WETH against 300,000 USD (so 1 WETH = 3000 USD); half of the token
// pool's LP is burned to 0xdead.
func newMarket(t testing.TB, tc *testChain) market {
	t.Helper()
	var m market
	m.weth = tc.deploy(t, "WETH")
	m.usd = tc.deploy(t, "StableUSD", mul(big.NewInt(1e6), 1_000_000))
	m.token = tc.deploy(t, "StableUSD", mul(ether, 10_000_000))
	m.factory = tc.deploy(t, "V2Factory", tc.from)
	tc.transact(t, "WETH", m.weth, mul(ether, 1100), "deposit")
	m.pair = m.addPool(t, tc, m.token, mul(ether, 1_000_000), mul(ether, 1000))
	m.usdPair = m.addPool(t, tc, m.usd, mul(big.NewInt(1e6), 300_000), mul(ether, 100))
	lp := tc.call(t, "V2Pair", m.pair, "balanceOf", tc.from)[0].(*big.Int)
	tc.transact(t, "V2Pair", m.pair, nil, "transfer", dead, new(big.Int).Div(lp, big.NewInt(2)))
	return m
}

func (m market) addPool(t testing.TB, tc *testChain, token common.Address, amount, wethAmount *big.Int) common.Address {
	t.Helper()
	tc.transact(t, "V2Factory", m.factory, nil, "createPair", token, m.weth)
	pair := tc.call(t, "V2Factory", m.factory, "getPair", token, m.weth)[0].(common.Address)
	tc.transact(t, "StableUSD", token, nil, "transfer", pair, amount)
	tc.transact(t, "WETH", m.weth, nil, "transfer", pair, wethAmount)
	tc.transact(t, "V2Pair", pair, nil, "mint", tc.from)
	return pair
}

// rpcProxy forwards JSON-RPC to a real node, adding a fixed latency per
// HTTP request, counting requests, and (optionally) refusing eth_getLogs
// pages spanning more than maxLogRange blocks the way providers do.
type rpcProxy struct {
	target      string
	delay       time.Duration
	maxLogRange uint64
	// breakLens makes every lens call (and its fallback) fail.
	breakLens bool
	// breakMethod makes the node answer every call of this method with a
	// JSON-RPC error (method not found).
	breakMethod string
	// logDelay delays eth_getLogs requests only.
	logDelay time.Duration
	// dropOverrides removes eth_call's state overrides, like a node that
	// ignores them.
	dropOverrides bool
	requests      atomic.Int64
	logPages      atomic.Int64
	bytes         atomic.Int64 // request body bytes
	srv           *httptest.Server
}

func newRPCProxy(t testing.TB, target string, delay time.Duration, maxLogRange uint64) *rpcProxy {
	t.Helper()
	p := &rpcProxy{target: target, delay: delay, maxLogRange: maxLogRange}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *rpcProxy) URL() string { return p.srv.URL }

func (p *rpcProxy) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p.requests.Add(1)
	p.bytes.Add(int64(len(body)))
	if p.delay > 0 {
		time.Sleep(p.delay)
	}
	var one struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &one) == nil && one.Method == "eth_getLogs" {
		p.logPages.Add(1)
		time.Sleep(p.logDelay)
		var f struct {
			FromBlock, ToBlock hexutil.Uint64
		}
		if len(one.Params) == 1 && json.Unmarshal(one.Params[0], &f) == nil && p.maxLogRange > 0 && uint64(f.ToBlock-f.FromBlock)+1 > p.maxLogRange {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(one.ID) + `,"error":{"code":-32005,"message":"query returned more than 10000 results"}}`))
			return
		}
	}
	if p.dropOverrides {
		body = dropCallOverrides(body)
	}
	if p.breakLens {
		body = bytes.ReplaceAll(body, []byte(`"method":"eth_call","params":[{"to":"`+strings.ToLower(lens.LensAddress.Hex())),
			[]byte(`"method":"eth_lensBroken","params":[{"to":"`+strings.ToLower(lens.LensAddress.Hex())))
		// and its creation-code fallback (an eth_call without "to").
		body = bytes.ReplaceAll(body, []byte(`"method":"eth_call","params":[{"data":"`), []byte(`"method":"eth_lensBroken","params":[{"data":"`))
	}
	if p.breakMethod != "" {
		body = bytes.ReplaceAll(body, []byte(`"method":"`+p.breakMethod+`"`), []byte(`"method":"`+p.breakMethod+`Broken"`))
	}
	resp, err := http.Post(p.target, "application/json", bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// dropCallOverrides removes every eth_call's parameters after the block
// and every eth_simulateV1 block's state overrides.
func dropCallOverrides(body []byte) []byte {
	var reqs []map[string]json.RawMessage
	single := false
	if json.Unmarshal(body, &reqs) != nil {
		var one map[string]json.RawMessage
		if json.Unmarshal(body, &one) != nil {
			return body
		}
		reqs, single = []map[string]json.RawMessage{one}, true
	}
	for _, r := range reqs {
		var method string
		_ = json.Unmarshal(r["method"], &method)
		var params []json.RawMessage
		if method == "eth_simulateV1" && json.Unmarshal(r["params"], &params) == nil && len(params) > 0 {
			var opts map[string]json.RawMessage
			var blocks []map[string]json.RawMessage
			if json.Unmarshal(params[0], &opts) == nil && json.Unmarshal(opts["blockStateCalls"], &blocks) == nil {
				for _, b := range blocks {
					delete(b, "stateOverrides")
				}
				opts["blockStateCalls"], _ = json.Marshal(blocks)
				params[0], _ = json.Marshal(opts)
				r["params"], _ = json.Marshal(params)
			}
			continue
		}
		if method != "eth_call" || json.Unmarshal(r["params"], &params) != nil || len(params) <= 2 {
			continue
		}
		r["params"], _ = json.Marshal(params[:2])
	}
	var out []byte
	if single {
		out, _ = json.Marshal(reqs[0])
	} else {
		out, _ = json.Marshal(reqs)
	}
	return out
}
