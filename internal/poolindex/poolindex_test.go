package poolindex_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/poolindex"
)

const (
	mint  = "DA2hWDYUaBxfhkvC3m3Gf65FYuGSojZw4DsYUDUxpump"
	poolA = "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv"
	poolB = "HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur"
)

// index serves body with status for any mint and records the asked mint.
func index(t *testing.T, status int, body string) (*poolindex.Client, *string) {
	t.Helper()
	var asked string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.Query().Get("mint")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := poolindex.New(srv.URL+"/pools?network=mainnet", srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	return c, &asked
}

func TestPools(t *testing.T) {
	c, asked := index(t, 200, `{"mint":"`+mint+`","pools":["`+poolA+`","`+poolB+`","`+poolA+`"]}`)
	got, err := c.Pools(context.Background(), mint)
	if err != nil {
		t.Fatal(err)
	}
	if *asked != mint || len(got) != 2 || got[0] != poolA || got[1] != poolB {
		t.Errorf("asked %q, got %v", *asked, got)
	}
	c, _ = index(t, 200, `{"mint":"`+mint+`","pools":[]}`)
	if got, err := c.Pools(context.Background(), mint); err != nil || len(got) != 0 {
		t.Errorf("empty answer: %v (%v)", got, err)
	}
}

// TestPoolsErrors: every answer that is not the document about the mint
// asked is an error, never an empty list.
func TestPoolsErrors(t *testing.T) {
	many := make([]string, poolindex.MaxPools+1)
	for i := range many {
		many[i] = `"` + poolA + `"`
	}
	for _, tt := range []struct {
		name, body string
		status     int
	}{
		{"server error", `{"mint":"` + mint + `","pools":[]}`, 500},
		{"not found", `{}`, 404},
		{"not JSON", `<html>`, 200},
		{"another mint", `{"mint":"` + poolB + `","pools":[]}`, 200},
		{"no pools list", `{"mint":"` + mint + `"}`, 200},
		{"not an address", `{"mint":"` + mint + `","pools":["0xdeadbeef"]}`, 200},
		{"too many", `{"mint":"` + mint + `","pools":[` + strings.Join(many, ",") + `]}`, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := index(t, tt.status, tt.body)
			if got, err := c.Pools(context.Background(), mint); err == nil {
				t.Errorf("no error, pools %v", got)
			}
		})
	}
	// An index that does not answer in time.
	c, _ := index(t, 200, `{}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Pools(ctx, mint); err == nil {
		t.Error("no error with a cancelled context")
	}
}

func TestNew(t *testing.T) {
	for _, u := range []string{"", "ftp://x/y", "localhost:8080", "http://"} {
		if _, err := poolindex.New(u, nil); err == nil {
			t.Errorf("%q accepted", u)
		}
	}
}
