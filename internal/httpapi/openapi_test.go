package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

const docURL = "https://tokenrisk.invalid/openapi.json"

// openAPIDoc is the parsed document plus a compiler that resolves JSON
// pointers into it.
type openAPIDoc struct {
	raw      map[string]any
	compiler *jsonschema.Compiler
}

func loadOpenAPI(t *testing.T) *openAPIDoc {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(httpapi.OpenAPI()))
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := doc.(map[string]any)
	if !ok || raw["openapi"] != "3.1.0" {
		t.Fatalf("not an OpenAPI 3.1 document: %v", raw["openapi"])
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(docURL, doc); err != nil {
		t.Fatal(err)
	}
	return &openAPIDoc{raw: raw, compiler: c}
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// operation finds the documented operation of method on template, or, for
// a method the path does not document (a 405), any of its operations.
func (d *openAPIDoc) operation(template, method string) (string, map[string]any, error) {
	paths := d.raw["paths"].(map[string]any)
	item, ok := paths[template].(map[string]any)
	if !ok {
		return "", nil, fmt.Errorf("path %s is not documented", template)
	}
	m := strings.ToLower(method)
	if op, ok := item[m].(map[string]any); ok {
		return m, op, nil
	}
	for _, m := range []string{"get", "post", "delete"} {
		if op, ok := item[m].(map[string]any); ok {
			return m, op, nil
		}
	}
	return "", nil, fmt.Errorf("path %s has no operation", template)
}

// validate checks one real response against the schema the document gives
// for its path, method, status and media type.
func (d *openAPIDoc) validate(template, method string, res response) error {
	m, op, err := d.operation(template, method)
	if err != nil {
		return err
	}
	status := strconv.Itoa(res.StatusCode)
	resp, ok := op["responses"].(map[string]any)[status].(map[string]any)
	if !ok {
		return fmt.Errorf("%s %s: status %s is not documented (body %s)", method, template, status, res.body)
	}
	headers, _ := resp["headers"].(map[string]any)
	for name := range headers {
		// A scan answered to an unlimited plan has no window to describe.
		optional := status == "200" && strings.HasPrefix(name, "RateLimit-")
		if !optional && res.Header.Get(name) == "" {
			return fmt.Errorf("%s %s %s: documented header %s missing", method, template, status, name)
		}
	}
	if _, ok := resp["content"]; !ok {
		if len(res.body) > 0 {
			return fmt.Errorf("%s %s %s: documented without a body, got %s", method, template, status, res.body)
		}
		return nil
	}
	mt, _, err := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if err != nil {
		return fmt.Errorf("%s %s %s: content type %q: %w", method, template, status, res.Header.Get("Content-Type"), err)
	}
	if _, ok := resp["content"].(map[string]any)[mt]; !ok {
		return fmt.Errorf("%s %s %s: media type %s is not documented", method, template, status, mt)
	}
	ptr := "#/paths/" + pointerEscape(template) + "/" + m + "/responses/" + status + "/content/" + pointerEscape(mt) + "/schema"
	sch, err := d.compiler.Compile(docURL + ptr)
	if err != nil {
		return fmt.Errorf("compile %s: %w", ptr, err)
	}
	var docs [][]byte
	switch mt {
	case "application/x-ndjson":
		for _, line := range bytes.Split(bytes.TrimSpace(res.body), []byte("\n")) {
			docs = append(docs, line)
		}
	case "text/csv", "text/plain":
		s, _ := json.Marshal(string(res.body))
		docs = append(docs, s)
	default:
		docs = append(docs, res.body)
	}
	for _, b := range docs {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("%s %s %s: body is not JSON: %w: %s", method, template, status, err, b)
		}
		if err := sch.Validate(inst); err != nil {
			return fmt.Errorf("%s %s %s: %v\nbody: %s", method, template, status, err, b)
		}
	}
	return nil
}

func TestOpenAPIDescribesRealResponses(t *testing.T) {
	doc := loadOpenAPI(t)
	plans := auth.DefaultPlans()
	tiny := plans["pro"]
	tiny.DailyQuota = 1
	plans["pro"] = tiny
	h := newHarness(t, harnessOptions{plans: plans, cacheTTL: time.Minute, maxConcurrent: 1, queueLimit: -1})
	free, pro, premium := h.key("free"), h.key("pro"), h.key("premium")
	body := `{"address":"` + pepe + `"}`
	fail := func(code fault.Code) func(context.Context, scan.Request) (*scan.Assessment, error) {
		return func(context.Context, scan.Request) (*scan.Assessment, error) { return nil, fault.Errorf(code, "x") }
	}

	first := h.scan(premium, pepe).report(t)
	type call struct {
		template, method, path, key, body string
		headers                           []string
		assess                            func(context.Context, scan.Request) (*scan.Assessment, error)
		want                              int
	}
	calls := []call{
		{"/api/v1/scan/", "POST", "/api/v1/scan/", premium, body, nil, nil, 200},
		{"/api/v1/scan", "POST", "/api/v1/scan", free, body, nil, nil, 200},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, `{"address":1}`, nil, nil, 400},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", "", body, nil, nil, 401},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, `{"address":"` + bonk + `"}`, nil, nil, 403},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, `{"address":"0x0000000000000000000000000000000000000404"}`, nil, fail(fault.TokenNotFound), 404},
		{"/api/v1/scan/", "GET", "/api/v1/scan/", free, "", nil, nil, 405},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, `{"address":"` + strings.Repeat(" ", 5000) + `"}`, nil, nil, 413},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, body, []string{"Content-Type", "text/plain"}, nil, 415},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, `{"address":"0x0000000000000000000000000000000000000422"}`, nil, fail(fault.NotAToken), 422},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", pro, body, nil, nil, 200},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", pro, body, nil, nil, 429},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, `{"address":"0x0000000000000000000000000000000000000500"}`, nil,
			func(context.Context, scan.Request) (*scan.Assessment, error) { return nil, fmt.Errorf("boom") }, 500},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, `{"address":"0x0000000000000000000000000000000000000502"}`, nil, fail(fault.UpstreamError), 502},
		{"/api/v1/scan/", "POST", "/api/v1/scan/", free, `{"address":"0x0000000000000000000000000000000000000504"}`, nil, fail(fault.UpstreamTimeout), 504},
		{"/api/v1/scans", "GET", "/api/v1/scans?limit=1", premium, "", nil, nil, 200},
		{"/api/v1/scans", "GET", "/api/v1/scans?level=nope", premium, "", nil, nil, 400},
		{"/api/v1/scans", "GET", "/api/v1/scans", "", "", nil, nil, 401},
		{"/api/v1/scans", "GET", "/api/v1/scans", free, "", nil, nil, 403},
		{"/api/v1/scans", "PUT", "/api/v1/scans", free, "", nil, nil, 405},
		{"/api/v1/scans/export", "GET", "/api/v1/scans/export?format=csv", premium, "", nil, nil, 200},
		{"/api/v1/scans/export", "GET", "/api/v1/scans/export?format=ndjson", premium, "", nil, nil, 200},
		{"/api/v1/scans/export", "GET", "/api/v1/scans/export?format=pdf", premium, "", nil, nil, 400},
		{"/api/v1/scans/export", "GET", "/api/v1/scans/export?format=csv", pro, "", nil, nil, 403},
		{"/api/v1/scans/{scan_id}", "GET", "/api/v1/scans/" + first.ScanID, premium, "", nil, nil, 200},
		{"/api/v1/scans/{scan_id}", "GET", "/api/v1/scans/scn_nope", premium, "", nil, nil, 404},
		{"/api/v1/usage", "GET", "/api/v1/usage", free, "", nil, nil, 200},
		{"/api/v1/usage", "GET", "/api/v1/usage", premium, "", nil, nil, 200},
		{"/api/v1/usage", "GET", "/api/v1/usage", "trk_x", "", nil, nil, 401},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, body, nil, nil, 201},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, body, nil, nil, 200},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, `{"address":"0x12"}`, nil, nil, 400},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", free, body, nil, nil, 403},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", "", body, nil, nil, 401},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, `{"address":"0x0000000000000000000000000000000000000404"}`, nil, fail(fault.TokenNotFound), 404},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, body, []string{"Content-Type", "text/plain"}, nil, 415},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, `{"address":"` + strings.Repeat(" ", 5000) + `"}`, nil, nil, 413},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, `{"address":"0x0000000000000000000000000000000000000422"}`, nil, fail(fault.NotAToken), 422},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, `{"address":"0x0000000000000000000000000000000000000500"}`, nil,
			func(context.Context, scan.Request) (*scan.Assessment, error) { return nil, fmt.Errorf("boom") }, 500},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, `{"address":"0x0000000000000000000000000000000000000502"}`, nil, fail(fault.UpstreamError), 502},
		{"/api/v1/watchlist", "POST", "/api/v1/watchlist", premium, `{"address":"0x0000000000000000000000000000000000000504"}`, nil, fail(fault.UpstreamTimeout), 504},
		{"/api/v1/watchlist", "GET", "/api/v1/watchlist", premium, "", nil, nil, 200},
		{"/api/v1/watchlist", "GET", "/api/v1/watchlist", pro, "", nil, nil, 403},
		{"/api/v1/watchlist", "PUT", "/api/v1/watchlist", premium, "", nil, nil, 405},
		{"/api/v1/watchlist/{id}", "DELETE", "/api/v1/watchlist/wat_nope", premium, "", nil, nil, 404},
		{"/api/v1/watchlist/{id}", "DELETE", "/api/v1/watchlist/wat_nope", "", "", nil, nil, 401},
		{"/api/v1/watchlist/{id}", "DELETE", "/api/v1/watchlist/wat_nope", free, "", nil, nil, 403},
		{"/api/v1/watchlist/{id}", "GET", "/api/v1/watchlist/wat_nope", premium, "", nil, nil, 405},
		{"/api/v1/flags", "GET", "/api/v1/flags", "", "", nil, nil, 200},
		{"/api/v1/flags", "POST", "/api/v1/flags", "", "{}", nil, nil, 405},
		{"/api/v1/openapi.json", "GET", "/api/v1/openapi.json", "", "", nil, nil, 200},
		{"/healthz", "GET", "/healthz", "", "", nil, nil, 200},
		{"/readyz", "GET", "/readyz", "", "", nil, nil, 200},
		{"/metrics", "GET", "/metrics", "", "", nil, nil, 200},
	}
	validated := map[string]bool{}
	for _, c := range calls {
		if c.assess != nil {
			h.setAssess(c.assess)
		}
		res := h.request(c.method, c.path, c.key, c.body, c.headers...)
		h.setAssess(okAssessment)
		if res.StatusCode != c.want {
			t.Errorf("%s %s: status %d, want %d: %s", c.method, c.path, res.StatusCode, c.want, res.body)
			continue
		}
		if err := doc.validate(c.template, c.method, res); err != nil {
			t.Error(err)
			continue
		}
		validated[strings.ToLower(c.method)+" "+c.template] = true
	}

	// 204: a real entry deleted.
	var entry httpapi.WatchEntry
	if res := h.request("GET", "/api/v1/watchlist", premium, ""); res.StatusCode == 200 {
		var list httpapi.WatchList
		if err := json.Unmarshal(res.body, &list); err != nil || len(list.Watches) == 0 {
			t.Fatalf("watchlist %s: %v", res.body, err)
		}
		entry = list.Watches[0]
	}
	if res := h.request("DELETE", "/api/v1/watchlist/"+entry.ID, premium, ""); res.StatusCode != 204 {
		t.Errorf("delete %s: %d %s, want 204", entry.ID, res.StatusCode, res.body)
	} else if err := doc.validate("/api/v1/watchlist/{id}", "DELETE", res); err != nil {
		t.Error(err)
	} else {
		validated["delete /api/v1/watchlist/{id}"] = true
	}

	validateWebhookCalls(t, h, doc, premium, free, validated)

	// 503 overloaded: the only slot is held and nobody may wait.
	release := make(chan struct{})
	started := make(chan struct{})
	h.setAssess(func(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
		close(started)
		<-release
		return okAssessment(ctx, req)
	})
	done := make(chan response)
	go func() { done <- h.scan(premium, "0x0000000000000000000000000000000000000503") }()
	<-started
	res := h.scan(free, "0x0000000000000000000000000000000000000513")
	close(release)
	<-done
	if res.StatusCode != 503 {
		t.Errorf("overloaded: %d %s", res.StatusCode, res.body)
	} else if err := doc.validate("/api/v1/scan/", "POST", res); err != nil {
		t.Error(err)
	}
	// The readiness failure.
	h.store.Close()
	if res := h.request("GET", "/readyz", "", ""); res.StatusCode != 503 {
		t.Errorf("readyz with the store closed: %d %s, want 503", res.StatusCode, res.body)
	} else if err := doc.validate("/readyz", "GET", res); err != nil {
		t.Error(err)
	}

	// Every documented operation was exercised.
	for path, item := range doc.raw["paths"].(map[string]any) {
		for m := range item.(map[string]any) {
			if !validated[m+" "+path] {
				t.Errorf("%s %s is documented but no real response was validated", m, path)
			}
		}
	}
	// Every fault code the server can answer is in the Problem schema.
	codes := doc.raw["components"].(map[string]any)["schemas"].(map[string]any)["Problem"].(map[string]any)["properties"].(map[string]any)["code"].(map[string]any)["enum"].([]any)
	for c := range statusCodes() {
		if !slices.Contains(codes, any(string(c))) {
			t.Errorf("code %s missing from the Problem schema", c)
		}
	}
}

func statusCodes() map[fault.Code]int {
	out := map[fault.Code]int{}
	for _, c := range []fault.Code{fault.InvalidJSON, fault.InvalidAddress, fault.InvalidChecksum, fault.InvalidRequest, fault.InvalidWebhookURL,
		fault.Unauthorized, fault.PlanForbidden, fault.NotFound, fault.TokenNotFound, fault.MethodNotAllowed, fault.RequestTimeout,
		fault.BodyTooLarge, fault.UnsupportedMediaType, fault.NotAToken, fault.RateLimited, fault.QuotaExceeded,
		fault.Overloaded, fault.UpstreamError, fault.UpstreamTimeout, fault.Unavailable, fault.Internal} {
		out[c] = httpapi.StatusOf(c)
	}
	return out
}

// TestOpenAPINamesEveryCheck: the CheckName enum is the catalogue's list
// of checks, so that unchecked[] and not_configured[] always validate.
func TestOpenAPINamesEveryCheck(t *testing.T) {
	doc := loadOpenAPI(t)
	enum := doc.raw["components"].(map[string]any)["schemas"].(map[string]any)["CheckName"].(map[string]any)["enum"].([]any)
	var got, want []string
	for _, e := range enum {
		got = append(got, e.(string))
	}
	for _, c := range risk.NewCatalogue().Checks() {
		want = append(want, c.Name)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("CheckName enum %v, catalogue checks %v", got, want)
	}
}
