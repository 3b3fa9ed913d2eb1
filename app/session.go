package app

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/plasmate/plasmate/ports"
)

// Session defaults (spec §4.2).
const (
	DefaultUserAgent = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36"
	DefaultLocale    = "en-US"
	DefaultTimeout   = 30 * time.Second
	// MaxTimeout bounds any timeout an agent asks for.
	MaxTimeout = 10 * time.Minute
)

// SessionOptions are what session.create sets.
type SessionOptions struct {
	UserAgent string
	Locale    string
	Timeout   time.Duration
}

// Session is one browsing session: a cookie jar, an identity, and the
// page it is on.
type Session struct {
	ID      string
	Options SessionOptions

	fetch ports.FetchSession

	// mu serializes what the session does: one navigation at a time, and
	// no observe of a half-replaced page.
	mu   sync.Mutex
	page *Page
}

// Page returns the current page, or nil before the first navigation.
func (s *Session) Page() *Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.page
}

// Sessions is the registry of live sessions, shared by every connection
// and front end.
type Sessions struct {
	fetcher ports.Fetcher
	metrics ports.Metrics

	mu sync.Mutex
	m  map[string]*Session
}

// NewSessions returns an empty registry whose sessions fetch with f.
func NewSessions(f ports.Fetcher, m ports.Metrics) *Sessions {
	return &Sessions{fetcher: f, metrics: m, m: map[string]*Session{}}
}

// Create opens a session with its own cookie jar.
func (r *Sessions) Create(opts SessionOptions) *Session {
	s := &Session{
		ID:      newSessionID(),
		Options: opts,
		fetch: r.fetcher.NewSession(ports.SessionOptions{
			UserAgent:      opts.UserAgent,
			AcceptLanguage: acceptLanguage(opts.Locale),
		}),
	}
	r.mu.Lock()
	r.m[s.ID] = s
	r.mu.Unlock()
	r.metrics.SessionOpened()
	return s
}

// Get returns a live session.
func (r *Sessions) Get(id string) (*Session, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.m[id]
	return s, ok
}

// Close ends a session; it reports whether the session was live.
func (r *Sessions) Close(id string) bool {
	r.mu.Lock()
	_, ok := r.m[id]
	delete(r.m, id)
	r.mu.Unlock()
	if ok {
		r.metrics.SessionClosed()
	}
	return ok
}

// Len is the number of live sessions.
func (r *Sessions) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.m)
}

func newSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "s_" + hex.EncodeToString(b[:])
}

// acceptLanguage turns a locale into an Accept-Language header:
// "fr-CA" → "fr-CA,fr;q=0.9".
func acceptLanguage(locale string) string {
	for i := 0; i < len(locale); i++ {
		if locale[i] == '-' || locale[i] == '_' {
			return locale + "," + locale[:i] + ";q=0.9"
		}
	}
	return locale
}
