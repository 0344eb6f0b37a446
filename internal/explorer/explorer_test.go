package explorer

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// replay serves testdata files in order (the last one repeats), with
// their statuses, counting requests and recording the last query.
type replay struct {
	t       *testing.T
	answers []answer
	n       atomic.Int64
	lastURL atomic.Value
}

type answer struct {
	status int
	file   string
}

func newReplay(t *testing.T, answers ...answer) (*replay, *httptest.Server) {
	t.Helper()
	r := &replay{t: t, answers: answers}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		i := int(r.n.Add(1)) - 1
		r.lastURL.Store(req.URL.String())
		if i >= len(r.answers) {
			i = len(r.answers) - 1
		}
		a := r.answers[i]
		body := []byte("<html>Bad Gateway</html>")
		if a.file != "" {
			var err error
			body, err = os.ReadFile(filepath.Join("testdata", a.file))
			if err != nil {
				t.Errorf("fixture: %v", err)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return r, srv
}

func TestSourcifyVerification(t *testing.T) {
	tests := []struct {
		name      string
		answers   []answer
		want      Verification
		wantErr   error
		wantCalls int64
	}{
		{"exact match", []answer{{200, "sourcify_verified.json"}}, Verification{Verified: true, Source: "sourcify", Match: "exact_match"}, nil, 1},
		{"partial match counts as verified", []answer{{200, "sourcify_partial.json"}}, Verification{Verified: true, Source: "sourcify", Match: "match"}, nil, 1},
		{"404 is not verified", []answer{{404, "sourcify_not_found.json"}}, Verification{Source: "sourcify"}, nil, 1},
		{"502 then answer", []answer{{502, ""}, {200, "sourcify_verified.json"}}, Verification{Verified: true, Source: "sourcify", Match: "exact_match"}, nil, 2},
		{"429 forever is rate limited", []answer{{429, "sourcify_not_found.json"}}, Verification{}, ErrRateLimited, 3},
		{"500 forever is unavailable", []answer{{500, ""}}, Verification{}, ErrUnavailable, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, srv := newReplay(t, tt.answers...)
			s := NewSourcify(srv.URL+"/server/", nil)
			s.backoff = time.Millisecond
			got, err := s.Verification(context.Background(), 1, "0x6982508145454Ce325dDbE47a25d4ec3d2311933")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if r.n.Load() != tt.wantCalls {
				t.Errorf("requests = %d, want %d", r.n.Load(), tt.wantCalls)
			}
			if u := r.lastURL.Load().(string); u != "/server/v2/contract/1/0x6982508145454Ce325dDbE47a25d4ec3d2311933" {
				t.Errorf("requested %s", u)
			}
		})
	}
}

func newTestEtherscan(t *testing.T, answers ...answer) (*replay, *Etherscan) {
	t.Helper()
	r, srv := newReplay(t, answers...)
	e := NewEtherscan(srv.URL+"/v2/api", "KEYSECRET", nil)
	e.backoff = time.Millisecond
	return r, e
}

func TestEtherscanVerification(t *testing.T) {
	tests := []struct {
		name    string
		answers []answer
		want    bool
		wantErr error
	}{
		{"verified source", []answer{{200, "etherscan_source_verified.json"}}, true, nil},
		{"unverified source", []answer{{200, "etherscan_source_unverified.json"}}, false, nil},
		{"rate limit then answer", []answer{{200, "etherscan_rate_limited.json"}, {200, "etherscan_source_verified.json"}}, true, nil},
		{"rate limited forever", []answer{{200, "etherscan_rate_limited.json"}}, false, ErrRateLimited},
		{"invalid key", []answer{{200, "etherscan_invalid_key.json"}}, false, ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, e := newTestEtherscan(t, tt.answers...)
			got, err := e.Verification(context.Background(), 8453, "0x6982508145454Ce325dDbE47a25d4ec3d2311933")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "KEYSECRET") {
				t.Errorf("error leaks the key: %v", err)
			}
			if got.Verified != tt.want {
				t.Errorf("verified = %v, want %v", got.Verified, tt.want)
			}
			u := r.lastURL.Load().(string)
			for _, p := range []string{"chainid=8453", "module=contract", "action=getsourcecode"} {
				if !strings.Contains(u, p) {
					t.Errorf("query %s lacks %s", u, p)
				}
			}
		})
	}
}

func TestEtherscanCreationAndLaunches(t *testing.T) {
	_, e := newTestEtherscan(t, answer{200, "etherscan_creation.json"})
	c, ok, err := e.Creation(context.Background(), 1, "0x6982508145454Ce325dDbE47a25d4ec3d2311933")
	if err != nil || !ok {
		t.Fatalf("Creation = %v, %v", ok, err)
	}
	if c.Creator != "0x4b9b06dd5b6ae2b1d56b3e9a2e4c6b1e2f0b1a2c" || !strings.HasPrefix(c.TxHash, "0x2afae776") || c.Timestamp == nil || c.Timestamp.Year() != 2023 {
		t.Errorf("creation = %+v", c)
	}

	_, e = newTestEtherscan(t, answer{200, "etherscan_no_transactions.json"})
	if _, ok, err := e.Creation(context.Background(), 1, "0x6982508145454Ce325dDbE47a25d4ec3d2311933"); ok || err != nil {
		t.Errorf("no record: ok %v err %v, want neither", ok, err)
	}

	_, e = newTestEtherscan(t, answer{200, "etherscan_txlist.json"})
	got, err := e.Launches(context.Background(), 1, "0x4b9b06dd5b6ae2b1d56b3e9a2e4c6b1e2f0b1a2c", "0x6982508145454Ce325dDbE47a25d4ec3d2311933", 100)
	if err != nil {
		t.Fatal(err)
	}
	// The token itself and the failed deployment are not launches.
	if len(got) != 1 || got[0] != "0xaaaa000000000000000000000000000000000001" {
		t.Errorf("launches = %v", got)
	}

	_, e = newTestEtherscan(t, answer{200, "etherscan_no_transactions.json"})
	got, err = e.Launches(context.Background(), 1, "0x4b9b06dd5b6ae2b1d56b3e9a2e4c6b1e2f0b1a2c", "", 100)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("no transactions: %v, %v; want an empty known list", got, err)
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{"TOKENRISK_ETHERSCAN_API_KEY": "k", "TOKENRISK_SOURCIFY_URL": ""}
	c := ConfigFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if c.EtherscanURL != DefaultEtherscanURL || c.SourcifyURL != "" || c.EtherscanAPIKey != "k" {
		t.Errorf("config = %+v", c)
	}
	s, e := c.Clients(nil)
	if s != nil || e == nil {
		t.Errorf("clients = %v, %v; want Sourcify disabled and Etherscan on", s, e)
	}
	s, e = Config{SourcifyURL: DefaultSourcifyURL}.Clients(nil)
	if s == nil || e != nil {
		t.Errorf("without a key Etherscan must be off")
	}
}

// FuzzExplorerAnswers feeds arbitrary bodies to both clients: they must
// answer or fail, never panic, and never claim verification from garbage
// that lacks a match or source.
func FuzzExplorerAnswers(f *testing.F) {
	for _, name := range []string{"sourcify_verified.json", "etherscan_source_verified.json", "etherscan_creation.json", "etherscan_txlist.json", "etherscan_rate_limited.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"status":"1","result":null}`))
	var body atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(body.Load().([]byte))
	}))
	defer srv.Close()
	s := NewSourcify(srv.URL, nil)
	e := NewEtherscan(srv.URL, "k", nil)
	e.retries, s.retries = 0, 0
	f.Fuzz(func(t *testing.T, data []byte) {
		body.Store(data)
		ctx := context.Background()
		if v, err := s.Verification(ctx, 1, "0x01"); err == nil && v.Verified && !strings.Contains(string(data), "match") {
			t.Errorf("verified without a match: %q", data)
		}
		_, _ = e.Verification(ctx, 1, "0x01")
		_, _, _ = e.Creation(ctx, 1, "0x01")
		_, _ = e.Launches(ctx, 1, "0x01", "", 10)
	})
}
