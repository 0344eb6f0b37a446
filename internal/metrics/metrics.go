// Package metrics exposes tokenrisk's Prometheus metrics: HTTP requests,
// scan durations, upstream calls, admission queue depth and cache hits.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the service's collectors in their own registry (no global
// default registry), so that tests and several servers do not collide.
type Metrics struct {
	reg          *prometheus.Registry
	requests     *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	scanDuration *prometheus.HistogramVec
	upstream     *prometheus.CounterVec
	queueDepth   *prometheus.GaugeVec
	scanLimit    prometheus.Gauge
	cache        *prometheus.CounterVec
	dedupe       prometheus.Counter
	watchTick    *prometheus.HistogramVec
	watchRescans *prometheus.CounterVec
	watchEvents  *prometheus.CounterVec
	hookAttempts *prometheus.HistogramVec
}

// New registers every collector, plus the Go runtime and process ones.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tokenrisk_http_requests_total",
			Help: "HTTP requests by route pattern and status code.",
		}, []string{"route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tokenrisk_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route"}),
		scanDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tokenrisk_scan_duration_seconds",
			Help:    "Duration of uncached scans by chain.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 15, 30},
		}, []string{"chain"}),
		upstream: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tokenrisk_upstream_calls_total",
			Help: "Calls to upstream services (RPC methods, explorers) by chain and method.",
		}, []string{"chain", "method"}),
		queueDepth: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tokenrisk_admission_queue_depth",
			Help: "Scans waiting for admission, by queue priority.",
		}, []string{"priority"}),
		scanLimit: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tokenrisk_admission_scan_limit",
			Help: "The adaptive limit on uncached scans running at once.",
		}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tokenrisk_scan_cache_total",
			Help: "Scan cache lookups by result (hit or miss).",
		}, []string{"result"}),
		dedupe: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tokenrisk_scan_dedupe_shared_total",
			Help: "Scans answered by sharing an identical scan already in flight.",
		}),
		watchTick: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tokenrisk_watch_tick_duration_seconds",
			Help:    "Duration of one watch tick (log query, re-scans, events) by chain.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 15, 30, 60},
		}, []string{"chain"}),
		watchRescans: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tokenrisk_watch_rescans_total",
			Help: "Watched tokens re-scanned, by chain.",
		}, []string{"chain"}),
		watchEvents: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tokenrisk_watch_events_total",
			Help: "Watchlist events published, by type.",
		}, []string{"type"}),
		hookAttempts: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tokenrisk_webhook_attempt_duration_seconds",
			Help:    "Webhook delivery attempts and their latency, by the receiver's status class (2xx, 3xx, 4xx, 5xx; none when no answer came).",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 15},
		}, []string{"status"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.scanDuration, m.upstream, m.queueDepth, m.scanLimit, m.cache, m.dedupe,
		m.watchTick, m.watchRescans, m.watchEvents, m.hookAttempts,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, p := range []string{"low", "normal", "high"} {
		m.queueDepth.WithLabelValues(p).Set(0)
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Request records one answered HTTP request. route is the matched pattern
// (never the raw path, which would explode cardinality).
func (m *Metrics) Request(route string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(d.Seconds())
}

// ScanDuration records an uncached scan's duration on chain.
func (m *Metrics) ScanDuration(chain string, d time.Duration) {
	m.scanDuration.WithLabelValues(chain).Observe(d.Seconds())
}

// Upstream counts one upstream call; its signature matches the adapters'
// metrics hook (evm.Options.Upstream, solana.Options.Upstream).
func (m *Metrics) Upstream(chain, method string) {
	m.upstream.WithLabelValues(chain, method).Inc()
}

// ScanLimit sets the adaptive limit on uncached scans.
func (m *Metrics) ScanLimit(n int) { m.scanLimit.Set(float64(n)) }

// QueueDepth sets the number of scans waiting at priority.
func (m *Metrics) QueueDepth(priority string, n int) {
	m.queueDepth.WithLabelValues(priority).Set(float64(n))
}

// CacheLookup counts a scan cache hit or miss.
func (m *Metrics) CacheLookup(hit bool) {
	if hit {
		m.cache.WithLabelValues("hit").Inc()
		return
	}
	m.cache.WithLabelValues("miss").Inc()
}

// WatchTick records one watch tick of chain.
func (m *Metrics) WatchTick(chain string, rescans int, d time.Duration) {
	m.watchTick.WithLabelValues(chain).Observe(d.Seconds())
	m.watchRescans.WithLabelValues(chain).Add(float64(rescans))
}

// WatchEvent counts one published watchlist event of type typ.
func (m *Metrics) WatchEvent(typ string) { m.watchEvents.WithLabelValues(typ).Inc() }

// WebhookAttempt records one webhook delivery attempt: the receiver's
// status (0 when no answer came) and how long it took.
func (m *Metrics) WebhookAttempt(status int, d time.Duration) {
	class := "none"
	if status >= 100 && status < 600 {
		class = strconv.Itoa(status/100) + "xx"
	}
	m.hookAttempts.WithLabelValues(class).Observe(d.Seconds())
}

// DedupeShared counts a scan answered from an identical one in flight.
func (m *Metrics) DedupeShared() { m.dedupe.Inc() }
