package evm

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/explorer"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// fakeEtherscan answers like the Etherscan v2 API for one token: verified
// source, its creator, and a creator who deployed launches other contracts.
func fakeEtherscan(t testing.TB, token, creator string, launches int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		switch q.Get("action") {
		case "getsourcecode":
			fmt.Fprint(w, `{"status":"1","message":"OK","result":[{"SourceCode":"contract T {}","ABI":"[]","ContractName":"T"}]}`)
		case "getcontractcreation":
			fmt.Fprintf(w, `{"status":"1","message":"OK","result":[{"contractAddress":"%s","contractCreator":"%s","txHash":"0xabc","timestamp":"1700000000"}]}`, strings.ToLower(token), strings.ToLower(creator))
		case "txlist":
			var txs []string
			txs = append(txs, fmt.Sprintf(`{"from":"%s","to":"","contractAddress":"%s","isError":"0"}`, strings.ToLower(creator), strings.ToLower(token)))
			for i := range launches {
				txs = append(txs, fmt.Sprintf(`{"from":"%s","to":"","contractAddress":"0x%040x","isError":"0"}`, strings.ToLower(creator), i+1))
			}
			fmt.Fprintf(w, `{"status":"1","message":"OK","result":[%s]}`, strings.Join(txs, ","))
		default:
			fmt.Fprint(w, `{"status":"0","message":"NOTOK","result":"Error! Invalid action"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestAdapterUsesExplorers(t *testing.T) {
	dn := startAdapterNet(t)
	tok, _ := dn.Manifest().Token("mintable")
	es := fakeEtherscan(t, tok.Address, tok.Creator, 5)
	sourcify := httptest.NewServer(http.NotFoundHandler())
	defer sourcify.Close()
	s, e := explorer.Config{SourcifyURL: sourcify.URL, EtherscanURL: es.URL, EtherscanAPIKey: "k"}.Clients(nil)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{Sourcify: s, Etherscan: e})
	r, err := assess(t, ad, tok.Address)
	if err != nil {
		t.Fatal(err)
	}
	if !r.SafetyChecklist.Verified {
		t.Errorf("verified = false; Etherscan has the source")
	}
	dep, ok := r.DeployerAnalysis.Evidence.(analysis.EVMDeployerEvidence)
	if !ok {
		t.Fatalf("deployer evidence is %T", r.DeployerAnalysis.Evidence)
	}
	if dep.Creator == nil || !strings.EqualFold(*dep.Creator, tok.Creator) || dep.CreatorSource != "explorer" {
		t.Errorf("creator = %v (%s), want %s from the explorer", fmtPtr(dep.Creator), dep.CreatorSource, tok.Creator)
	}
	if dep.CreationTx == nil || *dep.CreationTx != "0xabc" || len(dep.OtherLaunches) != 5 {
		t.Errorf("creation tx %v, launches %v", fmtPtr(dep.CreationTx), dep.OtherLaunches)
	}
	if dep.CreatorTxCount == nil || dep.CreatorBalance == nil {
		t.Errorf("creator account unread: nonce %v balance %v", fmtPtr(dep.CreatorTxCount), fmtPtr(dep.CreatorBalance))
	}
	if !r.HasFlag(risk.CreatorSerialLauncher) {
		t.Errorf("no %s for a creator with 5 other deployments", risk.CreatorSerialLauncher)
	}
	if slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "no explorer") }) {
		t.Errorf("warnings claim no explorer: %q", r.Warnings)
	}
}

func TestAdapterBoundsSlowExplorers(t *testing.T) {
	dn := startAdapterNet(t)
	tok, _ := dn.Manifest().Token("clean")
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer hang.Close()
	var nilEtherscan *explorer.Etherscan
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{
		Sourcify:        explorer.NewSourcify(hang.URL, nil),
		Etherscan:       nilEtherscan, // a disabled explorer from Config.Clients
		ExplorerTimeout: 300 * time.Millisecond,
	})
	start := time.Now()
	r, err := assess(t, ad, tok.Address)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("scan took %v with a hanging explorer", d)
	}
	if r.SafetyChecklist.Verified || r.HasFlag(risk.NotVerified) {
		t.Errorf("verification must be unknown (no flag, not verified), got verified=%v", r.SafetyChecklist.Verified)
	}
}
