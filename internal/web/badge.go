package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"strings"
	"text/template"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// badgeLabel is the badge's left half.
const badgeLabel = "tokenrisk"

// badgeVersion changes the ETag when the badge's drawing changes.
const badgeVersion = "b1"

// badgeMaxAge is how long a badge may be cached (seconds).
const badgeMaxAge = 300

// levelColors are the levels' colours (hex, no #), each with white text at
// WCAG AA contrast or better; notScannedColor is the grey of a badge with
// no verdict.
var levelColors = map[string]string{
	"minimal":  "1a7f37",
	"low":      "3f6f00",
	"medium":   "8a5a00",
	"high":     "c2410c",
	"critical": "b91c1c",
}

const notScannedColor = "5f6368"

// badge is what a badge says.
type badge struct {
	Message string
	Color   string
	// ETag identifies the drawing (quoted).
	ETag string
}

// verdictBadge is the badge of a stored scan: its level and score,
// floored so that the number never reads as the next level up.
func verdictBadge(sc store.Scan) badge {
	color, ok := levelColors[sc.RiskLevel]
	if !ok { // not a level this version knows: say so rather than echo it
		return badge{Message: "unknown", Color: notScannedColor, ETag: `"` + badgeVersion + "-" + sc.ID + `"`}
	}
	msg := fmt.Sprintf("%s %d", sc.RiskLevel, int(math.Floor(sc.Score)))
	// A degraded report's level is a floor (checks could not run): the
	// badge says so rather than show it as a full verdict.
	var head struct {
		Completeness string `json:"completeness"`
	}
	if json.Unmarshal(sc.Report, &head) == nil && head.Completeness == "degraded" {
		msg += " (incomplete)"
	}
	return badge{
		Message: msg,
		Color:   color,
		ETag:    `"` + badgeVersion + "-" + sc.ID + `"`,
	}
}

// handleBadge is GET /badge/{address}.svg and /badge/{address}.json: the
// newest stored verdict of the address, never a scan.
func (p *Pages) handleBadge(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	raw, format := file, ""
	for _, ext := range []string{".svg", ".json"} {
		if a, ok := strings.CutSuffix(file, ext); ok {
			raw, format = a, ext
		}
	}
	if format == "" {
		http.Error(w, "badges are /badge/ADDRESS.svg or /badge/ADDRESS.json", http.StatusNotFound)
		return
	}
	status := http.StatusOK
	var b badge
	addr, err := chains.ParseAddress(raw)
	switch {
	case err != nil:
		status, b = http.StatusBadRequest, badge{Message: "invalid address", Color: notScannedColor}
	default:
		sc, err := p.d.Store.LatestScan(r.Context(), addr.Canonical)
		switch {
		case errors.Is(err, store.ErrNotFound):
			b = badge{Message: "not scanned", Color: notScannedColor, ETag: `"` + badgeVersion + `-none"`}
		case err != nil:
			p.d.Logger.WarnContext(r.Context(), "badge: latest scan", "err", err)
			status, b = http.StatusServiceUnavailable, badge{Message: "unavailable", Color: notScannedColor}
		default:
			b = verdictBadge(sc)
			w.Header().Set("Last-Modified", sc.ScannedAt.UTC().Format(http.TimeFormat))
		}
	}
	h := w.Header()
	if b.ETag != "" {
		h.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", badgeMaxAge))
		h.Set("ETag", b.ETag)
		if etagMatches(r.Header.Get("If-None-Match"), b.ETag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	} else {
		h.Set("Cache-Control", "no-store")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	if format == ".json" {
		h.Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(shieldsEndpoint{ //nolint:errcheck // the client went away
			SchemaVersion: 1, Label: badgeLabel, Message: b.Message, Color: b.Color,
			IsError: status != http.StatusOK, CacheSeconds: badgeMaxAge,
		})
		return
	}
	h.Set("Content-Type", "image/svg+xml")
	// An SVG opened on its own must not run anything.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.WriteHeader(status)
	w.Write(b.svg()) //nolint:errcheck // the client went away
}

// etagMatches reports whether an If-None-Match header names etag (or *).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// shieldsEndpoint is the shields.io endpoint-badge schema.
type shieldsEndpoint struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
	IsError       bool   `json:"isError,omitempty"`
	CacheSeconds  int    `json:"cacheSeconds,omitempty"`
}

// badgeSVG draws a flat badge: grey label, coloured message.
var badgeSVG = template.Must(template.New("badge").Parse(
	`<svg xmlns="http://www.w3.org/2000/svg" width="{{.Width}}" height="20" role="img" aria-label="{{.Label}}: {{.Message}}">` +
		`<title>{{.Label}}: {{.Message}}</title>` +
		`<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
		`<clipPath id="r"><rect width="{{.Width}}" height="20" rx="3" fill="#fff"/></clipPath>` +
		`<g clip-path="url(#r)"><rect width="{{.LabelWidth}}" height="20" fill="#555"/>` +
		`<rect x="{{.LabelWidth}}" width="{{.MessageWidth}}" height="20" fill="#{{.Color}}"/>` +
		`<rect width="{{.Width}}" height="20" fill="url(#s)"/></g>` +
		`<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">` +
		`<text x="{{.LabelX}}" y="14">{{.Label}}</text><text x="{{.MessageX}}" y="14">{{.Message}}</text></g></svg>`))

// svg renders the badge. Label and message are plain ASCII we chose, so
// text/template's lack of escaping is safe here; the test parses it as XML.
func (b badge) svg() []byte {
	lw, mw := textWidth(badgeLabel)+10, textWidth(b.Message)+10
	var buf bytes.Buffer
	badgeSVG.Execute(&buf, map[string]any{ //nolint:errcheck // writes to memory
		"Label": badgeLabel, "Message": b.Message, "Color": b.Color,
		"Width": lw + mw, "LabelWidth": lw, "MessageWidth": mw,
		"LabelX": fmt.Sprintf("%.1f", float64(lw)/2), "MessageX": fmt.Sprintf("%.1f", float64(lw)+float64(mw)/2),
	})
	return buf.Bytes()
}

// verdana11 are approximate advance widths (px) of Verdana at 11px.
var verdana11 = map[rune]float64{
	' ': 3.9, 'a': 6.7, 'b': 6.9, 'c': 5.8, 'd': 6.9, 'e': 6.7, 'f': 3.9, 'g': 6.9, 'h': 7.0, 'i': 3.0,
	'j': 3.8, 'k': 6.5, 'l': 3.0, 'm': 10.7, 'n': 7.0, 'o': 6.7, 'p': 6.9, 'q': 6.9, 'r': 4.7, 's': 5.7,
	't': 4.3, 'u': 7.0, 'v': 6.5, 'w': 9.0, 'x': 6.5, 'y': 6.5, 'z': 5.8,
}

// textWidth is the width of s in Verdana 11px, rounded up.
func textWidth(s string) int {
	var w float64
	for _, c := range s {
		switch v, ok := verdana11[c]; {
		case ok:
			w += v
		case c >= '0' && c <= '9':
			w += 7.0
		default:
			w += 7.5
		}
	}
	return int(math.Ceil(w))
}

// LevelColors returns each level's colour (hex, no #), with white text.
func LevelColors() map[string]string { return maps.Clone(levelColors) }
