package httpapi

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

func TestDecodeScanRequest(t *testing.T) {
	tests := decodeCases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeScanRequest(http.MaxBytesReader(httptest.NewRecorder(), io.NopCloser(strings.NewReader(tt.body)), maxBody))
			if tt.code != "" {
				if fault.CodeOf(err) != tt.code {
					t.Fatalf("err %v, want code %s", err, tt.code)
				}
				t.Logf("%s", fault.MessageOf(err))
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestContentType(t *testing.T) {
	for ct, ok := range map[string]bool{
		"application/json":                true,
		"application/json; charset=utf-8": true,
		"Application/JSON":                true,
		"":                                false,
		"text/json":                       false,
		"application/json-patch+json":     false,
		"multipart/form-data; boundary=x": false,
	} {
		r := httptest.NewRequest("POST", "/", nil)
		r.Header.Set("Content-Type", ct)
		if err := checkJSONContentType(r); (err == nil) != ok {
			t.Errorf("%q: err %v, want ok=%v", ct, err, ok)
		}
	}
}

// decodeCases are the bodies of TestDecodeScanRequest; the fuzzers
// start from them.
var decodeCases = []struct {
	name string
	body string
	want string
	code fault.Code
}{
	{"plain", `{"address":"0xabc"}`, "0xabc", ""},
	{"whitespace around", " \n{\"address\" : \" x \"}\n\t", " x ", ""},
	{"empty body", ``, "", fault.InvalidJSON},
	{"null body", `null`, "", fault.InvalidAddress},
	{"missing field", `{}`, "", fault.InvalidAddress},
	{"null address", `{"address":null}`, "", fault.InvalidAddress},
	{"number", `{"address":7}`, "", fault.InvalidJSON},
	{"array", `[]`, "", fault.InvalidJSON},
	{"unknown field", `{"address":"a","chain":"bsc"}`, "", fault.InvalidJSON},
	{"second object", `{"address":"a"}{"address":"b"}`, "", fault.InvalidJSON},
	{"trailing garbage", `{"address":"a"} x`, "", fault.InvalidJSON},
	{"truncated", `{"address":"a"`, "", fault.InvalidJSON},
	{"syntax", `{address:"a"}`, "", fault.InvalidJSON},
	{"too large", `{"address":"` + strings.Repeat("a", maxBody) + `"}`, "", fault.BodyTooLarge},
	{"duplicate name, last valid", `{"address":"junk","address":"0x6982508145454Ce325dDbE47a25d4ec3d2311933"}`, "", fault.InvalidJSON},
	{"duplicate name, same value", `{"address":"a","address":"a"}`, "", fault.InvalidJSON},
	{"duplicate name, escaped", `{"address":"a","addr\u0065ss":"b"}`, "", fault.InvalidJSON},
	{"upper-case name", `{"ADDRESS":"0x6982508145454Ce325dDbE47a25d4ec3d2311933"}`, "", fault.InvalidJSON},
	{"title-case name", `{"Address":"a"}`, "", fault.InvalidJSON},
	{"invalid UTF-8", "{\"address\":\"a\xff\"}", "", fault.InvalidJSON},
	{"escaped name", `{"addr\u0065ss":"a"}`, "a", ""},
	{"escaped value", `{"address":"\u0030x\u00e9\ud83d\ude00"}`, "0xé😀", ""},
	{"lone surrogate", `{"address":"\ud800"}`, "", fault.InvalidJSON},
	{"nested object", `{"address":{"address":"a"}}`, "", fault.InvalidJSON},
	{"bool", `{"address":true}`, "", fault.InvalidJSON},
	{"deep array", strings.Repeat("[", 100) + strings.Repeat("]", 100), "", fault.InvalidJSON},
	{"BOM", "\ufeff{\"address\":\"a\"}", "", fault.InvalidJSON},
	{"comment", `{"address":"a"/* x */}`, "", fault.InvalidJSON},
	{"trailing comma", `{"address":"a",}`, "", fault.InvalidJSON},
	{"NUL in value", `{"address":"\u0000"}`, "\x00", ""},
}

// FuzzDecodeScanRequest: any body either yields an address or a client
// error with a 4xx code and a bounded message; an accepted body is one
// valid JSON object whose only member is "address", a string, which is
// what was returned.
func FuzzDecodeScanRequest(f *testing.F) {
	for _, c := range decodeCases {
		f.Add([]byte(c.body))
	}
	for _, s := range []string{`{"address":"0x6982508145454Ce325dDbE47a25d4ec3d2311933"}`, `{"a":"b"}`, `{"address":"x"} {}`,
		"\xff\xfe", `{"address":"` + strings.Repeat("9", 5000) + `"}`, `{"address":"So11111111111111111111111111111111111111112"}`,
		`{"address": "a", "Address": "b"}`, `{"\u0061ddress":"a"}`, `{"address":"a"}` + "\n\n", `{"address":"a"} null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		addr, err := decodeScanRequest(http.MaxBytesReader(httptest.NewRecorder(), io.NopCloser(bytes.NewReader(body)), maxBody))
		if err != nil {
			code := fault.CodeOf(err)
			switch code {
			case fault.InvalidJSON, fault.InvalidAddress, fault.BodyTooLarge:
			default:
				t.Fatalf("code %s for %q", code, body)
			}
			if msg := fault.MessageOf(err); len(msg) > 200 || !utf8.ValidString(msg) {
				t.Fatalf("message of %d bytes: %q", len(msg), msg)
			}
			return
		}
		if len(body) > maxBody {
			t.Fatalf("accepted a %d-byte body", len(body))
		}
		var members map[string]any
		if err := stdjson.Unmarshal(body, &members); err != nil || !utf8.Valid(body) {
			t.Fatalf("accepted %q, which encoding/json refuses (%v) or is not UTF-8", body, err)
		}
		if v, ok := members["address"].(string); len(members) != 1 || !ok || v != addr {
			t.Fatalf("accepted %q as %q; its members are %v", body, addr, members)
		}
	})
}

// FuzzScanRequestMembers builds bodies from members rather than bytes, so
// the fuzzer explores names and values: one or two members, names plain
// or \u-escaped, values quoted or raw, with or without trailing data.
// With quoted values and no trailing data the verdict is known exactly:
// accepted only as one member named exactly "address", as its value.
func FuzzScanRequestMembers(f *testing.F) {
	const valid = "0x6982508145454Ce325dDbE47a25d4ec3d2311933"
	f.Add("address", valid, "", "", uint8(0))
	f.Add("address", "junk", "address", valid, uint8(1))
	f.Add("ADDRESS", valid, "", "", uint8(0))
	f.Add("Address", valid, "address", valid, uint8(1))
	f.Add("address", valid, "chain", "bsc", uint8(1))
	f.Add("address", valid, "", "", uint8(2))
	f.Add("address", "a", "address", "b", uint8(3))
	f.Add("address", `"a"`, "", "", uint8(4))
	f.Add("address", `{"address":"a"}`, "", "", uint8(4))
	f.Add("address", valid, "", "", uint8(8))
	f.Add("address", valid, "", "", uint8(16))
	f.Add("addreß", "x", "", "", uint8(0))
	f.Add("address\x00", "x", "", "", uint8(0))
	f.Add("addr\xffess", "\xff", "", "", uint8(2))
	f.Fuzz(func(t *testing.T, n1, v1, n2, v2 string, layout uint8) {
		type member struct{ name, value string }
		ms := []member{{n1, v1}}
		if layout&1 != 0 {
			ms = append(ms, member{n2, v2})
		}
		var b strings.Builder
		if layout&8 != 0 {
			b.WriteString(" \n\t")
		}
		b.WriteByte('{')
		for i, m := range ms {
			if i > 0 {
				b.WriteByte(',')
			}
			if layout&2 != 0 {
				b.WriteString(escapeAll(m.name))
			} else {
				b.WriteString(quote(m.name))
			}
			b.WriteByte(':')
			if layout&4 != 0 {
				b.WriteString(m.value)
			} else {
				b.WriteString(quote(m.value))
			}
		}
		b.WriteByte('}')
		if layout&16 != 0 {
			b.WriteString(" x")
		}
		body := b.String()
		addr, err := decodeScanRequest(http.MaxBytesReader(httptest.NewRecorder(), io.NopCloser(strings.NewReader(body)), maxBody))
		if err != nil {
			if c := fault.CodeOf(err); c != fault.InvalidJSON && c != fault.InvalidAddress && c != fault.BodyTooLarge {
				t.Fatalf("code %s for %q", c, body)
			}
		}
		if layout&(4|16) != 0 {
			return
		}
		// Quoting turns invalid UTF-8 into U+FFFD: that is what was sent.
		name, value := sent(n1), sent(v1)
		switch {
		case len(body) > maxBody:
			if fault.CodeOf(err) != fault.BodyTooLarge {
				t.Fatalf("%d-byte body: err %v, want body_too_large", len(body), err)
			}
		case len(ms) == 1 && name == "address":
			if err != nil || addr != value {
				t.Fatalf("%q: got %q, %v; want %q", body, addr, err, value)
			}
		case err == nil:
			t.Fatalf("%q accepted as %q: duplicate, folded or unknown member", body, addr)
		}
	})
}

// quote encodes s as a JSON string the way a client library would.
func quote(s string) string {
	b, _ := stdjson.Marshal(s)
	return string(b)
}

// escapeAll encodes s as a JSON string of \u escapes only.
func escapeAll(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		r1, r2 := utf16.EncodeRune(r)
		if r1 == utf8.RuneError && r2 == utf8.RuneError {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
	}
	b.WriteByte('"')
	return b.String()
}

// sent is the string a quoted s carries.
func sent(s string) string {
	var out string
	_ = stdjson.Unmarshal([]byte(quote(s)), &out)
	return out
}
