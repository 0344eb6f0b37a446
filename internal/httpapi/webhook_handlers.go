package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/go-json-experiment/json"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

// maxWebhookBody bounds a webhook registration body.
const maxWebhookBody = 8 << 10

// webhookRequest is the body of POST /api/v1/webhooks.
type webhookRequest struct {
	URL         *string  `json:"url"`
	Events      []string `json:"events"`
	Description string   `json:"description"`
}

// WebhookCreated is the answer of POST /api/v1/webhooks: the endpoint
// and its secret, shown this once.
type WebhookCreated struct {
	webhook.Endpoint
	Secret string `json:"secret"`
}

// WebhookList is the answer of GET /api/v1/webhooks.
type WebhookList struct {
	Webhooks []webhook.Endpoint `json:"webhooks"`
}

// WebhookSecret is the answer of POST /api/v1/webhooks/{id}/rotate-secret.
type WebhookSecret struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
}

// WebhookTest is the answer of POST /api/v1/webhooks/{id}/test.
type WebhookTest struct {
	EventID string `json:"event_id"`
}

// DeliveryList is the answer of GET /api/v1/webhooks/{id}/deliveries.
type DeliveryList struct {
	Deliveries []webhook.Delivery `json:"deliveries"`
}

// DeliveryRetry is the answer of a delivery's retry.
type DeliveryRetry struct {
	DeliveryID string `json:"delivery_id"`
	State      string `json:"state"`
}

// webhooksOnly refuses plans without webhooks.
func (s *Server) webhooksOnly(next func(http.ResponseWriter, *http.Request, *Account)) func(http.ResponseWriter, *http.Request, *Account) {
	return func(w http.ResponseWriter, r *http.Request, a *Account) {
		if !a.Plan.Webhooks {
			s.writeProblem(w, r, fault.PlanForbidden, "webhook alerts need the premium plan")
			return
		}
		next(w, r, a)
	}
}

func decodeWebhookRequest(body io.Reader) (webhookRequest, error) {
	var req webhookRequest
	data, err := readBody(body)
	if err != nil {
		return req, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return req, fault.Errorf(fault.InvalidJSON, "the body is empty; send {\"url\": \"https://…\", \"events\": [\"*\"]}")
	}
	if err := json.Unmarshal(data, &req, strictJSON); err != nil {
		var sem *json.SemanticError
		switch {
		case errors.Is(err, json.ErrUnknownName) && errors.As(err, &sem):
			return req, fault.Wrap(err, fault.InvalidJSON, "unknown member "+quotedName(sem.JSONPointer)+"; send url, events and description")
		case errors.As(err, &sem) && sem.JSONPointer != "":
			return req, fault.Wrap(err, fault.InvalidJSON, fmt.Sprintf("member %s has the wrong type: url and description are strings, events an array of strings", quotedName(sem.JSONPointer)))
		}
		return req, jsonError(err)
	}
	if req.URL == nil {
		return req, fault.Errorf(fault.InvalidWebhookURL, "the body needs a \"url\" field")
	}
	return req, nil
}

// handleCreateWebhook is POST /api/v1/webhooks: 201 with the secret.
func (s *Server) handleCreateWebhook(w http.ResponseWriter, r *http.Request, a *Account) {
	if err := checkJSONContentType(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	req, err := decodeWebhookRequest(http.MaxBytesReader(w, r.Body, maxWebhookBody))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ep, secret, err := s.webhooks.Create(r.Context(), a.Key.ID, webhook.CreateRequest{URL: *req.URL, Events: req.Events, Description: req.Description})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/webhooks/"+ep.ID)
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusCreated, WebhookCreated{Endpoint: ep, Secret: secret})
}

// handleListWebhooks is GET /api/v1/webhooks: the key's endpoints, oldest
// first, disabled ones saying why.
func (s *Server) handleListWebhooks(w http.ResponseWriter, r *http.Request, a *Account) {
	list, err := s.webhooks.List(r.Context(), a.Key.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if list == nil {
		list = []webhook.Endpoint{}
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusOK, WebhookList{Webhooks: list})
}

// handleGetWebhook is GET /api/v1/webhooks/{id}.
func (s *Server) handleGetWebhook(w http.ResponseWriter, r *http.Request, a *Account) {
	ep, err := s.webhooks.Get(r.Context(), a.Key.ID, r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusOK, ep)
}

// handleDeleteWebhook is DELETE /api/v1/webhooks/{id}: 204; its pending
// deliveries go with it.
func (s *Server) handleDeleteWebhook(w http.ResponseWriter, r *http.Request, a *Account) {
	if err := s.webhooks.Delete(r.Context(), a.Key.ID, r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleRotateSecret is POST /api/v1/webhooks/{id}/rotate-secret.
func (s *Server) handleRotateSecret(w http.ResponseWriter, r *http.Request, a *Account) {
	id := r.PathValue("id")
	secret, err := s.webhooks.RotateSecret(r.Context(), a.Key.ID, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusOK, WebhookSecret{ID: id, Secret: secret})
}

// handleTestWebhook is POST /api/v1/webhooks/{id}/test: 202, a
// webhook.test event queued for this endpoint alone.
func (s *Server) handleTestWebhook(w http.ResponseWriter, r *http.Request, a *Account) {
	id, err := s.webhooks.Test(r.Context(), a.Key.ID, r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusAccepted, WebhookTest{EventID: id})
}

// maxDeliveries bounds one listing of deliveries.
const maxDeliveries = 100

// handleListDeliveries is GET /api/v1/webhooks/{id}/deliveries: the
// newest deliveries (limit, default 50, at most 100) with every attempt.
func (s *Server) handleListDeliveries(w http.ResponseWriter, r *http.Request, a *Account) {
	q, err := parseQuery(r.URL.RawQuery, "limit")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	limit := 50
	if v := q["limit"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxDeliveries {
			s.writeProblem(w, r, fault.InvalidRequest, fmt.Sprintf("limit must be an integer from 1 to %d", maxDeliveries))
			return
		}
		limit = n
	}
	list, err := s.webhooks.Deliveries(r.Context(), a.Key.ID, r.PathValue("id"), limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if list == nil {
		list = []webhook.Delivery{}
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusOK, DeliveryList{Deliveries: list})
}

// handleRetryDelivery is POST
// /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry: 202, the delivery
// due now.
func (s *Server) handleRetryDelivery(w http.ResponseWriter, r *http.Request, a *Account) {
	id := r.PathValue("delivery_id")
	if err := s.webhooks.Retry(r.Context(), a.Key.ID, r.PathValue("id"), id); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusAccepted, DeliveryRetry{DeliveryID: id, State: "pending"})
}
