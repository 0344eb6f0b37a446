package webhook

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// addressCases are judged addresses: want is a part of the refusal, ""
// an address the guard lets through. Every registry entry has cases at
// its first and last address (TestEveryRangeHasCases keeps it so).
var addressCases = []struct{ addr, want string }{
	// IPv4 special-purpose registry
	{"0.0.0.0", "unspecified"},
	{"0.255.255.255", "'this network'"},
	{"10.0.0.0", "private"},
	{"10.255.255.255", "private"},
	{"100.64.0.0", "carrier-grade NAT"},
	{"100.127.255.255", "carrier-grade NAT"},
	{"100.100.100.200", "cloud metadata"},
	{"127.0.0.0", "loopback"},
	{"127.255.255.255", "loopback"},
	{"169.254.0.0", "link-local"},
	{"169.254.255.255", "link-local"},
	{"169.254.169.254", "cloud metadata"},
	{"172.16.0.0", "private"},
	{"172.31.255.255", "private"},
	{"192.0.0.0", "service continuity"},
	{"192.0.0.7", "service continuity"},
	{"192.0.0.8", "dummy"},
	{"192.0.0.9", ""},  // PCP anycast: globally reachable
	{"192.0.0.10", ""}, // TURN anycast: globally reachable
	{"192.0.0.11", "IETF protocol"},
	{"192.0.0.170", "NAT64/DNS64 discovery"},
	{"192.0.0.171", "NAT64/DNS64 discovery"},
	{"192.0.0.255", "IETF protocol"},
	{"192.0.2.0", "TEST-NET-1"},
	{"192.0.2.255", "TEST-NET-1"},
	{"192.31.196.0", ""},
	{"192.31.196.255", ""},
	{"192.52.193.0", ""},
	{"192.52.193.255", ""},
	{"192.88.99.0", "6to4 relay"},
	{"192.88.99.255", "6to4 relay"},
	{"192.168.0.0", "private"},
	{"192.168.255.255", "private"},
	{"192.175.48.0", ""},
	{"192.175.48.255", ""},
	{"198.18.0.0", "benchmarking"},
	{"198.19.255.255", "benchmarking"},
	{"198.51.100.0", "TEST-NET-2"},
	{"198.51.100.255", "TEST-NET-2"},
	{"203.0.113.0", "TEST-NET-3"},
	{"203.0.113.255", "TEST-NET-3"},
	{"224.0.0.0", "multicast"},
	{"239.255.255.255", "multicast"},
	{"240.0.0.0", "reserved"},
	{"255.255.255.254", "reserved"},
	{"255.255.255.255", "broadcast"},
	// ordinary public IPv4 beside the ranges
	{"93.184.216.34", ""},
	{"9.255.255.255", ""},
	{"11.0.0.0", ""},
	{"100.63.255.255", ""},
	{"100.128.0.0", ""},
	{"172.32.0.0", ""},
	{"192.0.3.0", ""},
	{"198.17.255.255", ""},
	{"198.20.0.0", ""},
	{"223.255.255.255", ""},

	// IPv6 special-purpose registry
	{"::1", "loopback"},
	{"::", "unspecified"},
	{"::ffff:0.0.0.0", "IPv4-mapped form of an unspecified"},
	{"::ffff:127.0.0.1", "IPv4-mapped form of a loopback"},
	{"::ffff:255.255.255.255", "IPv4-mapped form of the broadcast"},
	{"::ffff:93.184.216.34", ""}, // the IPv4 address itself on a dual-stack socket
	{"64:ff9b::", "NAT64 form of an unspecified"},
	{"64:ff9b::a9fe:a9fe", "NAT64 form of a cloud metadata"},
	{"64:ff9b::10.1.1.1", "NAT64 form of a private"},
	{"64:ff9b::ffff:ffff", "NAT64 form of the broadcast"},
	{"64:ff9b::93.184.216.34", ""}, // the well-known prefix is globally reachable
	{"64:ff9b:1::", "local-use NAT64"},
	{"64:ff9b:1::a9fe:a9fe", "local-use NAT64 form of a cloud metadata"},
	{"64:ff9b:1::93.184.216.34", "local-use NAT64 address (carrying 93.184.216.34)"},
	{"64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "local-use NAT64"},
	{"100::", "discard-only"},
	{"100::ffff:ffff:ffff:ffff", "discard-only"},
	{"100:0:0:1::", "dummy"},
	{"100:0:0:1:ffff:ffff:ffff:ffff", "dummy"},
	{"2001::", "Teredo"},
	{"2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo form of a loopback address (127.0.0.1)"},
	{"2001:0:4136:e378:8000:63bf:a247:27dd", "Teredo address (carrying 93.184.216.34)"},
	{"2001:0:ffff:ffff:ffff:ffff:ffff:ffff", "Teredo"},
	{"2001:1::", "IETF protocol"},
	{"2001:1::1", ""},
	{"2001:1::2", ""},
	{"2001:1::3", ""},
	{"2001:1::4", "IETF protocol"},
	{"2001:2::", "benchmarking"},
	{"2001:2:0:ffff:ffff:ffff:ffff:ffff", "benchmarking"},
	{"2001:3::", ""},
	{"2001:3:ffff:ffff:ffff:ffff:ffff:ffff", ""},
	{"2001:4:112::", ""},
	{"2001:4:112:ffff:ffff:ffff:ffff:ffff", ""},
	{"2001:10::", "ORCHID"},
	{"2001:1f:ffff:ffff:ffff:ffff:ffff:ffff", "ORCHID"},
	{"2001:20::", ""},
	{"2001:2f:ffff:ffff:ffff:ffff:ffff:ffff", ""},
	{"2001:30::", ""},
	{"2001:3f:ffff:ffff:ffff:ffff:ffff:ffff", ""},
	{"2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", "IETF protocol"},
	{"2001:db8::", "documentation"},
	{"2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "documentation"},
	{"2002::", "6to4 form of an unspecified"},
	{"2002:c0a8:101::1", "6to4 form of a private address (192.168.1.1)"},
	{"2002:7f00:1::", "6to4 form of a loopback"},
	{"2002:5db8:d822::1", ""}, // 6to4 of a public address
	{"2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "6to4 form of the broadcast"},
	{"2620:4f:8000::", ""},
	{"2620:4f:8000:ffff:ffff:ffff:ffff:ffff", ""},
	{"3fff::", "documentation"},
	{"3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", "documentation"},
	{"5f00::", "segment routing"},
	{"5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "segment routing"},
	{"fc00::", "unique-local"},
	{"fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "unique-local"},
	{"fd00:ec2::254", "cloud metadata"},
	{"fe80::", "link-local"},
	{"febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "link-local"},
	{"fec0::", "site-local"},
	{"fec0::1", "site-local"},
	{"feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "site-local"},
	{"ff00::", "multicast"},
	{"ff02::1", "multicast"},
	{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "multicast"},
	// embedded forms outside the special-purpose registry
	{"::127.0.0.1", "IPv4-compatible form of a loopback"},
	{"::93.184.216.34", "IPv4-compatible address (carrying 93.184.216.34)"},
	{"::ffff:0:7f00:1", "SIIT IPv4-translated form of a loopback"},
	{"::ffff:0:5db8:d822", "SIIT IPv4-translated address (carrying 93.184.216.34)"},
	// reserved IPv6 space outside 2000::/3
	{"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved"},
	{"4000::", "reserved"},
	{"e000::1", "reserved"},
	{"::1:0:0:1", "reserved"},
	// ordinary global unicast IPv6
	{"2000::", ""},
	{"2001:200::1", ""},
	{"2606:2800:220:1:248:1893:25c8:1946", ""},
	{"3ffe::1", ""},
	{"3fff:1000::", ""},
}

func TestForbiddenAddr(t *testing.T) {
	for _, tc := range addressCases {
		got := forbiddenAddr(netip.MustParseAddr(tc.addr))
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s refused as %q, want allowed", tc.addr, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s: %q, want a refusal naming %q", tc.addr, got, tc.want)
		}
	}
}

// TestEveryRangeHasCases: each registry entry's first and last address
// are among the cases (an entry added without cases fails here).
func TestEveryRangeHasCases(t *testing.T) {
	judged := map[netip.Addr]bool{}
	for _, tc := range addressCases {
		judged[netip.MustParseAddr(tc.addr)] = true
	}
	for _, table := range [][]special{ipv4Special, ipv6Special} {
		for _, s := range table {
			first, last := s.prefix.Masked().Addr(), lastAddr(s.prefix)
			if !judged[first] || !judged[last] {
				t.Errorf("%s (%s): no case at %s or %s", s.prefix, s.name, first, last)
			}
		}
	}
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 1 << (7 - i%8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// TestControlRefusesEmbedded: the connect-time hook (the last check, on
// the address handed to the kernel) refuses every embedded form too.
func TestControlRefusesEmbedded(t *testing.T) {
	g := Guard{}
	for _, tc := range addressCases {
		ap := netip.AddrPortFrom(netip.MustParseAddr(tc.addr), 443).String()
		err := g.control("tcp", ap, nil)
		var ge *GuardError
		if tc.want == "" {
			if err != nil {
				t.Errorf("control(%s) = %v, want allowed", ap, err)
			}
			continue
		}
		if !errors.As(err, &ge) || !strings.Contains(ge.Reason, tc.want) {
			t.Errorf("control(%s) = %v, want a refusal naming %q", ap, err, tc.want)
		}
	}
	if _, err := g.DialContext(context.Background(), "tcp", "[64:ff9b:1::a9fe:a9fe]:443"); err == nil ||
		!strings.Contains(err.Error(), "local-use NAT64") {
		t.Errorf("DialContext to a local-use NAT64 form of the metadata address: %v", err)
	}
}

func FuzzForbiddenAddr(f *testing.F) {
	for _, tc := range addressCases {
		b := netip.MustParseAddr(tc.addr).As16()
		f.Add(b[:])
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) != 16 {
			return
		}
		ip := netip.AddrFrom16([16]byte(raw))
		// The mapped form and the IPv4 address are judged alike.
		if ip.Is4In6() && (forbiddenAddr(ip) == "") != (forbiddenAddr(ip.Unmap()) == "") {
			t.Errorf("%s and %s judged differently", ip, ip.Unmap())
		}
		// An allowed IPv6 address is global unicast or carries an allowed IPv4 address.
		if !ip.Is4In6() && forbiddenAddr(ip) == "" && !globalUnicast.Contains(ip) {
			if _, v4, ok := embedded(ip); !ok || forbiddenAddr(v4) != "" {
				t.Errorf("%s allowed outside global unicast", ip)
			}
		}
	})
}
