package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Resolver looks up a host's addresses (*net.Resolver implements it).
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// defaultPorts are the ports an endpoint may use unless any is allowed.
var defaultPorts = []int{443, 80, 8443}

// Guard keeps deliveries off our own network (SSRF): https only, the
// usual ports, and no address of a special-purpose range the IANA
// registries do not list as globally reachable, nor an IPv6 form carrying
// one (NAT64, 6to4, Teredo, SIIT, IPv4-mapped or -compatible), checked
// when registering and again for every address actually connected to
// (against DNS rebinding).
type Guard struct {
	// AllowHTTP accepts http:// endpoints.
	AllowHTTP bool
	// AllowPrivate accepts every address and port (local development
	// and tests, whose receivers listen on loopback at any port).
	AllowPrivate bool
	// Resolver looks hosts up; nil means net.DefaultResolver.
	Resolver Resolver
}

// GuardError is a refusal by the guard; its message says why.
type GuardError struct{ Reason string }

func (e *GuardError) Error() string { return e.Reason }

func refuse(format string, args ...any) error {
	return &GuardError{Reason: fmt.Sprintf(format, args...)}
}

func (g Guard) resolver() Resolver {
	if g.Resolver != nil {
		return g.Resolver
	}
	return net.DefaultResolver
}

// CheckURL validates an endpoint URL at registration: its form, scheme,
// port, and every address its host resolves to now. The error is a
// *GuardError saying why.
func (g Guard) CheckURL(ctx context.Context, raw string) (*url.URL, error) {
	if len(raw) > 2048 {
		return nil, refuse("the URL is longer than 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return nil, refuse("not an absolute URL such as https://example.com/hooks")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !g.AllowHTTP {
			return nil, refuse("http is not allowed: use https")
		}
	default:
		return nil, refuse("scheme %q is not allowed: use https", u.Scheme)
	}
	if u.User != nil {
		return nil, refuse("credentials in the URL are not allowed (use the signature to authenticate us)")
	}
	if u.Fragment != "" {
		return nil, refuse("the URL must not have a fragment")
	}
	host := u.Hostname()
	if _, err := g.port(u); err != nil {
		return nil, err
	}
	ips, err := g.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	for _, ip := range ips {
		if reason := g.forbidden(ip); reason != "" {
			return nil, refuse("%s resolves to %s, %s", host, ip, reason)
		}
	}
	return u, nil
}

func (g Guard) port(u *url.URL) (int, error) {
	p := u.Port()
	if p == "" {
		if u.Scheme == "http" {
			return 80, nil
		}
		return 443, nil
	}
	n, err := strconv.Atoi(p)
	if err != nil || n <= 0 || n > 65535 {
		return 0, refuse("port %q is not a port", p)
	}
	return n, g.checkPort(n)
}

func (g Guard) checkPort(n int) error {
	if g.AllowPrivate || slices.Contains(defaultPorts, n) {
		return nil
	}
	return refuse("port %d is not allowed (443, 80 or 8443)", n)
}

// lookup returns host's addresses: the literal itself or every A/AAAA.
func (g Guard) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{ip}, nil
	}
	addrs, err := g.resolver().LookupIPAddr(ctx, host)
	if err != nil || len(addrs) == 0 {
		return nil, refuse("%s does not resolve", host)
	}
	ips := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		ip, ok := netip.AddrFromSlice(a.IP)
		if !ok {
			return nil, refuse("%s resolves to an invalid address", host)
		}
		// A resolver may give an IPv4 answer in 16 bytes: the same address.
		ips = append(ips, ip.Unmap().WithZone(a.Zone))
	}
	return ips, nil
}

// Metadata services of cloud providers, named in refusals.
var metadataAddrs = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"),
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("100.100.100.200"),
}

// forbidden returns why ip may not be connected to, or "".
func (g Guard) forbidden(ip netip.Addr) string {
	if g.AllowPrivate {
		return ""
	}
	return forbiddenAddr(ip)
}

// forbiddenAddr refuses every address of a special-purpose range the
// IANA registries do not list as globally reachable, every IPv6 address
// outside global unicast, and every IPv6 form that carries a refused
// IPv4 address (a translator, relay or tunnel would reach it).
func forbiddenAddr(ip netip.Addr) string {
	ip = ip.WithZone("")
	if slices.Contains(metadataAddrs, ip) {
		return "a cloud metadata address"
	}
	if ip.Is4() {
		if s, ok := lookupSpecial(ipv4Special, ip); ok && !s.global {
			return s.name
		}
		return ""
	}
	if s, ok := lookupSpecial(ipv6Special, ip); ok && s.prefix.Bits() == 128 && !s.global {
		return s.name // ::1 and :: before the IPv4-compatible form that holds them
	}
	if e, v4, ok := embedded(ip); ok {
		inner := forbiddenAddr(v4)
		switch {
		case inner != "":
			return fmt.Sprintf("the %s form of %s (%s)", e.form, inner, v4)
		case !e.judged:
			return fmt.Sprintf("a %s address (carrying %s), which reaches whatever network translates it", e.form, v4)
		}
		return ""
	}
	if s, ok := lookupSpecial(ipv6Special, ip); ok && !s.global {
		return s.name
	}
	if !globalUnicast.Contains(ip) {
		return "a reserved address (outside IPv6 global unicast 2000::/3)"
	}
	return ""
}

// DialContext connects to addr (host:port) at one of its addresses that
// the guard allows, resolving the host now: an address allowed at
// registration that resolves elsewhere today is refused with the reason.
// Every socket is checked again just before connecting.
func (g Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, refuse("bad address %q", addr)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, refuse("bad port %q", portStr)
	}
	if err := g.checkPort(port); err != nil {
		return nil, err
	}
	ips, err := g.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: 10 * time.Second, Control: g.control}
	var errs []error
	for _, ip := range ips {
		if reason := g.forbidden(ip); reason != "" {
			errs = append(errs, refuse("refused to connect: %s resolves to %s, %s", host, ip, reason))
			continue
		}
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(ip.String(), portStr))
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
	}
	if len(errs) == 1 {
		return nil, errs[0]
	}
	return nil, errors.Join(errs...)
}

// control refuses a socket about to connect to a forbidden address: the
// last check, on the address the kernel is given.
func (g Guard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return refuse("refused to connect to %q: not an address", address)
	}
	if reason := g.forbidden(ap.Addr()); reason != "" {
		return refuse("refused to connect to %s, %s", ap.Addr(), reason)
	}
	return g.checkPort(int(ap.Port()))
}
