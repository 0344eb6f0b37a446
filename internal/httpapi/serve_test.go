package httpapi_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// TestGracefulShutdownFinishesScans: a shutdown that starts while scans
// are in flight lets them finish, answers them and loses no history row;
// new connections are refused.
func TestGracefulShutdownFinishesScans(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("premium")
	release := make(chan struct{})
	started := make(chan struct{}, 3)
	h.setAssess(func(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
		started <- struct{}{}
		<-release
		return okAssessment(ctx, req)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- httpapi.Serve(ctx, ln, h.handler, httpapi.ServeOptions{
			ReadHeaderTimeout: time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 10 * time.Second,
			IdleTimeout: time.Second, ShutdownTimeout: 10 * time.Second,
		})
	}()
	url := "http://" + ln.Addr().String()
	type answer struct {
		status int
		body   string
		err    error
	}
	answers := make(chan answer, 3)
	for i := range 3 {
		go func() {
			addr := "0x000000000000000000000000000000000000000" + string("123"[i])
			req, _ := http.NewRequest("POST", url+"/api/v1/scan/", strings.NewReader(`{"address":"`+addr+`"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+key)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			answers <- answer{status: res.StatusCode, body: string(b)}
		}()
	}
	for range 3 {
		<-started
	}
	stop() // shutdown begins with three scans in flight
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), 100*time.Millisecond)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("listener still accepting after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	for range 3 {
		a := <-answers
		if a.err != nil || a.status != 200 {
			t.Errorf("in-flight scan: %d %v %s", a.status, a.err, a.body)
		}
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	keys, _ := h.keys.List(context.Background())
	rows, _, err := h.store.FindScans(context.Background(), store.ScanFilter{KeyID: keys[0].ID, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Errorf("%d history rows after shutdown, want 3", len(rows))
	}
}
