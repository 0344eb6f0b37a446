package httpapi

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingConn counts the writes that reach the socket.
type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// countingListener wraps what it accepts as Serve's listener does, with
// a countingConn underneath; conns has the last answerConn accepted.
type countingListener struct {
	net.Listener
	buffers *sync.Pool
	writes  atomic.Int64
	conns   chan *answerConn
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	ac := &answerConn{Conn: countingConn{Conn: c, writes: &l.writes}, buffers: l.buffers}
	select {
	case l.conns <- ac:
	default:
	}
	return ac, nil
}

// serveCounting serves h with ConnContext as Serve sets it, over a
// counting listener.
func serveCounting(t *testing.T, h http.Handler) *countingListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln, buffers: newAnswerListener(ln).buffers, conns: make(chan *answerConn, 1)}
	srv := &http.Server{Handler: h, ConnContext: connContext}
	go func() { _ = srv.Serve(cl) }()
	t.Cleanup(func() { _ = srv.Close() })
	return cl
}

// servePlain serves h as net/http does with no answerConn.
func servePlain(t *testing.T, h http.Handler) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln
}

// rawExchange sends each path as a keep-alive GET on one connection and
// returns each response's raw bytes, its Date header blanked.
func rawExchange(t *testing.T, addr string, paths ...string) [][]byte {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	var out [][]byte
	for _, p := range paths {
		if _, err := io.WriteString(c, "GET "+p+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		var raw bytes.Buffer
		length := -1
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("%s: reading headers: %v (got %q)", p, err, raw.String())
			}
			if strings.HasPrefix(line, "Date: ") {
				line = "Date: -\r\n"
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
			raw.WriteString(line)
			if line == "\r\n" {
				break
			}
		}
		if length < 0 {
			t.Fatalf("%s: no Content-Length in %q", p, raw.String())
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(br, body); err != nil {
			t.Fatalf("%s: reading the body: %v", p, err)
		}
		raw.Write(body)
		out = append(out, raw.Bytes())
	}
	return out
}

// answerBody is a scan answer's size: more than net/http's 4 KB buffer.
var answerBody = []byte(`{"report":"` + strings.Repeat("x", 6800) + `"}`)

// answerRoutes answers /whole with writeWholeJSON and /plain with
// writeRawJSON, the same body.
func answerRoutes(s *Server) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/whole", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		s.writeWholeJSON(w, r, http.StatusOK, answerBody)
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		s.writeRawJSON(w, http.StatusOK, answerBody)
	})
	return mux
}

func TestWholeAnswerIsOneWriteAndTheSameBytes(t *testing.T) {
	s := &Server{log: slog.New(slog.DiscardHandler)}
	held := serveCounting(t, answerRoutes(s))
	plain := servePlain(t, answerRoutes(s))
	want := rawExchange(t, plain.Addr().String(), "/plain", "/plain", "/plain")

	paths := []string{"/whole", "/plain", "/whole"}
	// One connection per request, to count each response's writes.
	for i, p := range paths {
		before := held.writes.Load()
		got := rawExchange(t, held.Addr().String(), p)[0]
		if !bytes.Equal(got, want[i]) {
			t.Errorf("%s: answer differs from net/http's own:\n got %.300q\nwant %.300q", p, got, want[i])
		}
		writes := held.writes.Load() - before
		switch {
		case p == "/whole" && writes != 1:
			t.Errorf("%s: %d writes, want the whole answer in 1", p, writes)
		case p == "/plain" && writes < 2:
			t.Errorf("%s: %d writes: a response that did not ask was held", p, writes)
		}
	}

	// On one keep-alive connection: holding one answer does not hold
	// the next.
	got := rawExchange(t, held.Addr().String(), paths...)
	for i := range paths {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("keep-alive answer %d (%s) differs from net/http's own", i, paths[i])
		}
	}
}

// panicOnWriteHeader is a ResponseWriter that panics as the answer's
// status is written.
type panicOnWriteHeader struct{ http.ResponseWriter }

func (w panicOnWriteHeader) WriteHeader(int) { panic("boom") }

func TestPanicWhileHoldingReleasesTheConnection(t *testing.T) {
	s := &Server{log: slog.New(slog.DiscardHandler)}
	h := s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeWholeJSON(panicOnWriteHeader{w}, r, http.StatusOK, answerBody)
	}))
	held := serveCounting(t, h)
	// observe answers the panic with a 500, which must leave the
	// connection: a connection still holding would keep it.
	c, err := net.Dial("tcp", held.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "GET /x HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer after a panic while holding: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusInternalServerError || res.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("got %d %s %s, want the 500 problem", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	ac := <-held.conns
	ac.mu.Lock()
	defer ac.mu.Unlock()
	if ac.held != nil {
		t.Error("the connection still holds its writes after the panic")
	}
}
