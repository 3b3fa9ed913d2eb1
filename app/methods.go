package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"
	"time"

	"github.com/plasmate/plasmate/ports"
)

type helloParams struct {
	ClientName    string  `json:"client_name"`
	ClientVersion string  `json:"client_version"`
	AWPVersion    *string `json:"awp_version"`
}

type helloResult struct {
	AWPVersion    string   `json:"awp_version"`
	ServerName    string   `json:"server_name"`
	ServerVersion string   `json:"server_version"`
	Features      []string `json:"features"`
}

func (s *Server) hello(_ context.Context, c *connection, raw json.RawMessage) (any, error) {
	var p helloParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if p.AWPVersion == nil {
		return nil, invalid("params.awp_version is required; this server speaks %q", ProtocolVersion).
			with("supported_versions", []string{ProtocolVersion})
	}
	if *p.AWPVersion != ProtocolVersion {
		return nil, invalid("awp_version %q is not supported; this server speaks %q", *p.AWPVersion, ProtocolVersion).
			with("supported_versions", []string{ProtocolVersion})
	}
	c.hello = true
	return helloResult{
		AWPVersion:    ProtocolVersion,
		ServerName:    s.info.Name,
		ServerVersion: s.info.Version,
		Features:      Features,
	}, nil
}

type createParams struct {
	UserAgent *string `json:"user_agent"`
	Locale    *string `json:"locale"`
	TimeoutMS *int64  `json:"timeout_ms"`
}

func (s *Server) sessionCreate(_ context.Context, c *connection, raw json.RawMessage) (any, error) {
	var p createParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	opts := SessionOptions{UserAgent: DefaultUserAgent, Locale: DefaultLocale, Timeout: DefaultTimeout}
	if p.UserAgent != nil {
		if strings.ContainsAny(*p.UserAgent, "\r\n") {
			return nil, invalid("params.user_agent must not contain line breaks")
		}
		if *p.UserAgent != "" {
			opts.UserAgent = *p.UserAgent
		}
	}
	if p.Locale != nil && *p.Locale != "" {
		if !validLocale(*p.Locale) {
			return nil, invalid("params.locale %q is not a language tag such as en-US", *p.Locale)
		}
		opts.Locale = *p.Locale
	}
	if p.TimeoutMS != nil {
		d, err := timeoutParam("params.timeout_ms", *p.TimeoutMS)
		if err != nil {
			return nil, err
		}
		opts.Timeout = d
	}
	// v0.1: one session per connection; a second create closes the first.
	if c.session != nil {
		s.sessions.Close(c.session.ID)
		c.session = nil
	}
	c.session = s.sessions.Create(opts)
	return map[string]string{"session_id": c.session.ID}, nil
}

func validLocale(l string) bool {
	if len(l) > 35 {
		return false
	}
	for _, r := range l {
		if !(r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')) {
			return false
		}
	}
	return true
}

func timeoutParam(name string, ms int64) (time.Duration, *Error) {
	if ms <= 0 {
		return 0, invalid("%s must be a positive number of milliseconds", name)
	}
	d := time.Duration(ms) * time.Millisecond
	if d > MaxTimeout {
		return 0, invalid("%s must be at most %d", name, MaxTimeout.Milliseconds())
	}
	return d, nil
}

type sessionParams struct {
	SessionID *string `json:"session_id"`
}

func (p *sessionParams) sessionID() *string { return p.SessionID }

// sessionRequest decodes the params of a method that acts on a session
// (they embed sessionParams) and returns that session.
func (c *connection) sessionRequest(raw json.RawMessage, p interface{ sessionID() *string }) (*Session, error) {
	if err := decodeParams(raw, p); err != nil {
		return nil, err
	}
	return c.lookup(p.sessionID())
}

// lookup returns the connection's session named by params.session_id.
// Sessions of other connections are NOT_FOUND too: v0.1 isolates them.
func (c *connection) lookup(id *string) (*Session, error) {
	if id == nil {
		return nil, invalid("params.session_id is required")
	}
	if c.session == nil || c.session.ID != *id {
		return nil, notFound("no open session %q on this connection", *id).with("session_id", *id)
	}
	return c.session, nil
}

func (s *Server) sessionClose(_ context.Context, c *connection, raw json.RawMessage) (any, error) {
	var p sessionParams
	sess, err := c.sessionRequest(raw, &p)
	if err != nil {
		return nil, err
	}
	s.sessions.Close(sess.ID)
	c.session = nil
	return map[string]bool{"closed": true}, nil
}

type navigateParams struct {
	sessionParams
	URL       *string `json:"url"`
	TimeoutMS *int64  `json:"timeout_ms"`
}

type navigateResult struct {
	URL         string `json:"url"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	HTMLBytes   int    `json:"html_bytes"`
	SOMReady    bool   `json:"som_ready"`
	LoadMS      int64  `json:"load_ms"`
}

func (s *Server) pageNavigate(ctx context.Context, c *connection, raw json.RawMessage) (any, error) {
	var p navigateParams
	sess, err := c.sessionRequest(raw, &p)
	if err != nil {
		return nil, err
	}
	if p.URL == nil {
		return nil, invalid("params.url is required")
	}
	target, verr := navigableURL(*p.URL)
	if verr != nil {
		return nil, verr
	}
	timeout := sess.Options.Timeout
	if p.TimeoutMS != nil {
		if timeout, verr = timeoutParam("params.timeout_ms", *p.TimeoutMS); verr != nil {
			return nil, verr
		}
	}
	page, err := s.load(ctx, sess, ports.Request{URL: target, Timeout: timeout})
	if err != nil {
		return nil, err
	}
	return navigateResult{
		URL: page.URL, Status: page.Status, ContentType: page.ContentType,
		HTMLBytes: page.HTMLBytes, SOMReady: true, LoadMS: page.LoadTime.Milliseconds(),
	}, nil
}

// navigableURL checks that an agent's URL is one plasmate can fetch.
func navigableURL(raw string) (string, *Error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", invalid("url %q does not parse: %v", raw, err).with("url", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return "", invalid("url %q is not absolute: give a scheme and host, such as https://example.com/", raw).with("url", raw)
	default:
		return "", invalid("url scheme %q is not supported: use http or https", u.Scheme).with("url", raw)
	}
	if u.Hostname() == "" {
		return "", invalid("url %q has no host", raw).with("url", raw)
	}
	return u.String(), nil
}

// load fetches and compiles a page into the session. A failed load leaves
// the previous page in place.
func (s *Server) load(ctx context.Context, sess *Session, req ports.Request) (*Page, error) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	page, err := s.compiler.Load(ctx, sess.fetch, req)
	if err != nil {
		return nil, err
	}
	s.metrics.PageLoaded(page.FetchTime, page.ParseTime+page.CompileTime, page.HTMLBytes, len(page.JSON))
	// The session keeps the document and the SOM; the HTML text itself is
	// not needed again, and would double what an idle session holds.
	page.Body = nil
	sess.page = page
	return page, nil
}

// compilable reports whether a content type is HTML.
func compilable(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// fetchError maps a fetch failure to its AWP error.
func fetchError(req ports.Request, err error) *Error {
	switch {
	case errors.Is(err, ports.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return (&Error{Code: CodeTimeout, Message: fmt.Sprintf("navigation to %s timed out after %d ms", req.URL, req.Timeout.Milliseconds())}).
			with("url", req.URL, "timeout_ms", req.Timeout.Milliseconds())
	case errors.Is(err, ports.ErrUnsupportedScheme), errors.Is(err, ports.ErrInvalidURL):
		return invalid("%v", err).with("url", req.URL)
	case errors.Is(err, context.Canceled):
		return (&Error{Code: CodeNavigationFailed, Message: "navigation cancelled: the connection closed"}).with("url", req.URL)
	}
	e := &Error{Code: CodeNavigationFailed, Message: fmt.Sprintf("navigation to %s failed: %v", req.URL, err)}
	e.with("url", req.URL, "reason", err.Error())
	var fe *ports.FetchError
	if errors.As(err, &fe) {
		if fe.Status != 0 {
			e.with("status", fe.Status)
		}
		if fe.URL != "" {
			e.with("final_url", fe.URL)
		}
		if fe.Limit != 0 {
			e.with("limit", fe.Limit)
		}
	}
	return e
}

func (s *Server) pageObserve(_ context.Context, c *connection, raw json.RawMessage) (any, error) {
	var p sessionParams
	sess, err := c.sessionRequest(raw, &p)
	if err != nil {
		return nil, err
	}
	page := sess.Page()
	if page == nil {
		return nil, notFound("no page loaded yet: call page.navigate first").with("session_id", sess.ID)
	}
	b := make([]byte, 0, len(page.JSON)+8)
	b = append(b, `{"som":`...)
	b = append(b, page.JSON...)
	return rawResult(append(b, '}')), nil
}
