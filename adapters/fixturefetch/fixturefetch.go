// Package fixturefetch is an in-memory fetch adapter for offline,
// deterministic tests: URLs map to fixed responses (or to an http.Handler
// run in-process). Requests never touch the network, yet go through the
// same redirect, cookie, encoding and charset handling as the net/http
// adapter, whose client it drives with an in-memory transport.
package fixturefetch

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/plasmate/plasmate/adapters/httpfetch"
	"github.com/plasmate/plasmate/ports"
)

// Page is a fixed response.
type Page struct {
	Status int // 0 means 200
	Header http.Header
	Body   []byte
	// Delay holds the response back, to test timeouts.
	Delay time.Duration
}

// HTML is a 200 text/html page.
func HTML(body string) Page {
	return Page{Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(body)}
}

// Redirect is a 302 to location.
func Redirect(location string) Page {
	return Page{Status: http.StatusFound, Header: http.Header{"Location": {location}}}
}

// Fetcher serves fixtures. Add pages and handlers before fetching.
type Fetcher struct {
	*httpfetch.Fetcher
	t *transport
}

var _ ports.Fetcher = (*Fetcher)(nil)

// New returns a Fetcher with no pages: every URL fails as an unknown host.
func New() *Fetcher {
	t := &transport{pages: map[string]Page{}, hosts: map[string]http.Handler{}}
	return &Fetcher{Fetcher: httpfetch.New(httpfetch.Config{Transport: t}), t: t}
}

// Add serves p at rawURL (scheme, host, path and query; no fragment).
func (f *Fetcher) Add(rawURL string, p Page) *Fetcher {
	f.t.mu.Lock()
	defer f.t.mu.Unlock()
	f.t.pages[key(rawURL)] = p
	return f
}

// Handle serves every URL of host (host[:port]) with h, in-process.
func (f *Fetcher) Handle(host string, h http.Handler) *Fetcher {
	f.t.mu.Lock()
	defer f.t.mu.Unlock()
	f.t.hosts[host] = h
	return f
}

// Requests returns the requests made so far, in order.
func (f *Fetcher) Requests() []*http.Request {
	f.t.mu.Lock()
	defer f.t.mu.Unlock()
	return append([]*http.Request(nil), f.t.log...)
}

func key(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

type transport struct {
	mu    sync.Mutex
	pages map[string]Page
	hosts map[string]http.Handler
	log   []*http.Request
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	t.log = append(t.log, req)
	p, ok := t.pages[key(req.URL.String())]
	h := t.hosts[req.URL.Host]
	t.mu.Unlock()
	if req.Body != nil {
		defer req.Body.Close()
	}
	if !ok && h == nil {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: req.URL.Hostname(), IsNotFound: true}}
	}
	if !ok {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if err := req.Context().Err(); err != nil {
			// A real client would not have seen the response either.
			return nil, err
		}
		resp := rec.Result()
		resp.Request = req
		return resp, nil
	}
	if p.Delay > 0 {
		select {
		case <-time.After(p.Delay):
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
	}
	status := p.Status
	if status == 0 {
		status = http.StatusOK
	}
	header := p.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	header.Set("Content-Length", strconv.Itoa(len(p.Body)))
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          io.NopCloser(bytes.NewReader(p.Body)),
		ContentLength: int64(len(p.Body)),
		Request:       req,
	}, nil
}
