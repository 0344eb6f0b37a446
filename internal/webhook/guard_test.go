package webhook_test

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

// dns answers names from a table that a test may change between
// lookups (DNS rebinding); other names go to the system resolver.
type dns struct {
	mu    sync.Mutex
	names map[string][]string
}

func (d *dns) set(name string, ips ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.names[name] = ips
}

func (d *dns) LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error) {
	d.mu.Lock()
	ips, ok := d.names[host]
	d.mu.Unlock()
	if !ok {
		return net.DefaultResolver.LookupIPAddr(ctx, host)
	}
	out := make([]net.IPAddr, len(ips))
	for i, ip := range ips {
		out[i] = net.IPAddr{IP: net.ParseIP(ip)}
	}
	return out, nil
}

// TestGuardRefusesAtRegistration: URLs reaching our own network, other
// schemes or ports are refused with 400 invalid_webhook_url saying why.
func TestGuardRefusesAtRegistration(t *testing.T) {
	st := openSQLite(t, ":memory:")
	defer st.Close()
	resolver := &dns{names: map[string][]string{
		"public.example":  {"93.184.216.34"},
		"mixed.example":   {"93.184.216.34", "10.0.0.7"},
		"mapped.example":  {"::ffff:127.0.0.1"},
		"v6.example":      {"2606:2800:220:1:248:1893:25c8:1946"},
		"ula.example":     {"fd12::1"},
		"metadata6.test":  {"fd00:ec2::254"},
		"nat64.example":   {"64:ff9b::a9fe:a9fe"},
		"unresolvable.ex": {},
	}}
	guard := webhook.Guard{Resolver: resolver}
	s, err := webhook.New(webhook.Options{Store: st, Guard: guard})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ url, reason string }{
		{"https://127.0.0.1/hook", "loopback"},
		{"https://127.0.0.1:8443/hook", "loopback"},
		{"https://10.1.2.3/hook", "private"},
		{"https://192.168.1.1/", "private"},
		{"https://172.16.0.1/", "private"},
		{"https://169.254.169.254/latest/meta-data/", "metadata"},
		{"https://[fd00:ec2::254]/", "metadata"},
		{"https://metadata6.test/", "metadata"},
		{"https://[::1]/", "loopback"},
		{"https://[::ffff:127.0.0.1]/", "IPv4-mapped form of a loopback"},
		{"https://[::ffff:10.0.0.1]/", "IPv4-mapped form of a private"},
		{"https://[::ffff:169.254.169.254]/", "IPv4-mapped form of a cloud metadata"},
		{"https://mapped.example/", "127.0.0.1, a loopback"},
		{"https://nat64.example/", "NAT64"},
		{"https://ula.example/", "private"},
		{"https://0.0.0.0/", "unspecified"},
		{"https://0.1.2.3/", "this network"},
		{"https://[::]/", "unspecified"},
		{"https://224.0.0.1/", "multicast"},
		{"https://100.64.1.1/", "carrier-grade NAT"},
		{"https://localhost/hook", "loopback"}, // the system resolver: a name resolving to loopback
		{"https://mixed.example/", "10.0.0.7, a private address"},
		{"https://unresolvable.ex/", "does not resolve"},
		{"http://public.example/", "http is not allowed"},
		{"ftp://public.example/", "scheme"},
		{"https://public.example:22/", "port 22"},
		{"https://user:pass@public.example/", "credentials"},
		{"/relative", "absolute"},
		{"https://public.example/#frag", "fragment"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			_, _, err := s.Create(context.Background(), "key_a", webhook.CreateRequest{URL: tc.url})
			if err == nil {
				t.Fatal("accepted")
			}
			if fault.CodeOf(err) != fault.InvalidWebhookURL || !strings.Contains(fault.MessageOf(err), tc.reason) {
				t.Errorf("got %s %q, want invalid_webhook_url mentioning %q", fault.CodeOf(err), fault.MessageOf(err), tc.reason)
			}
		})
	}
	for _, url := range []string{"https://public.example/hook", "https://public.example:8443/x", "https://93.184.216.34/",
		"https://v6.example/", "https://[2606:2800:220:1:248:1893:25c8:1946]:443/"} {
		if _, _, err := s.Create(context.Background(), "key_a", webhook.CreateRequest{URL: url}); err != nil {
			t.Errorf("%s refused: %v", url, err)
		}
	}
}

// TestGuardChecksAtConnectTime: a name that resolved to a public address
// at registration and to loopback at delivery (DNS rebinding) fails the
// attempt with the reason in the delivery log, without connecting.
func TestGuardChecksAtConnectTime(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	resolver := &dns{names: map[string][]string{"rebind.example": {"93.184.216.34"}}}
	clk := newClock()
	s := newService(t, st, clk, func(o *webhook.Options) { o.Guard = webhook.Guard{AllowHTTP: true, Resolver: resolver} })
	ep, _ := create(t, s, "key_a", "http://rebind.example/hook")
	resolver.set("rebind.example", "127.0.0.1")
	publish(t, s, "key_a", "evt_1")
	runOnce(t, s)
	d := deliveries(t, s, "key_a", ep.ID)[0]
	if d.State != store.DeliveryPending || len(d.Attempts) != 1 || d.Attempts[0].StatusCode != nil || d.Attempts[0].Error == nil ||
		!strings.Contains(*d.Attempts[0].Error, "rebind.example resolves to 127.0.0.1, a loopback address") {
		t.Fatalf("delivery after rebinding: %+v (error %q)", d, deref(d.Attempts[0].Error))
	}
}

// TestGuardDialRefusesLiterals: the dialer itself refuses forbidden
// literal addresses and ports, whatever called it.
func TestGuardDialRefusesLiterals(t *testing.T) {
	g := webhook.Guard{}
	for _, addr := range []string{"127.0.0.1:443", "[::ffff:127.0.0.1]:443", "169.254.169.254:80", "10.0.0.1:8443", "93.184.216.34:25"} {
		_, err := g.DialContext(context.Background(), "tcp", addr)
		var ge *webhook.GuardError
		if !errors.As(err, &ge) {
			t.Errorf("DialContext(%s) = %v, want a guard refusal", addr, err)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestHTTPRefusedOnceNoLongerAllowed: an http endpoint registered while
// the server allowed http fails its attempts once it no longer does.
func TestHTTPRefusedOnceNoLongerAllowed(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	rc := newReceiver(t, nil)
	clk := newClock()
	ep, _ := create(t, newService(t, st, clk, nil), "key_a", rc.URL)
	strict := newService(t, st, clk, func(o *webhook.Options) { o.Guard = webhook.Guard{AllowPrivate: true} })
	publish(t, strict, "key_a", "evt_1")
	runOnce(t, strict)
	if n := len(rc.requests()); n != 0 {
		t.Fatalf("the receiver got %d requests over http", n)
	}
	d := deliveries(t, strict, "key_a", ep.ID)[0]
	if len(d.Attempts) != 1 || !strings.Contains(deref(d.Attempts[0].Error), "http is not allowed") {
		t.Errorf("attempt %+v", d.Attempts)
	}
}
