package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/web"
)

// TestHostHeaderMakesNoLink: a forged Host header appears nowhere in the
// page; without a public URL the badge snippets are relative, with one
// every absolute link starts with it.
func TestHostHeaderMakesNoLink(t *testing.T) {
	for _, tc := range []struct{ public, wantHref string }{
		{"", `href="/token/` + pepe + `"`},
		{"https://tokenrisk.example/", `href="https://tokenrisk.example/token/` + pepe + `"`},
	} {
		s := newSiteWith(t, 10, honeypotAssessment("Moon"), web.Deps{PublicURL: tc.public})
		for _, path := range []string{"/token/" + pepe, "/", "/scan?address=" + pepe} {
			res, raw := get(t, s.url+path, "Host", "evil.example")
			body := string(raw)
			if res.StatusCode >= 500 || strings.Contains(body, "evil.example") {
				t.Errorf("public URL %q, %s: %d, the forged host in the page", tc.public, path, res.StatusCode)
			}
			if path != "/token/"+pepe {
				continue
			}
			snippet := strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&quot;", `"`).Replace(body)
			if !strings.Contains(snippet, tc.wantHref) {
				t.Errorf("public URL %q: the badge snippet lacks %s", tc.public, tc.wantHref)
			}
			if tc.public == "" && strings.Contains(snippet, "://"+strings.TrimPrefix(s.url, "http://")) {
				t.Errorf("no public URL: an absolute link to the request's own host")
			}
		}
	}
}

// TestAssetsServeFilesOnly: files are served; the directory and unknown
// names are 404, never a listing.
func TestAssetsServeFilesOnly(t *testing.T) {
	s := newSite(t, 10, honeypotAssessment("Moon"))
	if res, body := get(t, s.url+"/assets/style.css"); res.StatusCode != 200 || len(body) == 0 {
		t.Fatalf("style.css: %d", res.StatusCode)
	}
	for _, path := range []string{"/assets/", "/assets", "/assets/./", "/assets/nope.js", "/assets/style.css/", "/assets/%2e%2e/"} {
		res, body := get(t, s.url+path)
		if res.StatusCode != http.StatusNotFound || strings.Contains(string(body), "app.js") {
			t.Errorf("%s: %d %.80q, want 404 without a listing", path, res.StatusCode, body)
		}
	}
}
