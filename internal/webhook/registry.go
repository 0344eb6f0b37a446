package webhook

import (
	"net/netip"
)

// special is one entry of the IANA special-purpose address registries
// (iana-ipv4-special-registry, iana-ipv6-special-registry; RFC 6890), or
// of the address-space registries where they set a range apart.
type special struct {
	prefix netip.Prefix
	name   string
	// global is the registry's "Globally Reachable" column; an entry whose
	// column is N/A (6to4, Teredo) is judged by the IPv4 address it
	// carries, see embedded.
	global bool
}

func sp(prefix, name string, global bool) special {
	return special{netip.MustParsePrefix(prefix), name, global}
}

// ipv4Special is the IPv4 special-purpose registry, with the multicast
// space (iana-multicast-addresses) beside it. The most specific entry
// containing an address decides (192.0.0.9 is globally reachable inside
// the non-global 192.0.0.0/24).
var ipv4Special = []special{
	sp("0.0.0.0/8", "a 'this network' address", false),
	sp("0.0.0.0/32", "an unspecified address", false),
	sp("10.0.0.0/8", "a private address", false),
	sp("100.64.0.0/10", "a carrier-grade NAT (shared) address", false),
	sp("127.0.0.0/8", "a loopback address", false),
	sp("169.254.0.0/16", "a link-local address", false),
	sp("172.16.0.0/12", "a private address", false),
	sp("192.0.0.0/24", "an IETF protocol address", false),
	sp("192.0.0.0/29", "an IPv4 service continuity address", false),
	sp("192.0.0.8/32", "the IPv4 dummy address", false),
	sp("192.0.0.9/32", "the PCP anycast address", true),
	sp("192.0.0.10/32", "the TURN anycast address", true),
	sp("192.0.0.170/31", "a NAT64/DNS64 discovery address", false),
	sp("192.0.2.0/24", "a documentation address (TEST-NET-1)", false),
	sp("192.31.196.0/24", "an AS112 address", true),
	sp("192.52.193.0/24", "an AMT address", true),
	sp("192.88.99.0/24", "a deprecated 6to4 relay anycast address", false),
	sp("192.168.0.0/16", "a private address", false),
	sp("192.175.48.0/24", "an AS112 direct delegation address", true),
	sp("198.18.0.0/15", "a benchmarking address", false),
	sp("198.51.100.0/24", "a documentation address (TEST-NET-2)", false),
	sp("203.0.113.0/24", "a documentation address (TEST-NET-3)", false),
	sp("224.0.0.0/4", "a multicast address", false),
	sp("240.0.0.0/4", "a reserved address", false),
	sp("255.255.255.255/32", "the broadcast address", false),
}

// ipv6Special is the IPv6 special-purpose registry, with the ranges the
// IPv6 address-space registry keeps outside global unicast (everything
// outside 2000::/3 is reserved, unique-local, link-local, site-local or
// multicast: see outsideGlobalUnicast).
var ipv6Special = []special{
	sp("::1/128", "a loopback address", false),
	sp("::/128", "an unspecified address", false),
	sp("::ffff:0:0/96", "an IPv4-mapped address", false),
	sp("64:ff9b::/96", "a NAT64 address", true),
	sp("64:ff9b:1::/48", "a local-use NAT64 address", false),
	sp("100::/64", "a discard-only address", false),
	sp("100:0:0:1::/64", "a dummy IPv6 address", false),
	sp("2001::/23", "an IETF protocol address", false),
	sp("2001::/32", "a Teredo address", false),
	sp("2001:1::1/128", "the PCP anycast address", true),
	sp("2001:1::2/128", "the TURN anycast address", true),
	sp("2001:1::3/128", "the DNS-SD SRP anycast address", true),
	sp("2001:2::/48", "a benchmarking address", false),
	sp("2001:3::/32", "an AMT address", true),
	sp("2001:4:112::/48", "an AS112 address", true),
	sp("2001:10::/28", "a deprecated ORCHID address", false),
	sp("2001:20::/28", "an ORCHIDv2 address", true),
	sp("2001:30::/28", "a drone remote ID address", true),
	sp("2001:db8::/32", "a documentation address", false),
	sp("2002::/16", "a 6to4 address", true),
	sp("2620:4f:8000::/48", "an AS112 direct delegation address", true),
	sp("3fff::/20", "a documentation address", false),
	sp("5f00::/16", "a segment routing (SRv6) address", false),
	sp("fc00::/7", "a private (unique-local) address", false),
	sp("fe80::/10", "a link-local address", false),
	sp("fec0::/10", "a site-local address", false),
	sp("ff00::/8", "a multicast address", false),
}

// globalUnicast is the only IPv6 space IANA allocates for the Internet.
var globalUnicast = netip.MustParsePrefix("2000::/3")

// lookupSpecial returns the most specific entry of table containing ip.
func lookupSpecial(table []special, ip netip.Addr) (special, bool) {
	var best special
	found := false
	for _, s := range table {
		if s.prefix.Contains(ip) && (!found || s.prefix.Bits() > best.prefix.Bits()) {
			best, found = s, true
		}
	}
	return best, found
}

// embedding is an IPv6 form that carries an IPv4 address which a
// connection to it reaches (through a translator, relay or tunnel).
type embedding struct {
	prefix netip.Prefix
	form   string
	// v4 extracts the carried address from the 16 bytes.
	v4 func(b [16]byte) netip.Addr
	// judged means the form is as reachable as the address it carries
	// (the registry's verdict on the prefix defers to it); otherwise the
	// prefix is refused whatever it carries and the address only names
	// the refusal.
	judged bool
}

func last32(b [16]byte) netip.Addr { return netip.AddrFrom4([4]byte(b[12:16])) }

// embeddings are the IPv6 forms that carry an IPv4 address.
var embeddings = []embedding{
	// IPv4-mapped (RFC 4291 §2.5.5.2): the IPv4 address itself on a dual-stack socket.
	{netip.MustParsePrefix("::ffff:0:0/96"), "IPv4-mapped", last32, true},
	// NAT64 well-known prefix (RFC 6052): a translator reaches the IPv4 address.
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64", last32, true},
	// 6to4 (RFC 3056): bits 16-47 are the relay's IPv4 destination.
	{netip.MustParsePrefix("2002::/16"), "6to4", func(b [16]byte) netip.Addr { return netip.AddrFrom4([4]byte(b[2:6])) }, true},
	// Local-use NAT64 (RFC 8215): a translator inside some network.
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use NAT64", last32, false},
	// SIIT IPv4-translated (RFC 2765): ::ffff:0:a.b.c.d.
	{netip.MustParsePrefix("::ffff:0:0:0/96"), "SIIT IPv4-translated", last32, false},
	// Teredo (RFC 4380): the client's IPv4 address is the last 32 bits inverted.
	{netip.MustParsePrefix("2001::/32"), "Teredo", func(b [16]byte) netip.Addr {
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
	}, false},
	// IPv4-compatible (RFC 4291 §2.5.5.1, deprecated): ::a.b.c.d.
	{netip.MustParsePrefix("::/96"), "IPv4-compatible", last32, false},
}

// embedded returns the IPv4 form ip carries, if any.
func embedded(ip netip.Addr) (embedding, netip.Addr, bool) {
	if !ip.Is6() {
		return embedding{}, netip.Addr{}, false
	}
	b := ip.As16()
	for _, e := range embeddings {
		if e.prefix.Contains(ip) {
			return e, e.v4(b), true
		}
	}
	return embedding{}, netip.Addr{}, false
}
