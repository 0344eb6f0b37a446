package chaos_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/chaos"
)

// node answers every call with its method name.
func node(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var calls []struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		single := json.Unmarshal(b, &calls) != nil
		if single {
			calls = calls[:0]
			var one struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal(b, &one)
			calls = append(calls, one)
		}
		var out []string
		for _, c := range calls {
			out = append(out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%q}`, c.ID, c.Method))
		}
		if single {
			fmt.Fprint(w, out[0])
			return
		}
		fmt.Fprint(w, "["+strings.Join(out, ",")+"]")
	}))
	t.Cleanup(srv.Close)
	return srv
}

type answer struct {
	ID     int              `json:"id"`
	Result string           `json:"result"`
	Error  *chaos.CallError `json:"error"`
}

func post(t *testing.T, url, body string) (*http.Response, []answer) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var as []answer
	if json.Unmarshal(b, &as) != nil {
		var one answer
		if json.Unmarshal(b, &one) == nil {
			as = []answer{one}
		}
	}
	return res, as
}

func batch(n int, method string) string {
	var calls []string
	for i := range n {
		calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":[]}`, i+1, method))
	}
	return "[" + strings.Join(calls, ",") + "]"
}

func TestProxyFaults(t *testing.T) {
	p, err := chaos.Start(node(t).URL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	// Healthy: forwarded untouched.
	if _, as := post(t, p.URL(), batch(4, "eth_call")); len(as) != 4 || as[3].Result != "eth_call" {
		t.Fatalf("healthy batch: %+v", as)
	}

	// A cap answering only the first calls.
	p.Set(chaos.Fault{Cap: 3, CapStyle: chaos.CapTail})
	_, as := post(t, p.URL(), batch(5, "eth_call"))
	if len(as) != 5 || as[2].Error != nil || as[3].Error == nil || as[3].Error.Code != -32005 {
		t.Errorf("tail cap: %+v", as)
	}

	// One in two eth_call answered with an error, other methods forwarded.
	p.Set(chaos.Fault{Methods: []string{"eth_call"}, Every: 2, Error: &chaos.CallError{Code: -32603, Message: "internal error"}})
	_, as = post(t, p.URL(), batch(4, "eth_call"))
	failed := 0
	for _, a := range as {
		if a.Error != nil {
			failed++
		}
	}
	if failed != 2 {
		t.Errorf("every 2: %d of 4 calls failed, want 2", failed)
	}
	if _, as := post(t, p.URL(), batch(2, "eth_getCode")); as[0].Error != nil || as[1].Error != nil {
		t.Errorf("a method outside the fault failed: %+v", as)
	}

	// HTTP 429 with Retry-After.
	p.Set(chaos.Fault{Status: http.StatusTooManyRequests, RetryAfter: 1500e6})
	if res, _ := post(t, p.URL(), batch(1, "eth_call")); res.StatusCode != 429 || res.Header.Get("Retry-After") != "2" {
		t.Errorf("429: status %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}

	// A dropped connection is no answer at all.
	p.Set(chaos.Fault{Drop: true})
	if _, err := http.Post(p.URL(), "application/json", strings.NewReader(batch(1, "eth_call"))); err == nil {
		t.Error("dropped connection answered")
	}

	// Empty results, then healed.
	p.Set(chaos.Fault{Empty: true})
	if _, as := post(t, p.URL(), `{"jsonrpc":"2.0","id":7,"method":"eth_call","params":[]}`); len(as) != 1 || as[0].Result != "0x" || as[0].ID != 7 {
		t.Errorf("empty: %+v", as)
	}
	p.Heal()
	if _, as := post(t, p.URL(), batch(2, "eth_call")); len(as) != 2 || as[1].Result != "eth_call" {
		t.Errorf("healed: %+v", as)
	}
	if p.Faulted() == 0 || p.Requests() == 0 || p.Calls() == 0 {
		t.Errorf("counters: faulted %d requests %d calls %d", p.Faulted(), p.Requests(), p.Calls())
	}
}

// TestProxyCountsBodyBytes: the proxy counts the bytes of every body it
// receives, those it refuses as too large included (a provider reads
// them too), so a test can tell what a scan costs a provider.
func TestProxyCountsBodyBytes(t *testing.T) {
	p, err := chaos.Start(node(t).URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	small, large := batch(2, "eth_call"), batch(40, "eth_call")
	p.Set(chaos.Fault{MaxBody: len(small)})
	if _, as := post(t, p.URL(), small); len(as) != 2 {
		t.Fatalf("a body at the limit: %+v", as)
	}
	if _, as := post(t, p.URL(), large); len(as) != 1 || as[0].Error == nil || as[0].Error.Code != -32600 {
		t.Fatalf("a body over the limit: %+v", as)
	}
	if got, want := p.Bytes(), int64(len(small)+len(large)); got != want {
		t.Errorf("bytes received %d, want %d (two bodies)", got, want)
	}
}
