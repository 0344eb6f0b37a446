// Package fault is tokenrisk's one error model: domain errors carry a stable
// code from the SPEC, and only the HTTP layer turns a code into a status.
package fault

import (
	"errors"
	"fmt"
)

// Code is a stable snake_case error code from SPEC §4.
type Code string

// The codes of SPEC §4 (plus internal for everything unexpected).
const (
	InvalidJSON          Code = "invalid_json"
	InvalidAddress       Code = "invalid_address"
	InvalidChecksum      Code = "invalid_checksum"
	InvalidRequest       Code = "invalid_request"
	InvalidWebhookURL    Code = "invalid_webhook_url"
	Unauthorized         Code = "unauthorized"
	PlanForbidden        Code = "plan_forbidden"
	NotFound             Code = "not_found"
	TokenNotFound        Code = "token_not_found"
	MethodNotAllowed     Code = "method_not_allowed"
	RequestTimeout       Code = "request_timeout"
	BodyTooLarge         Code = "body_too_large"
	UnsupportedMediaType Code = "unsupported_media_type"
	NotAToken            Code = "not_a_token"
	RateLimited          Code = "rate_limited"
	QuotaExceeded        Code = "quota_exceeded"
	Overloaded           Code = "overloaded"
	UpstreamError        Code = "upstream_error"
	UpstreamTimeout      Code = "upstream_timeout"
	Unavailable          Code = "unavailable"
	Internal             Code = "internal"
)

// NotServed is the cause of a refusal by configuration: the server was
// set up not to serve what was asked (a chain it does not enable). The
// request is the client's choice, not the server's failure, so it is not
// logged as an error whatever its status.
var NotServed = errors.New("not served by this server's configuration")

// Error is a domain error: a code, a message safe to show a client, and
// optionally the underlying cause (never shown).
type Error struct {
	Code    Code
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with a formatted client-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with code and message that keeps err as its cause.
func Wrap(err error, code Code, message string) *Error {
	return &Error{Code: code, Message: message, Err: err}
}

// CodeOf returns the code of the first *Error in err's chain, or Internal.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// MessageOf returns the client-safe message of the first *Error in err's
// chain, or a generic one.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}
