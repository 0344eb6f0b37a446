package devnet

import (
	"context"
	"encoding/json"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// TestHTTPRPC proves the chain answers over real HTTP JSON-RPC: code of
// every zoo contract, pool reserves, and a transaction sent by an outside
// client gets mined by the background committer.
func TestHTTPRPC(t *testing.T) {
	needZoo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d := dn
	client, err := ethclient.DialContext(ctx, d.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	id, err := client.ChainID(ctx)
	if err != nil || id.Int64() != d.Manifest().ChainID {
		t.Fatalf("eth_chainId = %v (err %v), want %d", id, err, d.Manifest().ChainID)
	}
	pairABI, err := contracts.Artifact("V2Pair")
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range d.Manifest().Tokens {
		code, err := client.CodeAt(ctx, common.HexToAddress(tok.Address), nil)
		if err != nil || len(code) == 0 {
			t.Errorf("%s: eth_getCode returned %d bytes (err %v)", tok.Kind, len(code), err)
		}
		if tok.Pair == "" {
			continue
		}
		pair := common.HexToAddress(tok.Pair)
		out, err := client.CallContract(ctx, ethereum.CallMsg{To: &pair, Data: pairABI.ABI.Methods["getReserves"].ID}, nil)
		if err != nil {
			t.Errorf("%s: getReserves: %v", tok.Kind, err)
			continue
		}
		res, err := pairABI.ABI.Unpack("getReserves", out)
		if err != nil || res[0].(*big.Int).Sign() == 0 {
			t.Errorf("%s: getReserves = %v (err %v), want live reserves", tok.Kind, res, err)
		}
	}

	// An outside client's transaction is mined without anyone calling Commit.
	from := common.HexToAddress(d.Manifest().Deployer)
	key, _ := d.Key(from)
	nonce, err := client.PendingNonceAt(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	to := common.HexToAddress("0x00000000000000000000000000000000000c0ffe")
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		Nonce: nonce, GasTipCap: gasTip, GasFeeCap: gasFeeCap, Gas: 21_000, To: &to, Value: big.NewInt(12345),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	for {
		r, err := client.TransactionReceipt(ctx, tx.Hash())
		if err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatal("transfer reverted")
			}
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the background committer never mined the transaction")
		case <-time.After(20 * time.Millisecond):
		}
	}
	bal, err := client.BalanceAt(ctx, to, nil)
	if err != nil || bal.Int64() != 12345 {
		t.Errorf("recipient balance = %v (err %v), want 12345", bal, err)
	}

	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := d.Manifest().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back Manifest
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, d.Manifest()) {
		t.Error("manifest JSON does not round-trip")
	}
	for _, key := range []string{`"rpc_url"`, `"chain_id"`, `"weth"`, `"usdc"`, `"factory"`, `"router"`, `"locker"`, `"deployer"`, `"kind"`, `"pair"`, `"owner"`, `"behaviour"`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("manifest JSON lacks %s", key)
		}
	}
}

// The deployment is deterministic: every run gives the same addresses, so
// a manifest stays valid for a devnet restarted elsewhere.
func TestPlanIsDeterministic(t *testing.T) {
	plan := func() Manifest {
		t.Helper()
		accts, err := newAccounts()
		if err != nil {
			t.Fatal(err)
		}
		_, m, err := planZoo(accts, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := plan(), plan()
	if !reflect.DeepEqual(a, b) {
		t.Error("two plans differ")
	}
	seen := map[string]string{}
	for _, tok := range a.Tokens {
		for _, address := range []string{tok.Address, tok.Pair} {
			if address == "" {
				continue
			}
			if other, dup := seen[address]; dup {
				t.Errorf("%s and %s share address %s", other, tok.Kind, address)
			}
			seen[address] = tok.Kind
		}
	}
}

func TestStartOnBusyPortFails(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	d, err := Start(context.Background(), Options{RPCAddr: l.Addr().String(), CommitInterval: -1})
	if err == nil {
		d.Close()
		t.Fatal("Start on a port in use succeeded")
	}
}

func TestParseRPCAddr(t *testing.T) {
	tests := []struct {
		in       string
		host     string
		port     int
		wantFail bool
	}{
		{"", "127.0.0.1", 0, false},
		{"127.0.0.1:8545", "127.0.0.1", 8545, false},
		{":8545", "127.0.0.1", 8545, false},
		{"localhost:0", "localhost", 0, false},
		{"[::1]:9000", "::1", 9000, false},
		{"8545", "", 0, true},
		{"127.0.0.1:70000", "", 0, true},
		{"127.0.0.1:-1", "", 0, true},
		{"127.0.0.1:http", "", 0, true},
	}
	for _, tt := range tests {
		host, port, err := parseRPCAddr(tt.in)
		if (err != nil) != tt.wantFail {
			t.Errorf("parseRPCAddr(%q) error = %v, want failure %v", tt.in, err, tt.wantFail)
			continue
		}
		if !tt.wantFail && (host != tt.host || port != tt.port) {
			t.Errorf("parseRPCAddr(%q) = %s, %d; want %s, %d", tt.in, host, port, tt.host, tt.port)
		}
	}
}

func FuzzParseRPCAddr(f *testing.F) {
	for _, s := range []string{"", "127.0.0.1:8545", ":0", "[::1]:1", "a:b:c", "host:99999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		host, port, err := parseRPCAddr(s)
		if err != nil {
			return
		}
		if host == "" || port < 0 || port > 65535 {
			t.Fatalf("parseRPCAddr(%q) = %q, %d without error", s, host, port)
		}
	})
}

func TestHexUint(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		fail bool
	}{
		{`"0x0"`, 0, false},
		{`"0x1f"`, 31, false},
		{`"0xffffffffffffffff"`, 1<<64 - 1, false},
		{`"0x10000000000000000"`, 0, true},
		{`17`, 0, true},
		{`"zz"`, 0, true},
		{`"31"`, 0, true},
		{`"0x_1f"`, 0, true},
		{`null`, 0, true},
	}
	for _, tt := range tests {
		var h hexUint
		err := json.Unmarshal([]byte(tt.in), &h)
		if (err != nil) != tt.fail || (!tt.fail && uint64(h) != tt.want) {
			t.Errorf("decode %s = %d, err %v; want %d, failure %v", tt.in, h, err, tt.want, tt.fail)
		}
	}
}

func FuzzHexUint(f *testing.F) {
	for _, s := range []string{`"0x0"`, `"0xabc"`, `""`, `"0x"`, `1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var h hexUint
		if err := h.UnmarshalJSON([]byte(s)); err != nil {
			return
		}
		// Whatever decodes must re-encode to the same number.
		var again hexUint
		if err := again.UnmarshalJSON([]byte(strconv.Quote("0x" + strconv.FormatUint(uint64(h), 16)))); err != nil || again != h {
			t.Fatalf("%s decoded to %d, which does not round-trip", s, h)
		}
	})
}
