package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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

// strictJSON is how request bodies are decoded: the JSON v2 decoder
// matches member names case-sensitively and rejects duplicate names,
// invalid UTF-8 and data after the value by default; unknown members are
// rejected too. So {"ADDRESS": …} and {"address": "junk", "address": …}
// are errors, not a field matched by folding or a last value that wins.
var strictJSON = json.JoinOptions(json.RejectUnknownMembers(true))

// decodeScanRequest reads one JSON object with an address and nothing
// else: unknown, case-folded or repeated names, a second value or
// trailing garbage are rejected. It returns the address as sent
// (ParseAddress trims and validates it).
func decodeScanRequest(body io.Reader) (string, error) {
	data, err := readBody(body)
	if err != nil {
		return "", err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return "", fault.Errorf(fault.InvalidJSON, "the body is empty; send {\"address\": \"…\"}")
	}
	var req scanRequest
	if err := json.Unmarshal(data, &req, strictJSON); err != nil {
		return "", jsonError(err)
	}
	if req.Address == nil {
		return "", fault.Errorf(fault.InvalidAddress, "the body needs an \"address\" field")
	}
	return *req.Address, nil
}

// readBody reads a request body whole. A body that stops arriving until
// the server's read timeout is 408 request_timeout (not malformed JSON:
// nothing was wrong with what came); one above its limit 413.
func readBody(body io.Reader) ([]byte, error) {
	data, err := io.ReadAll(body)
	if err == nil {
		return data, nil
	}
	var (
		mbe *http.MaxBytesError
		ne  net.Error
	)
	switch {
	case errors.As(err, &mbe):
		return nil, jsonError(err)
	case errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return nil, fault.Wrap(err, fault.RequestTimeout, fmt.Sprintf("the body stopped arriving after %d bytes; send it whole within the server's read timeout", len(data)))
	}
	return nil, fault.Wrap(err, fault.InvalidJSON, fmt.Sprintf("the body could not be read after %d bytes", len(data)))
}

// jsonError turns a read or decode error into a client-safe fault.
func jsonError(err error) error {
	var (
		mbe    *http.MaxBytesError
		syntax *jsontext.SyntacticError
		sem    *json.SemanticError
	)
	switch {
	case errors.As(err, &mbe):
		return fault.Wrap(err, fault.BodyTooLarge, fmt.Sprintf("the body must be at most %d bytes", mbe.Limit))
	case errors.As(err, &syntax):
		switch {
		case errors.Is(err, jsontext.ErrDuplicateName):
			return fault.Wrap(err, fault.InvalidJSON, fmt.Sprintf("member %s appears twice; send each once", quotedName(syntax.JSONPointer)))
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fault.Wrap(err, fault.InvalidJSON, "the body ends in the middle of a JSON value")
		case strings.Contains(syntax.Err.Error(), "after top-level value"):
			return fault.Wrap(err, fault.InvalidJSON, "the body must hold exactly one JSON object")
		}
		return fault.Wrap(err, fault.InvalidJSON, fmt.Sprintf("malformed JSON at byte %d", syntax.ByteOffset))
	case errors.As(err, &sem):
		switch {
		case errors.Is(err, json.ErrUnknownName):
			name := quotedName(sem.JSONPointer)
			if strings.EqualFold(strings.Trim(name, `"`), "address") {
				return fault.Wrap(err, fault.InvalidJSON, "unknown member "+name+"; names are case-sensitive: send \"address\"")
			}
			return fault.Wrap(err, fault.InvalidJSON, "unknown member "+name+"; only \"address\" is accepted")
		case sem.JSONPointer == "":
			return fault.Wrap(err, fault.InvalidJSON, "the body must be a JSON object")
		}
		return fault.Wrap(err, fault.InvalidJSON, fmt.Sprintf("member %s must be a string", quotedName(sem.JSONPointer)))
	default:
		return fault.Wrap(err, fault.InvalidJSON, "malformed JSON body")
	}
}

// quotedName renders the last token of a JSON pointer, bounded, for an
// error message.
func quotedName(p jsontext.Pointer) string {
	name := p.LastToken()
	if len(name) > 40 {
		name = name[:40] + "…"
	}
	return fmt.Sprintf("%q", strings.ToValidUTF8(name, "?"))
}
