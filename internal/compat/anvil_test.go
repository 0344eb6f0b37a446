package compat_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// anvilKey is anvil's first well-known development account (public test
// mnemonic "test test … junk"); it holds test ether on every anvil.
const anvilKey = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

// npmArtifact is a compiled contract from an npm package: the Uniswap
// packages ship both "waffle" (bytecode without 0x) and hardhat layouts.
type npmArtifact struct {
	ABI      abi.ABI
	Bytecode []byte
}

func loadNPMArtifact(t *testing.T, modules, rel string) npmArtifact {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(modules, rel))
	if err != nil {
		t.Fatalf("artifact: %v", err)
	}
	var raw struct {
		ABI      json.RawMessage `json:"abi"`
		Bytecode json.RawMessage `json:"bytecode"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("artifact %s: %v", rel, err)
	}
	parsed, err := abi.JSON(strings.NewReader(string(raw.ABI)))
	if err != nil {
		t.Fatalf("artifact %s abi: %v", rel, err)
	}
	var code string
	if err := json.Unmarshal(raw.Bytecode, &code); err != nil {
		var obj struct {
			Object string `json:"object"`
		}
		if err := json.Unmarshal(raw.Bytecode, &obj); err != nil {
			t.Fatalf("artifact %s bytecode: %v", rel, err)
		}
		code = obj.Object
	}
	bin, err := hex.DecodeString(strings.TrimPrefix(code, "0x"))
	if err != nil || len(bin) == 0 {
		t.Fatalf("artifact %s bytecode: %v", rel, err)
	}
	return npmArtifact{ABI: parsed, Bytecode: bin}
}

// anvil is a running anvil node and a funded account to drive it.
type anvil struct {
	URL     string
	Client  *ethclient.Client
	key     *ecdsa.PrivateKey
	From    common.Address
	chainID *big.Int
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func startAnvil(t *testing.T, bin string) *anvil {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command(bin, "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--chain-id", "31337",
		"--disable-code-size-limit", "--silent")
	if err := cmd.Start(); err != nil {
		t.Fatalf("start anvil: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(20 * time.Second)
	var cl *ethclient.Client
	for {
		c, err := ethclient.Dial(url)
		if err == nil {
			if _, err = c.ChainID(context.Background()); err == nil {
				cl = c
				break
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("anvil did not answer on %s: %v", url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	key, _ := crypto.HexToECDSA(anvilKey)
	return &anvil{URL: url, Client: cl, key: key, From: crypto.PubkeyToAddress(key.PublicKey), chainID: big.NewInt(31337)}
}

func (a *anvil) sendTx(t *testing.T, to *common.Address, value *big.Int, data []byte) *types.Receipt {
	t.Helper()
	ctx := context.Background()
	nonce, err := a.Client.PendingNonceAt(ctx, a.From)
	if err != nil {
		t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	gas, err := a.Client.EstimateGas(ctx, ethereum.CallMsg{From: a.From, To: to, Value: value, Data: data})
	if err != nil {
		t.Fatalf("estimate gas: %v", err)
	}
	tip := big.NewInt(1e9)
	head, err := a.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: a.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap,
		Gas: gas * 12 / 10, To: to, Value: value, Data: data})
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(a.chainID), a.key)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Client.SendTransaction(ctx, signed); err != nil {
		t.Fatalf("send: %v", err)
	}
	for i := 0; i < 200; i++ {
		r, err := a.Client.TransactionReceipt(ctx, signed.Hash())
		if err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("tx %s reverted", signed.Hash())
			}
			return r
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("tx %s not mined", signed.Hash())
	return nil
}

// deploy creates a contract and returns its address.
func (a *anvil) deploy(t *testing.T, art npmArtifact, args ...any) common.Address {
	t.Helper()
	input, err := art.ABI.Pack("", args...)
	if err != nil {
		t.Fatalf("pack constructor: %v", err)
	}
	r := a.sendTx(t, nil, nil, append(append([]byte{}, art.Bytecode...), input...))
	return r.ContractAddress
}

// transact calls method on a contract in a mined transaction.
func (a *anvil) transact(t *testing.T, to common.Address, contract abi.ABI, value *big.Int, method string, args ...any) *types.Receipt {
	t.Helper()
	data, err := contract.Pack(method, args...)
	if err != nil {
		t.Fatalf("pack %s: %v", method, err)
	}
	return a.sendTx(t, &to, value, data)
}

// call reads a view method.
func (a *anvil) call(t *testing.T, to common.Address, contract abi.ABI, method string, args ...any) []any {
	t.Helper()
	data, err := contract.Pack(method, args...)
	if err != nil {
		t.Fatalf("pack %s: %v", method, err)
	}
	out, err := a.Client.CallContract(context.Background(), ethereum.CallMsg{From: a.From, To: &to, Data: data}, nil)
	if err != nil {
		t.Fatalf("call %s: %v", method, err)
	}
	vals, err := contract.Unpack(method, out)
	if err != nil {
		t.Fatalf("unpack %s: %v", method, err)
	}
	return vals
}
