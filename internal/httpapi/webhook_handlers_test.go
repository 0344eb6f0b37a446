package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

func TestWebhooksNeedPremium(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	for _, plan := range []string{"free", "pro"} {
		key := h.key(plan)
		for _, c := range []struct{ method, path, body string }{
			{"POST", "/api/v1/webhooks", `{"url":"https://93.184.216.34/hook"}`},
			{"GET", "/api/v1/webhooks", ""},
			{"GET", "/api/v1/webhooks/whk_x/deliveries", ""},
			{"POST", "/api/v1/webhooks/whk_x/test", ""},
		} {
			res := h.request(c.method, c.path, key, c.body)
			if res.StatusCode != http.StatusForbidden || res.problem(t).Code != "plan_forbidden" {
				t.Errorf("%s key %s %s: %d %s, want 403 plan_forbidden", plan, c.method, c.path, res.StatusCode, res.body)
			}
		}
	}
}

func TestWebhookURLRefused(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("premium")
	for url, reason := range map[string]string{
		"http://127.0.0.1/hook":                    "http is not allowed",
		"https://127.0.0.1/hook":                   "loopback",
		"https://10.0.0.8/":                        "private",
		"https://169.254.169.254/latest/meta-data": "metadata",
		"https://[::ffff:192.168.0.1]/":            "IPv4-mapped",
		"https://localhost/":                       "loopback",
		"https://93.184.216.34:6379/":              "port 6379",
		// issue 22: translation forms and ranges the guard let through
		"https://[64:ff9b:1::a9fe:a9fe]/":                 "local-use NAT64 form of a cloud metadata address",
		"https://[::127.0.0.1]/":                          "IPv4-compatible form of a loopback",
		"https://[::ffff:0:7f00:1]/":                      "SIIT IPv4-translated form of a loopback",
		"https://[fec0::1]/":                              "site-local",
		"https://[2001:0:4136:e378:8000:63bf:a247:27dd]/": "Teredo address (carrying 93.184.216.34)",
		"https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/": "Teredo form of a loopback address (127.0.0.1)",
		"https://[2002:c0a8:101::1]/":                     "6to4 form of a private address (192.168.1.1)",
		"https://192.0.2.10/":                             "TEST-NET-1",
		"https://198.51.100.7/":                           "TEST-NET-2",
		"https://203.0.113.200/":                          "TEST-NET-3",
		"https://192.88.99.1/":                            "6to4 relay",
	} {
		body, _ := json.Marshal(map[string]string{"url": url})
		res := h.request("POST", "/api/v1/webhooks", key, string(body))
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", url, res.StatusCode, res.body)
			continue
		}
		if p := res.problem(t); p.Code != "invalid_webhook_url" || !strings.Contains(p.Detail, reason) {
			t.Errorf("%s: %s %q, want invalid_webhook_url saying %q", url, p.Code, p.Detail, reason)
		}
	}
	for body, code := range map[string]string{
		`{"url":"https://93.184.216.34/","events":["token.nope"]}`: "invalid_request",
		`{"url":"https://93.184.216.34/","secret":"mine"}`:         "invalid_json",
		`{"events":["*"]}`: "invalid_webhook_url",
		`{"url":5}`:        "invalid_json",
	} {
		if res := h.request("POST", "/api/v1/webhooks", key, body); res.StatusCode != 400 || res.problem(t).Code != code {
			t.Errorf("%s: %d %s, want 400 %s", body, res.StatusCode, res.body, code)
		}
	}
}

// TestWebhookAPI: register a real receiver, send it a test event through
// the worker, read the delivery log, rotate the secret, retry, delete.
func TestWebhookAPI(t *testing.T) {
	h := newHarness(t, harnessOptions{webhookGuard: webhook.Guard{AllowHTTP: true, AllowPrivate: true}})
	key, other := h.key("premium"), h.key("premium")
	var (
		mu  sync.Mutex
		got []*http.Request
		bod [][]byte
	)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bod = append(got, r), append(bod, b)
		mu.Unlock()
	}))
	defer rc.Close()

	res := h.request("POST", "/api/v1/webhooks", key, `{"url":"`+rc.URL+`/hook","events":["webhook.test","token.risk_changed"],"description":"bot"}`)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", res.StatusCode, res.body)
	}
	var created httpapi.WebhookCreated
	if err := json.Unmarshal(res.body, &created); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(created.ID, "whk_") || !strings.HasPrefix(created.Secret, "whsec_") || created.URL != rc.URL+"/hook" ||
		!created.Enabled || res.Header.Get("Location") != "/api/v1/webhooks/"+created.ID {
		t.Fatalf("created %+v (Location %q)", created, res.Header.Get("Location"))
	}
	if strings.Contains(h.logs.String(), created.Secret) {
		t.Error("the secret was logged")
	}
	for _, path := range []string{"/api/v1/webhooks", "/api/v1/webhooks/" + created.ID} {
		res := h.request("GET", path, key, "")
		if res.StatusCode != 200 || strings.Contains(string(res.body), "whsec_") || !strings.Contains(string(res.body), created.ID) {
			t.Errorf("GET %s: %d %s, want the endpoint without its secret", path, res.StatusCode, res.body)
		}
		if res := h.request("GET", path, other, ""); path != "/api/v1/webhooks" && res.StatusCode != 404 {
			t.Errorf("another key GET %s: %d", path, res.StatusCode)
		} else if strings.Contains(string(res.body), created.ID) {
			t.Errorf("another key sees the endpoint: %s", res.body)
		}
	}

	res = h.request("POST", "/api/v1/webhooks/"+created.ID+"/test", key, "")
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("test: %d %s", res.StatusCode, res.body)
	}
	var queued httpapi.WebhookTest
	_ = json.Unmarshal(res.body, &queued)
	if _, err := h.webhooks.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(got) != 1 {
		mu.Unlock()
		t.Fatalf("receiver got %d requests, want 1", len(got))
	}
	first, firstBody := got[0], bod[0]
	mu.Unlock()
	wh, _ := standardwebhooks.NewWebhook(created.Secret)
	if err := wh.VerifyIgnoringTimestamp(firstBody, first.Header); err != nil {
		t.Errorf("reference library: %v", err)
	}
	if first.Header.Get("webhook-id") != queued.EventID || !strings.Contains(string(firstBody), `"type":"webhook.test"`) {
		t.Errorf("test delivery: id %q body %s, want %s", first.Header.Get("webhook-id"), firstBody, queued.EventID)
	}

	res = h.request("GET", "/api/v1/webhooks/"+created.ID+"/deliveries", key, "")
	var list httpapi.DeliveryList
	if err := json.Unmarshal(res.body, &list); err != nil || len(list.Deliveries) != 1 {
		t.Fatalf("deliveries: %s %v", res.body, err)
	}
	d := list.Deliveries[0]
	if d.State != "succeeded" || len(d.Attempts) != 1 || d.Attempts[0].StatusCode == nil || *d.Attempts[0].StatusCode != 200 || d.EventID != queued.EventID {
		t.Errorf("delivery %+v", d)
	}

	res = h.request("POST", "/api/v1/webhooks/"+created.ID+"/rotate-secret", key, "")
	var rotated httpapi.WebhookSecret
	if err := json.Unmarshal(res.body, &rotated); err != nil || res.StatusCode != 200 || rotated.Secret == created.Secret {
		t.Fatalf("rotate: %d %s", res.StatusCode, res.body)
	}
	if res := h.request("POST", "/api/v1/webhooks/"+created.ID+"/deliveries/"+d.ID+"/retry", key, ""); res.StatusCode != http.StatusAccepted {
		t.Fatalf("retry: %d %s", res.StatusCode, res.body)
	}
	if res := h.request("POST", "/api/v1/webhooks/"+created.ID+"/deliveries/"+d.ID+"/retry", other, ""); res.StatusCode != 404 {
		t.Errorf("another key's retry: %d, want 404", res.StatusCode)
	}
	if _, err := h.webhooks.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(got) != 2 {
		t.Fatalf("after retry the receiver got %d requests, want 2", len(got))
	}
	again, againBody := got[1], bod[1]
	mu.Unlock()
	wh2, _ := standardwebhooks.NewWebhook(rotated.Secret)
	if err := wh2.VerifyIgnoringTimestamp(againBody, again.Header); err != nil {
		t.Errorf("the retry does not verify with the rotated secret: %v", err)
	}
	if err := wh.VerifyIgnoringTimestamp(againBody, again.Header); err == nil {
		t.Error("the retry still verifies with the old secret")
	}

	if res := h.request("DELETE", "/api/v1/webhooks/"+created.ID, other, ""); res.StatusCode != 404 {
		t.Errorf("another key's delete: %d, want 404", res.StatusCode)
	}
	if res := h.request("DELETE", "/api/v1/webhooks/"+created.ID, key, ""); res.StatusCode != 204 {
		t.Errorf("delete: %d %s", res.StatusCode, res.body)
	}
	if res := h.request("GET", "/api/v1/webhooks/"+created.ID, key, ""); res.StatusCode != 404 {
		t.Errorf("after delete: %d, want 404", res.StatusCode)
	}
}

// validateWebhookCalls checks every webhook operation's real answers
// against the OpenAPI document (part of TestOpenAPIDescribesRealResponses).
func validateWebhookCalls(t *testing.T, h *harness, doc *openAPIDoc, premium, free string, validated map[string]bool) {
	t.Helper()
	res := h.request("POST", "/api/v1/webhooks", premium, `{"url":"https://93.184.216.34/hook"}`)
	var ep httpapi.WebhookCreated
	if err := json.Unmarshal(res.body, &ep); err != nil || res.StatusCode != 201 {
		t.Fatalf("create: %d %s", res.StatusCode, res.body)
	}
	res = h.request("POST", "/api/v1/webhooks/"+ep.ID+"/test", premium, "")
	if res.StatusCode != 202 {
		t.Fatalf("test: %d %s", res.StatusCode, res.body)
	}
	var list httpapi.DeliveryList
	_ = json.Unmarshal(h.request("GET", "/api/v1/webhooks/"+ep.ID+"/deliveries", premium, "").body, &list)
	if len(list.Deliveries) != 1 {
		t.Fatalf("deliveries: %+v", list)
	}
	dlv := list.Deliveries[0].ID
	whk := "/api/v1/webhooks/" + ep.ID
	calls := []struct {
		template, method, path, key, body string
		headers                           []string
		want                              int
	}{
		{"/api/v1/webhooks", "POST", "/api/v1/webhooks", premium, `{"url":"https://93.184.216.34/a","events":["token.owner_changed"],"description":"x"}`, nil, 201},
		{"/api/v1/webhooks", "POST", "/api/v1/webhooks", premium, `{"url":"https://10.0.0.1/"}`, nil, 400},
		{"/api/v1/webhooks", "POST", "/api/v1/webhooks", "", `{"url":"https://93.184.216.34/"}`, nil, 401},
		{"/api/v1/webhooks", "POST", "/api/v1/webhooks", free, `{"url":"https://93.184.216.34/"}`, nil, 403},
		{"/api/v1/webhooks", "POST", "/api/v1/webhooks", premium, `{"url":"https://93.184.216.34/","description":"` + strings.Repeat("x", 9000) + `"}`, nil, 413},
		{"/api/v1/webhooks", "POST", "/api/v1/webhooks", premium, `{"url":"https://93.184.216.34/"}`, []string{"Content-Type", "text/plain"}, 415},
		{"/api/v1/webhooks", "PUT", "/api/v1/webhooks", premium, "", nil, 405},
		{"/api/v1/webhooks", "GET", "/api/v1/webhooks", premium, "", nil, 200},
		{"/api/v1/webhooks/{id}", "GET", whk, premium, "", nil, 200},
		{"/api/v1/webhooks/{id}", "GET", "/api/v1/webhooks/whk_nope", premium, "", nil, 404},
		{"/api/v1/webhooks/{id}", "GET", whk, free, "", nil, 403},
		{"/api/v1/webhooks/{id}", "GET", whk, "", "", nil, 401},
		{"/api/v1/webhooks/{id}", "POST", whk, premium, "", nil, 405},
		{"/api/v1/webhooks/{id}", "DELETE", "/api/v1/webhooks/whk_nope", premium, "", nil, 404},
		{"/api/v1/webhooks/{id}/rotate-secret", "POST", whk + "/rotate-secret", premium, "", nil, 200},
		{"/api/v1/webhooks/{id}/rotate-secret", "POST", "/api/v1/webhooks/whk_nope/rotate-secret", premium, "", nil, 404},
		{"/api/v1/webhooks/{id}/rotate-secret", "GET", whk + "/rotate-secret", premium, "", nil, 405},
		{"/api/v1/webhooks/{id}/test", "POST", whk + "/test", premium, "", nil, 202},
		{"/api/v1/webhooks/{id}/test", "POST", "/api/v1/webhooks/whk_nope/test", premium, "", nil, 404},
		{"/api/v1/webhooks/{id}/deliveries", "GET", whk + "/deliveries?limit=10", premium, "", nil, 200},
		{"/api/v1/webhooks/{id}/deliveries", "GET", whk + "/deliveries?limit=0", premium, "", nil, 400},
		{"/api/v1/webhooks/{id}/deliveries", "GET", "/api/v1/webhooks/whk_nope/deliveries", premium, "", nil, 404},
		{"/api/v1/webhooks/{id}/deliveries", "GET", whk + "/deliveries", free, "", nil, 403},
		{"/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry", "POST", whk + "/deliveries/" + dlv + "/retry", premium, "", nil, 202},
		{"/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry", "POST", whk + "/deliveries/dlv_nope/retry", premium, "", nil, 404},
		{"/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry", "GET", whk + "/deliveries/" + dlv + "/retry", premium, "", nil, 405},
		{"/api/v1/webhooks/{id}", "DELETE", whk, premium, "", nil, 204},
	}
	for _, c := range calls {
		res := h.request(c.method, c.path, c.key, c.body, c.headers...)
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
}
