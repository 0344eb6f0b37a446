package httpapi

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
)

// net/http writes a response through a 4 KB connection buffer: a 5–7 KB
// scan answer leaves in two write(2)s, the headers and first 4 KB when
// the buffer fills and the rest once the handler returns. Each write is
// a system call and, on loopback or a LAN, a TCP segment the client
// wakes for. answerConn lets a handler hold its connection's writes and
// send the whole answer in one.

// answerListener wraps the TCP connections it accepts in answerConns.
type answerListener struct {
	net.Listener
	// buffers are the []byte connections hold answers in, shared so
	// that an idle keep-alive connection holds none.
	buffers *sync.Pool
}

func newAnswerListener(ln net.Listener) answerListener {
	return answerListener{Listener: ln, buffers: &sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}}
}

func (l answerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if _, ok := c.(*net.TCPConn); ok {
		return &answerConn{Conn: c, buffers: l.buffers}, nil
	}
	// Anything else (a TLS or Unix listener passed to Serve) writes as
	// net/http does.
	return c, err
}

// answerConn is a server connection whose writes can be held and sent
// together. It passes on CloseWrite and ReadFrom, which net/http looks
// for on a TCP connection (a clean close after an error answer;
// sendfile).
type answerConn struct {
	net.Conn
	buffers *sync.Pool
	mu      sync.Mutex
	held    *[]byte // non-nil while holding
}

// hold makes the connection keep what is written to it until send.
func (c *answerConn) hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held == nil {
		c.held = c.buffers.Get().(*[]byte)
	}
}

// send writes what was held in one write and stops holding. It is safe
// to call when not holding.
func (c *answerConn) send() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held == nil {
		return nil
	}
	b := c.held
	c.held = nil
	var err error
	if len(*b) > 0 {
		_, err = c.Conn.Write(*b)
	}
	if cap(*b) <= 64<<10 { // an outsized answer's buffer is not kept
		*b = (*b)[:0]
		c.buffers.Put(b)
	}
	return err
}

func (c *answerConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if c.held != nil {
		*c.held = append(*c.held, p...)
		c.mu.Unlock()
		return len(p), nil
	}
	c.mu.Unlock()
	return c.Conn.Write(p)
}

// CloseWrite half-closes the connection when it can (net/http's close
// after an answer it will not read the rest of the request for).
func (c *answerConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom keeps sendfile for responses written while not holding; a
// held response is copied into the buffer.
func (c *answerConn) ReadFrom(r io.Reader) (int64, error) {
	c.mu.Lock()
	holding := c.held != nil
	c.mu.Unlock()
	if rf, ok := c.Conn.(io.ReaderFrom); ok && !holding {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c}, r) // hides ReadFrom: no recursion
}

// answerConnKey finds a request's answerConn in its context.
type answerConnKey struct{}

// connContext puts an answerConn in the context of the requests it
// carries (http.Server.ConnContext).
func connContext(ctx context.Context, c net.Conn) context.Context {
	if ac, ok := c.(*answerConn); ok {
		return context.WithValue(ctx, answerConnKey{}, ac)
	}
	return ctx
}

// writeWholeJSON writes a JSON answer like writeRawJSON, with its headers
// and body sent in one write(2) when the request came over an
// answerConn; otherwise (tests' recorders, TLS) as writeRawJSON does.
// The connection is released even if writing panics.
func (s *Server) writeWholeJSON(w http.ResponseWriter, r *http.Request, status int, b []byte) {
	c, _ := r.Context().Value(answerConnKey{}).(*answerConn)
	if c == nil {
		s.writeRawJSON(w, status, b)
		return
	}
	c.hold()
	// A failed write is the client gone: net/http finds it on the
	// connection's next use, as it would have.
	defer c.send()
	s.writeRawJSON(w, status, b)
	// Pushes the headers and body out of net/http's buffers into the
	// held ones; Content-Length is set, so nothing is chunked.
	_ = http.NewResponseController(w).Flush()
}
