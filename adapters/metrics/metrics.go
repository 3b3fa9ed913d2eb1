// Package metrics is the Prometheus adapter of ports.Metrics, on a
// registry of its own, served at /metrics.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/plasmate/plasmate/ports"
)

// Metrics records the daemon's figures.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.HistogramVec
	errors      *prometheus.CounterVec
	fetch       prometheus.Histogram
	compile     prometheus.Histogram
	htmlBytes   prometheus.Histogram
	somBytes    prometheus.Histogram
	connections prometheus.Gauge
	sessions    prometheus.Gauge
}

var _ ports.Metrics = (*Metrics)(nil)

// methods are the label values for the method label: anything else is
// "other", so that clients cannot grow the series without bound.
var methods = map[string]bool{
	"awp.hello": true, "session.create": true, "session.close": true,
	"page.navigate": true, "page.observe": true, "page.act": true, "page.extract": true,
}

// New builds the metrics on a fresh registry, with Go runtime and process
// collectors beside them.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "plasmate_request_duration_seconds",
			Help: "Time to answer an AWP request, by method and outcome (ok or the error code).",
			// From an observe (tens of µs) to a slow navigation.
			Buckets: []float64{.0001, .0005, .001, .005, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"method", "outcome"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "plasmate_errors_total",
			Help: "AWP error responses, by error code.",
		}, []string{"code"}),
		fetch: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "plasmate_fetch_duration_seconds",
			Help:    "Time to fetch a page, redirects included.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
		compile: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "plasmate_compile_duration_seconds",
			Help:    "Time to parse a page and compile its SOM.",
			Buckets: []float64{.0002, .0005, .001, .002, .005, .01, .025, .05, .1, .25, 1},
		}),
		htmlBytes: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "plasmate_html_bytes",
			Help:    "Size of fetched HTML.",
			Buckets: prometheus.ExponentialBuckets(1024, 4, 10),
		}),
		somBytes: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "plasmate_som_bytes",
			Help:    "Size of compiled SOM JSON.",
			Buckets: prometheus.ExponentialBuckets(256, 4, 10),
		}),
		connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "plasmate_connections_active",
			Help: "Open agent connections.",
		}),
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "plasmate_sessions_active",
			Help: "Live browsing sessions.",
		}),
	}
	reg.MustRegister(m.requests, m.errors, m.fetch, m.compile, m.htmlBytes, m.somBytes, m.connections, m.sessions)
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry exposes the registry (tests).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

func (m *Metrics) RequestDone(method, outcome string, d time.Duration) {
	if !methods[method] {
		method = "other"
	}
	m.requests.WithLabelValues(method, outcome).Observe(d.Seconds())
	if outcome != "ok" {
		m.errors.WithLabelValues(outcome).Inc()
	}
}

func (m *Metrics) PageLoaded(fetch, compile time.Duration, htmlBytes, somBytes int) {
	m.fetch.Observe(fetch.Seconds())
	m.compile.Observe(compile.Seconds())
	m.htmlBytes.Observe(float64(htmlBytes))
	m.somBytes.Observe(float64(somBytes))
}

func (m *Metrics) ConnOpened()    { m.connections.Inc() }
func (m *Metrics) ConnClosed()    { m.connections.Dec() }
func (m *Metrics) SessionOpened() { m.sessions.Inc() }
func (m *Metrics) SessionClosed() { m.sessions.Dec() }
