package solana

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func loadFundingTx(t testing.TB, name string) *fundingTx {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "transactions", name))
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(raw, &env) == nil && len(env.Result) > 0 {
		raw = env.Result
	}
	tx := &fundingTx{}
	if err := json.Unmarshal(raw, tx); err != nil {
		t.Fatal(err)
	}
	return tx
}

func TestFirstFunder(t *testing.T) {
	tests := []struct {
		name, file, wallet string
		wantBy             string
		want               fundingOutcome
	}{
		// An associated token account created by an inner CreateAccount
		// (instruction 2's fifth inner instruction) from the buyer.
		{"inner CreateAccount", "mainnet_nft_sale_171942732.json", "DTYuh7gAGGZg2okM7hdFfU1yMY9LUemCiPyD5Z5GCs6Z", "CKs1E69a2e9TmH4mKKLrXFF8kD3ZnwKjoEuXa6sz9WqX", fundedHere},
		// An escrow paid by an inner Transfer and emptied again in the same
		// transaction: still the first SOL it received.
		{"inner Transfer", "mainnet_nft_sale_171942732.json", "AAaTGaA3uVqikfVEwoSG7EwkCb4bBDsMEyueiVUS5CaU", "CKs1E69a2e9TmH4mKKLrXFF8kD3ZnwKjoEuXa6sz9WqX", fundedHere},
		// The seller held SOL before: this is not where its SOL started.
		{"balance before", "mainnet_nft_sale_171942732.json", "5DxD5ViWjvRZEkxQEaJHZw2sBsso6xoXx3wGFNKgXUzE", "", fundingUnknown},
		// An account with no SOL before or after and no credit.
		{"untouched", "mainnet_nft_sale_171942732.json", "NTYeYJ1wr4bpM5xo6zx5En44SvJFAd35zTxxNoERYqd", "", notFundedHere},
		{"not in the transaction", "mainnet_nft_sale_171942732.json", "So11111111111111111111111111111111111111112", "", fundingUnknown},
		{"top-level Transfer to a funded wallet", "docs_transfer_slot5.json", "47Sbuv6jL7CViK9F2NMW51aQGhfdpUu7WNvKyH645Rfi", "", fundingUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			by, got := loadFundingTx(t, tt.file).firstFunder(tt.wallet)
			if by != tt.wantBy || got != tt.want {
				t.Errorf("firstFunder = %q, %d; want %q, %d", by, got, tt.wantBy, tt.want)
			}
		})
	}
}

func TestSystemCreditDecodesTheRealTransfer(t *testing.T) {
	tx := loadFundingTx(t, "docs_transfer_slot5.json")
	from, to, lamports, ok := systemCredit(tx.Transaction.Message.AccountKeys, tx.Transaction.Message.Instructions[0])
	// The guide: 218099990000 - 207099990000 = 11 SOL.
	if !ok || from != "Bbqg1M4YVVfbhEzwA9SpC9FhsaG83YMTYoR4a8oTDLX" || to != "47Sbuv6jL7CViK9F2NMW51aQGhfdpUu7WNvKyH645Rfi" || lamports != 11_000_000_000 {
		t.Errorf("systemCredit = %s → %s %d (%v)", from, to, lamports, ok)
	}
}

func TestFirstFunderLoadedAddresses(t *testing.T) {
	// A v0 transaction whose recipient comes from an address lookup table
	// (keys: static, then loaded writable, then loaded readonly).
	raw := `{"slot":9,"meta":{"err":null,"preBalances":[5000000000,1,0],"postBalances":[3999995000,1,1000000000],
	"innerInstructions":[],"loadedAddresses":{"writable":["47Sbuv6jL7CViK9F2NMW51aQGhfdpUu7WNvKyH645Rfi"],"readonly":[]}},
	"transaction":{"message":{"accountKeys":["Bbqg1M4YVVfbhEzwA9SpC9FhsaG83YMTYoR4a8oTDLX","11111111111111111111111111111111"],
	"instructions":[{"programIdIndex":1,"accounts":[0,2],"data":"3Bxs3zyH82bhpB8j"}]}}}`
	tx := &fundingTx{}
	if err := json.Unmarshal([]byte(raw), tx); err != nil {
		t.Fatal(err)
	}
	if by, got := tx.firstFunder("47Sbuv6jL7CViK9F2NMW51aQGhfdpUu7WNvKyH645Rfi"); by != "Bbqg1M4YVVfbhEzwA9SpC9FhsaG83YMTYoR4a8oTDLX" || got != fundedHere {
		t.Errorf("firstFunder = %q, %d", by, got)
	}
}

// FuzzFirstFunder: getTransaction answers come from the node; no answer
// may panic the decoder, and a funder it names is one of the keys.
func FuzzFirstFunder(f *testing.F) {
	for _, name := range []string{"mainnet_nft_sale_171942732.json", "docs_transfer_slot5.json"} {
		raw, err := os.ReadFile(filepath.Join("testdata", "transactions", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw, "DTYuh7gAGGZg2okM7hdFfU1yMY9LUemCiPyD5Z5GCs6Z")
	}
	f.Add([]byte(`{"meta":{"err":null,"preBalances":[0],"postBalances":[1],"innerInstructions":[{"index":0,"instructions":[{"programIdIndex":9,"accounts":[-1,7],"data":"4"}]}]},"transaction":{"message":{"accountKeys":["x"],"instructions":[{"programIdIndex":0,"accounts":[0,0],"data":"11112"}]}}}`), "x")
	f.Fuzz(func(t *testing.T, raw []byte, wallet string) {
		var env struct {
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(raw, &env) == nil && len(env.Result) > 0 {
			raw = env.Result
		}
		tx := &fundingTx{}
		if json.Unmarshal(raw, tx) != nil {
			return
		}
		by, out := tx.firstFunder(wallet)
		if out != fundedHere {
			return
		}
		keys := tx.Transaction.Message.AccountKeys
		if la := tx.Meta.LoadedAddresses; la != nil {
			keys = append(append(keys, la.Writable...), la.Readonly...)
		}
		for _, k := range keys {
			if k == by {
				return
			}
		}
		t.Fatalf("funder %q is not a key of the transaction", by)
	})
}
