package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

func TestDecodeScanRequest(t *testing.T) {
	tests := []struct {
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeScanRequest(http.MaxBytesReader(httptest.NewRecorder(), io.NopCloser(strings.NewReader(tt.body)), maxBody))
			if tt.code != "" {
				if fault.CodeOf(err) != tt.code {
					t.Fatalf("err %v, want code %s", err, tt.code)
				}
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

// FuzzDecodeScanRequest: any body either yields an address or a client
// error with a 4xx code and a message that does not echo unbounded input.
func FuzzDecodeScanRequest(f *testing.F) {
	for _, s := range []string{`{"address":"0x6982508145454Ce325dDbE47a25d4ec3d2311933"}`, `{}`, `{"address":1}`,
		`{"a":"b"}`, `{"address":"x"} {}`, `{"address":"\u0000"}`, "\xff\xfe", `{"address":"` + strings.Repeat("9", 5000) + `"}`} {
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
			if msg := fault.MessageOf(err); len(msg) > 200 {
				t.Fatalf("message of %d bytes: %q", len(msg), msg)
			}
			return
		}
		if len(body) > maxBody || len(addr) > len(body) {
			t.Fatalf("accepted %d-byte body, address %q", len(body), addr)
		}
	})
}
