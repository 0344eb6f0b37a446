package httpapi_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// TestGracefulShutdownFinishesScans: a shutdown that starts while scans
// are in flight lets them finish, answers them and loses no history row;
// new connections are refused.
func TestGracefulShutdownFinishesScans(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("premium")
	started, release := h.holdScans(3)
	addr, stop, served := startServe(t, h)
	url := "http://" + addr
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
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("listener still accepting after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	release()
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

// serveHarness serves h's API through Serve on a loopback listener and
// returns its address; it stops at cleanup.
func serveHarness(t *testing.T, h *harness) string {
	t.Helper()
	addr, stop, served := startServe(t, h)
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return addr
}

// startServe serves h's API through Serve on a loopback listener: stop
// begins the graceful shutdown, served then gives Serve's error.
func startServe(t *testing.T, h *harness) (addr string, stop func(), served <-chan error) {
	t.Helper()
	return startServeWith(t, h, httpapi.ServeOptions{
		ReadHeaderTimeout: time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 10 * time.Second,
		IdleTimeout: 5 * time.Second, ShutdownTimeout: 10 * time.Second,
	})
}

// startServeWith is startServe with other timeouts.
func startServeWith(t *testing.T, h *harness, o httpapi.ServeOptions) (addr string, stop func(), served <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- httpapi.Serve(ctx, ln, h.handler, o)
	}()
	return ln.Addr().String(), cancel, done
}

// TestServedAnswersOnOneConnection: over one keep-alive connection to
// Serve, a scan answer (sent in one write), then errors and other routes
// (written as net/http writes them) all arrive whole, in order.
func TestServedAnswersOnOneConnection(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("premium")
	addr := serveHarness(t, h)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	scanReq := func(key string) string {
		body := `{"address":"` + pepe + `"}`
		return "POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer " + key +
			"\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}
	for i, step := range []struct {
		req         string
		status      int
		contentType string
		has         string
	}{
		{scanReq(key), 200, "application/json", `"overall_risk_score"`},
		{scanReq("trk_nope"), 401, "application/problem+json", `"code":"unauthorized"`},
		{scanReq(key), 200, "application/json", `"overall_risk_score"`},
		{"GET /api/v1/nowhere HTTP/1.1\r\nHost: x\r\n\r\n", 404, "application/problem+json", `"status":404`},
		{"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 200, "application/json", `ok`},
		{scanReq(key), 200, "application/json", `"overall_risk_score"`},
	} {
		if _, err := io.WriteString(c, step.req); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("step %d: body: %v", i, err)
		}
		if res.StatusCode != step.status || res.Header.Get("Content-Type") != step.contentType || !strings.Contains(string(body), step.has) {
			t.Errorf("step %d: %d %s %.200s, want %d %s with %s", i, res.StatusCode, res.Header.Get("Content-Type"), body, step.status, step.contentType, step.has)
		}
		if res.ContentLength >= 0 && int64(len(body)) != res.ContentLength {
			t.Errorf("step %d: %d bytes, Content-Length %d", i, len(body), res.ContentLength)
		}
	}
}

// TestServedHangUpIsClientClosed: through Serve, a client that hangs up
// while its scan waits is logged as 499, not as a server error.
func TestServedHangUpIsClientClosed(t *testing.T) {
	h := newHarness(t, harnessOptions{maxConcurrent: 1})
	started, release := h.holdScans(1)
	defer release()
	free := h.key("free")
	addr := serveHarness(t, h)
	go h.scan(free, "0x0000000000000000000000000000000000000001")
	<-started

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"address":"0x0000000000000000000000000000000000000002"}`
	_, _ = io.WriteString(c, "POST /api/v1/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer "+free+
		"\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
	deadline := time.Now().Add(5 * time.Second)
	for h.engine.Queued() != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	c.Close()
	for !strings.Contains(h.logs.String(), `"status":499`) {
		if time.Now().After(deadline) {
			t.Fatalf("access log has no status 499:\n%s", h.logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if logs := h.logs.String(); strings.Contains(logs, `"status":500`) || strings.Contains(logs, `"level":"ERROR"`) {
		t.Errorf("a hang-up logged as a server error:\n%s", logs)
	}
}
