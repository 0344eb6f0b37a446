package main

import (
	"io"
	"net"
	"sync"
	"testing"
)

// tcpProxy forwards a local port to a backend (PostgreSQL, Redis) and can
// cut it: every open connection is closed and new ones are closed as soon
// as they are accepted, as when the backend's host goes away; or hang it:
// open connections are closed and new ones are accepted but never
// answered, as when the backend is stuck. restore ends either.
type tcpProxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	down  bool
	stuck bool
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

// newProxy starts a proxy to target on 127.0.0.1, stopped at cleanup.
func newProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.wg.Go(p.accept)
	t.Cleanup(func() {
		ln.Close()
		p.cut()
		p.wg.Wait()
	})
	return p
}

// addr is the proxy's host:port.
func (p *tcpProxy) addr() string { return p.ln.Addr().String() }

func (p *tcpProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.down && !p.stuck {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c] = struct{}{}
		stuck := p.stuck
		p.mu.Unlock()
		if stuck {
			p.wg.Go(func() { // swallow what is sent, answer nothing
				defer p.forget(c)
				_, _ = io.Copy(io.Discard, c)
			})
			continue
		}
		p.wg.Go(func() { p.pipe(c) })
	}
}

func (p *tcpProxy) pipe(c net.Conn) {
	defer p.forget(c)
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	if !p.track(up) {
		return
	}
	defer p.forget(up)
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
}

// track registers a backend connection unless the proxy was cut meanwhile.
func (p *tcpProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *tcpProxy) forget(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

// cut closes every connection and refuses new ones.
func (p *tcpProxy) cut() { p.stop(false) }

// hang closes every connection and accepts new ones without answering.
func (p *tcpProxy) hang() { p.stop(true) }

func (p *tcpProxy) stop(stuck bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down, p.stuck = true, stuck
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// restore lets connections through again.
func (p *tcpProxy) restore() {
	p.mu.Lock()
	p.down, p.stuck = false, false
	for c := range p.conns { // the stuck ones
		c.Close()
	}
	clear(p.conns)
	p.mu.Unlock()
}
