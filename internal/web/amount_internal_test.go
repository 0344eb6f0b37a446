package web

import "testing"

func TestFormatUnits(t *testing.T) {
	tests := []struct {
		raw      string
		decimals int
		want     string
	}{
		{"493205242561991545528182081", 18, "493,205,242.56"},
		{"1000000000000000000000000000", 18, "1,000,000,000"},
		{"60829524981162605", 18, "0.06083"},
		{"1", 18, "0.000000000000000001"},
		{"0", 18, "0"},
		{"123", 0, "123"},
		{"1234567", 0, "1,234,567"},
		{"999", 3, "0.999"},
		{"not a number", 18, "not a number"},
	}
	for _, tc := range tests {
		if got := formatUnits(tc.raw, tc.decimals); got != tc.want {
			t.Errorf("formatUnits(%s, %d) = %q, want %q", tc.raw, tc.decimals, got, tc.want)
		}
	}
}

func TestDollars(t *testing.T) {
	for v, want := range map[float64]string{0.004: "< $0.01", 0: "$0.00", 12.345: "$12.35", 121659.04: "$121,659.04", 2.5e9: "$2,500,000,000"} {
		if got := dollars(v); got != want {
			t.Errorf("dollars(%v) = %q, want %q", v, got, want)
		}
	}
}
