package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/tokenrisk/tokenrisk/internal/devnet"
)

// TestDevnetAct: `tokenrisk devnet act` sends the owner's transaction on a
// running devnet (here the pausable token's pause(), and a fee change),
// and refuses what it cannot do with a usable message.
func TestDevnetAct(t *testing.T) {
	if testing.Short() {
		t.Skip("devnet tests are not short")
	}
	ctx := context.Background()
	d, err := devnet.Start(ctx, devnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	manifest := filepath.Join(t.TempDir(), "m.json")
	if err := d.Manifest().WriteFile(manifest); err != nil {
		t.Fatal(err)
	}
	tok, _ := d.Manifest().Token("pausable")
	act := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		all := append([]string{"devnet", "act", "--rpc", d.RPCURL(), "--manifest", manifest}, args...)
		err := run(ctx, all, func(string) string { return "" }, strings.NewReader(""), &out, &errOut)
		return out.String(), err
	}
	out, err := act("--token", tok.Address, "pause")
	if err != nil {
		t.Fatalf("devnet act pause: %v", err)
	}
	if !strings.HasPrefix(out, "pause 0x") || !strings.Contains(out, "mined in block") {
		t.Errorf("output %q, want the transaction and its block", out)
	}
	client, err := ethclient.Dial(d.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	to := common.HexToAddress(tok.Address)
	res, err := client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: crypto.Keccak256([]byte("paused()"))[:4]}, nil)
	if err != nil || len(res) != 32 || res[31] != 1 {
		t.Errorf("paused() = %x (%v), want true after the owner's pause", res, err)
	}
	fee, _ := d.Manifest().Token("fee_modifiable")
	if _, err := act("--token", fee.Address, "set-fee", "40"); err != nil {
		t.Errorf("devnet act set-fee: %v", err)
	}
	to = common.HexToAddress(fee.Address)
	if res, err := client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: crypto.Keccak256([]byte("sellFee()"))[:4]}, nil); err != nil ||
		common.BytesToHash(res).Big().Int64() != 40 {
		t.Errorf("sellFee() = %x (%v), want 40", res, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--token", tok.Address, "mint", "5"}, "has none of mint(address,uint256)"},
		{[]string{"--token", tok.Address, "dance"}, "unknown action"},
		{[]string{"--token", "0x0000000000000000000000000000000000000001", "pause"}, "not a token of the manifest"},
		{[]string{"--token", fee.Address, "set-fee"}, "set-fee needs N"},
		{[]string{"--token", tok.Address, "remove-liquidity", "50"}, "holds no LP shares"},
	} {
		if _, err := act(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("devnet act %v: %v, want an error saying %q", tc.args, err, tc.want)
		}
	}
	if _, err := act("pause"); !errors.Is(err, errUsage) {
		t.Errorf("devnet act without --token: %v, want a usage error", err)
	}
}
