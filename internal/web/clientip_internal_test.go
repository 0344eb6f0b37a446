package web

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestClientIP: behind a trusted load balancer each visitor gets its own
// page-scan allowance (the rightmost untrusted X-Forwarded-For hop); a
// connection from anywhere else is counted as itself, whatever header it
// sends, so a visitor cannot pick its own address.
func TestClientIP(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8::/32")}
	tests := []struct {
		name, remote string
		xff          []string
		trusted      []netip.Prefix
		want         string
	}{
		{"no trusted proxies: the header is ignored", "10.1.2.3:5000", []string{"198.51.100.7"}, nil, "10.1.2.3"},
		{"untrusted connection: its claim is ignored", "203.0.113.9:5000", []string{"198.51.100.7"}, trusted, "203.0.113.9"},
		{"one trusted hop", "10.1.2.3:5000", []string{"198.51.100.7"}, trusted, "198.51.100.7"},
		{"spoofed left entries are skipped", "10.1.2.3:5000", []string{"1.1.1.1, 198.51.100.7"}, trusted, "198.51.100.7"},
		{"chained trusted proxies", "10.1.2.3:5000", []string{"198.51.100.7, 10.9.9.9", "10.8.8.8"}, trusted, "198.51.100.7"},
		{"malformed entry stops at the last believable hop", "10.1.2.3:5000", []string{"198.51.100.7, junk, 10.9.9.9"}, trusted, "10.9.9.9"},
		{"trusted proxy without a header", "10.1.2.3:5000", nil, trusted, "10.1.2.3"},
		{"IPv6 proxy, IPv4-mapped client", "[2001:db8::1]:443", []string{"::ffff:198.51.100.7"}, trusted, "198.51.100.7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/token/x", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := clientIP(r, tt.trusted); got != tt.want {
				t.Errorf("clientIP = %s, want %s", got, tt.want)
			}
		})
	}
}
