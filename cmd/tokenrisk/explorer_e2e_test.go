package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// fakeEtherscan answers the three Etherscan v2 calls a scan makes
// (contract/getsourcecode, contract/getcontractcreation, account/txlist)
// in the real API's answer shape (internal/explorer/testdata), from what
// the devnet deployed: each token's creator, and each creator's contract
// creations: its zoo tokens, one more deployment this service never
// scanned (launched), and one that reverted (not a deployment).
type fakeEtherscan struct {
	launched string

	mu       sync.Mutex
	creators map[string]string   // lower-case token → creator
	deployed map[string][]string // lower-case creator → its contracts
	calls    []string            // module/action?key of each request
}

// deploy records that creator deployed token.
func (f *fakeEtherscan) deploy(token, creator string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := strings.ToLower(creator)
	f.creators[strings.ToLower(token)] = c
	f.deployed[c] = append(f.deployed[c], token)
}

func (f *fakeEtherscan) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, q.Get("module")+"/"+q.Get("action")+"?apikey="+q.Get("apikey")+"&chainid="+q.Get("chainid"))
	ok := func(result any) {
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "1", "message": "OK", "result": result})
	}
	switch q.Get("module") + "/" + q.Get("action") {
	case "contract/getsourcecode":
		ok([]map[string]string{{"SourceCode": "", "ABI": "Contract source code not verified", "ContractName": ""}})
	case "contract/getcontractcreation":
		addr := q.Get("contractaddresses")
		creator, known := f.creators[strings.ToLower(addr)]
		if !known {
			_ = json.NewEncoder(w).Encode(map[string]any{"status": "0", "message": "No data found", "result": nil})
			return
		}
		ok([]map[string]string{{"contractAddress": strings.ToLower(addr), "contractCreator": strings.ToLower(creator),
			"txHash": "0x" + strings.Repeat("ab", 32), "blockNumber": "1", "timestamp": "1764300000"}})
	case "account/txlist":
		creator := strings.ToLower(q.Get("address"))
		txs := []map[string]string{}
		for i, c := range append(f.deployed[creator], f.launched, "0xaaaa000000000000000000000000000000000002") {
			isError := "0"
			if i == len(f.deployed[creator])+1 {
				isError = "1"
			}
			txs = append(txs, map[string]string{"blockNumber": fmt.Sprint(i + 1), "hash": fmt.Sprintf("0x%064x", i+1), "nonce": fmt.Sprint(i),
				"from": creator, "to": "", "value": "0", "isError": isError, "txreceipt_status": "1", "input": "0x6080", "contractAddress": strings.ToLower(c)})
		}
		ok(txs)
	default:
		http.Error(w, "unexpected call", http.StatusBadRequest)
	}
}

// TestExplorerLaunchesEndToEnd: with an Etherscan-family explorer
// configured (a fake replaying the API's answer shape), the scan through
// POST /api/v1/scan/ of a token's copy by its creator (`devnet act
// clone`) takes the creator from the explorer's creation record, and
// deployer_analysis.creator_tokens lists the creator's token this
// service scanned before (link creator, with its verdict and scan) and
// the deployment the explorer lists that it never scanned (link
// explorer, no verdict); a deployment that reverted is not listed, nor
// the token itself.
func TestExplorerLaunchesEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	fake := &fakeEtherscan{creators: map[string]string{}, deployed: map[string][]string{}, launched: "0xaaaa000000000000000000000000000000000001"}
	es := httptest.NewServer(fake)
	defer es.Close()
	env := map[string]string{
		"TOKENRISK_DB":                filepath.Join(dir, "explorer.db"),
		"TOKENRISK_SOURCIFY_URL":      "none",
		"TOKENRISK_ETHERSCAN_URL":     es.URL + "/v2/api",
		"TOKENRISK_ETHERSCAN_API_KEY": "test-key",
	}
	s := startServer(t, env, "--devnet-manifest", manifestPath)
	key := s.key(t, "premium")
	m := readManifest(t, manifestPath)
	for _, tok := range m.Tokens {
		if tok.Creator != "" {
			fake.deploy(tok.Address, tok.Creator)
		}
	}
	clean, ok := m.Token("clean")
	if !ok {
		t.Fatal("manifest has no clean token")
	}
	// The creator's second token: its code deployed again by it.
	var out bytes.Buffer
	if err := run(context.Background(), []string{"devnet", "act", "--rpc", m.RPCURL, "--manifest", manifestPath, "--token", clean.Address, "clone"},
		func(string) string { return "" }, strings.NewReader(""), &out, io.Discard); err != nil {
		t.Fatalf("devnet act clone: %v", err)
	}
	var second string
	for _, d := range regexp.MustCompile(`deployed (0x[0-9a-fA-F]{40}) by (the same|a new) creator (0x[0-9a-fA-F]{40})`).FindAllStringSubmatch(out.String(), -1) {
		fake.deploy(d[1], d[3])
		if d[2] == "the same" {
			second = d[1]
		}
	}
	if second == "" {
		t.Fatalf("devnet act clone printed %q, want the creator's own copy", out.String())
	}

	first := s.scan(t, key, clean.Address)
	if first.status != 200 {
		t.Fatalf("scan of the clean token: %d %s", first.status, first.body)
	}
	var firstRep struct {
		ScanID string `json:"scan_id"`
	}
	if err := json.Unmarshal(first.body, &firstRep); err != nil {
		t.Fatal(err)
	}
	r := s.scan(t, key, second)
	if r.status != 200 {
		t.Fatalf("scan of the creator's second token: %d %s", r.status, r.body)
	}
	validateReport(t, r.body)
	var rep struct {
		Deployer struct {
			Creator       *string `json:"creator"`
			CreationTx    *string `json:"creation_tx"`
			CreatorTokens []struct {
				Address string
				Level   *string
				ScanID  *string `json:"scan_id"`
				Link    string
			} `json:"creator_tokens"`
			CreatorRecord *string `json:"creator_record"`
		} `json:"deployer_analysis"`
		NotConfigured []string `json:"not_configured"`
	}
	if err := json.Unmarshal(r.body, &rep); err != nil {
		t.Fatal(err)
	}
	ev := rep.Deployer
	if ev.Creator == nil || !strings.EqualFold(*ev.Creator, clean.Creator) || ev.CreationTx == nil || *ev.CreationTx != "0x"+strings.Repeat("ab", 32) {
		t.Errorf("creator %v creation tx %v, want the explorer's record (%s)", ev.Creator, ev.CreationTx, clean.Creator)
	}
	byAddr := map[string]int{}
	for i, ct := range ev.CreatorTokens {
		byAddr[strings.ToLower(ct.Address)] = i
	}
	i, ok := byAddr[strings.ToLower(clean.Address)]
	if !ok || ev.CreatorTokens[i].Link != "creator" || ev.CreatorTokens[i].ScanID == nil || *ev.CreatorTokens[i].ScanID != firstRep.ScanID ||
		ev.CreatorTokens[i].Level == nil {
		t.Errorf("creator_tokens %+v, want the clean token scanned before (scan %s), linked by creator", ev.CreatorTokens, firstRep.ScanID)
	}
	j, ok := byAddr[fake.launched]
	if !ok || ev.CreatorTokens[j].Link != "explorer" || ev.CreatorTokens[j].Level != nil || ev.CreatorTokens[j].ScanID != nil {
		t.Errorf("creator_tokens %+v, want %s listed by the explorer without a verdict", ev.CreatorTokens, fake.launched)
	}
	if _, listed := byAddr["0xaaaa000000000000000000000000000000000002"]; listed {
		t.Error("a deployment that reverted is listed among the creator's tokens")
	}
	if _, self := byAddr[strings.ToLower(second)]; self {
		t.Error("the scanned token is listed among its creator's other tokens")
	}
	if ev.CreatorRecord == nil || !strings.Contains(*ev.CreatorRecord, "listed by the explorer, not scanned here") {
		t.Errorf("creator_record %v, want it to count the explorer's deployments", ev.CreatorRecord)
	}
	for _, c := range rep.NotConfigured {
		if c == "creator_history" {
			t.Errorf("not_configured %v lists creator_history with an explorer and a record", rep.NotConfigured)
		}
	}
	fake.mu.Lock()
	calls := strings.Join(fake.calls, "\n")
	fake.mu.Unlock()
	for _, want := range []string{"contract/getcontractcreation?apikey=test-key", "account/txlist?apikey=test-key"} {
		if !strings.Contains(calls, want) {
			t.Errorf("the explorer was not asked %s; calls:\n%s", want, calls)
		}
	}
}
