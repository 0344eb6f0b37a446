package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
)

func TestWatchlistNeedsAPlanWithWatchLimit(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	for _, plan := range []string{"free", "pro"} {
		res := h.request(http.MethodPost, "/api/v1/watchlist", h.key(plan), `{"address":"`+pepe+`"}`)
		if res.StatusCode != http.StatusForbidden || res.problem(t).Code != "plan_forbidden" {
			t.Errorf("%s key: %d %s, want 403 plan_forbidden", plan, res.StatusCode, res.body)
		}
		if res := h.request(http.MethodGet, "/api/v1/watchlist", h.key(plan), ""); res.StatusCode != http.StatusForbidden {
			t.Errorf("%s key listing: %d, want 403", plan, res.StatusCode)
		}
	}
}

func TestWatchLimitIsEnforced(t *testing.T) {
	plans := auth.DefaultPlans()
	p := plans["premium"]
	p.WatchLimit = 2
	plans["premium"] = p
	h := newHarness(t, harnessOptions{plans: plans})
	key, other := h.key("premium"), h.key("premium")
	addr := func(i int) string { return fmt.Sprintf("0x%040x", 0x1000+i) }
	var ids []string
	for i := range 2 {
		res := h.request(http.MethodPost, "/api/v1/watchlist", key, `{"address":"`+addr(i)+`"}`)
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("entry %d: %d %s", i, res.StatusCode, res.body)
		}
		var e httpapi.WatchEntry
		if err := json.Unmarshal(res.body, &e); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(e.ID, "wat_") || e.Chain != "ethereum" || !strings.HasPrefix(e.Baseline.ScanID, "scn_") || e.Baseline.RiskLevel == "" {
			t.Errorf("entry %+v: want a wat_ id, the chain and a baseline scan", e)
		}
		if res.Header.Get("Location") != "/api/v1/watchlist/"+e.ID {
			t.Errorf("Location %q", res.Header.Get("Location"))
		}
		ids = append(ids, e.ID)
	}
	// The same token again is the same entry, and costs no slot.
	if res := h.request(http.MethodPost, "/api/v1/watchlist", key, `{"address":"`+addr(0)+`"}`); res.StatusCode != http.StatusOK ||
		!strings.Contains(string(res.body), ids[0]) {
		t.Errorf("watching again: %d %s, want 200 with %s", res.StatusCode, res.body, ids[0])
	}
	res := h.request(http.MethodPost, "/api/v1/watchlist", key, `{"address":"`+addr(2)+`"}`)
	if res.StatusCode != http.StatusForbidden || res.problem(t).Code != "plan_forbidden" || !strings.Contains(res.problem(t).Detail, "2 watched tokens") {
		t.Fatalf("third entry over a limit of 2: %d %s, want 403 plan_forbidden naming the limit", res.StatusCode, res.body)
	}
	// Another key neither sees nor deletes the entries.
	if res := h.request(http.MethodDelete, "/api/v1/watchlist/"+ids[0], other, ""); res.StatusCode != http.StatusNotFound {
		t.Errorf("another key deleting: %d, want 404", res.StatusCode)
	}
	var list httpapi.WatchList
	if err := json.Unmarshal(h.request(http.MethodGet, "/api/v1/watchlist", other, "").body, &list); err != nil || len(list.Watches) != 0 {
		t.Errorf("another key's list: %+v %v, want empty", list, err)
	}
	// Deleting frees a slot.
	if res := h.request(http.MethodDelete, "/api/v1/watchlist/"+ids[0], key, ""); res.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.StatusCode, res.body)
	}
	if res := h.request(http.MethodPost, "/api/v1/watchlist", key, `{"address":"`+addr(2)+`"}`); res.StatusCode != http.StatusCreated {
		t.Errorf("after a delete: %d %s, want 201", res.StatusCode, res.body)
	}
	if err := json.Unmarshal(h.request(http.MethodGet, "/api/v1/watchlist", key, "").body, &list); err != nil ||
		len(list.Watches) != 2 || list.Limit != 2 || list.Watches[0].ID != ids[1] {
		t.Errorf("list %+v %v, want 2 entries oldest first and limit 2", list, err)
	}
}
