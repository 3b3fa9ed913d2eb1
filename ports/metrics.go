package ports

import "time"

// Metrics records what the daemon does, for operators. Implementations
// must be safe for concurrent use and cheap: they sit on the request path.
type Metrics interface {
	// RequestDone records one AWP request: its method, outcome ("ok" or an
	// error code) and how long it took.
	RequestDone(method, outcome string, d time.Duration)
	// PageLoaded records a navigation's fetch and compile times and sizes.
	PageLoaded(fetch, compile time.Duration, htmlBytes, somBytes int)
	// ConnOpened and ConnClosed track open connections.
	ConnOpened()
	ConnClosed()
	// SessionOpened and SessionClosed track live sessions.
	SessionOpened()
	SessionClosed()
}

// NopMetrics records nothing.
type NopMetrics struct{}

func (NopMetrics) RequestDone(string, string, time.Duration)         {}
func (NopMetrics) PageLoaded(time.Duration, time.Duration, int, int) {}
func (NopMetrics) ConnOpened()                                       {}
func (NopMetrics) ConnClosed()                                       {}
func (NopMetrics) SessionOpened()                                    {}
func (NopMetrics) SessionClosed()                                    {}
