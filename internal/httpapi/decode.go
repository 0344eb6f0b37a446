package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// maxBody bounds a scan request body: one address needs far less.
const maxBody = 4 << 10

// scanRequest is the body of POST /api/v1/scan.
type scanRequest struct {
	Address *string `json:"address"`
}

// checkJSONContentType accepts application/json with optional parameters.
func checkJSONContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return fault.Errorf(fault.UnsupportedMediaType, "send the body as Content-Type: application/json")
	}
	return nil
}

// decodeScanRequest reads one JSON object with an address and nothing
// else: unknown fields, a second value or trailing garbage are rejected.
// It returns the address as sent (ParseAddress trims and validates it).
func decodeScanRequest(body io.Reader) (string, error) {
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	var req scanRequest
	if err := dec.Decode(&req); err != nil {
		return "", jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return "", jsonError(err)
		}
		return "", fault.Errorf(fault.InvalidJSON, "the body must hold exactly one JSON object")
	}
	if req.Address == nil {
		return "", fault.Errorf(fault.InvalidAddress, "the body needs an \"address\" field")
	}
	return *req.Address, nil
}

// jsonError turns a decoder error into a client-safe fault.
func jsonError(err error) error {
	var (
		mbe    *http.MaxBytesError
		syntax *json.SyntaxError
		typ    *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &mbe):
		return fault.Wrap(err, fault.BodyTooLarge, fmt.Sprintf("the body must be at most %d bytes", mbe.Limit))
	case errors.Is(err, io.EOF):
		return fault.Wrap(err, fault.InvalidJSON, "the body is empty; send {\"address\": \"…\"}")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fault.Wrap(err, fault.InvalidJSON, "the body ends in the middle of a JSON value")
	case errors.As(err, &syntax):
		return fault.Wrap(err, fault.InvalidJSON, fmt.Sprintf("malformed JSON at byte %d", syntax.Offset))
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fault.Wrap(err, fault.InvalidJSON, fmt.Sprintf("field %q must be a %s", typ.Field, typ.Type))
		}
		return fault.Wrap(err, fault.InvalidJSON, "the body must be a JSON object")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if len(name) > 40 {
			name = name[:40] + "…\""
		}
		return fault.Wrap(err, fault.InvalidJSON, "unknown field "+strings.ToValidUTF8(name, "?")+"; only \"address\" is accepted")
	default:
		return fault.Wrap(err, fault.InvalidJSON, "malformed JSON body")
	}
}
