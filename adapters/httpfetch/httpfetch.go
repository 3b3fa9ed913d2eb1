// Package httpfetch is the fetch adapter over net/http: a cookie jar per
// session (with the public-suffix list), at most 10 redirects, gzip,
// deflate and brotli bodies, charset decoding and a body size limit.
package httpfetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"

	"github.com/andybalholm/brotli"
	"golang.org/x/net/publicsuffix"

	"github.com/plasmate/plasmate/adapters/htmlcharset"
	"github.com/plasmate/plasmate/ports"
)

// Defaults.
const (
	DefaultMaxRedirects = 10
	DefaultMaxBodyBytes = 32 << 20
)

// Config tunes the fetcher.
type Config struct {
	// MaxRedirects is how many redirects a navigation follows.
	MaxRedirects int
	// MaxBodyBytes bounds a body after content decoding.
	MaxBodyBytes int64
	// Transport overrides the shared HTTP transport (tests).
	Transport http.RoundTripper
}

// Fetcher opens sessions that share one connection pool.
type Fetcher struct {
	cfg       Config
	transport http.RoundTripper
}

var _ ports.Fetcher = (*Fetcher)(nil)

// New returns a Fetcher; zero Config fields take the defaults.
func New(cfg Config) *Fetcher {
	if cfg.MaxRedirects <= 0 {
		cfg.MaxRedirects = DefaultMaxRedirects
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	t := cfg.Transport
	if t == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		// Bodies are decoded here, brotli included, so the transport
		// must not negotiate gzip on its own.
		tr.DisableCompression = true
		tr.MaxIdleConnsPerHost = 16
		tr.ResponseHeaderTimeout = 0
		t = tr
	}
	return &Fetcher{cfg: cfg, transport: t}
}

// CloseIdleConnections closes pooled connections that are not in use.
func (f *Fetcher) CloseIdleConnections() {
	if t, ok := f.transport.(interface{ CloseIdleConnections() }); ok {
		t.CloseIdleConnections()
	}
}

// NewSession returns a session with an empty cookie jar.
func (f *Fetcher) NewSession(opts ports.SessionOptions) ports.FetchSession {
	jar, err := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
	if err != nil {
		panic(err) // cookiejar.New never fails
	}
	return &session{f: f, opts: opts, jar: jar}
}

type session struct {
	f    *Fetcher
	opts ports.SessionOptions
	jar  http.CookieJar
}

// Fetch performs one navigation.
func (s *session) Fetch(ctx context.Context, req ports.Request) (*ports.Response, error) {
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	u, err := url.Parse(req.URL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%w: %q", ports.ErrInvalidURL, req.URL)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: %q", ports.ErrUnsupportedScheme, u.Scheme)
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hreq, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ports.ErrInvalidURL, err)
	}
	if req.ContentType != "" {
		hreq.Header.Set("Content-Type", req.ContentType)
	}
	hreq.Header.Set("User-Agent", s.opts.UserAgent)
	if s.opts.AcceptLanguage != "" {
		hreq.Header.Set("Accept-Language", s.opts.AcceptLanguage)
	}
	hreq.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	hreq.Header.Set("Accept-Encoding", "gzip, deflate, br")

	redirects := 0
	client := &http.Client{
		Transport: s.f.transport,
		Jar:       s.jar,
		CheckRedirect: func(r *http.Request, via []*http.Request) error {
			if len(via) > s.f.cfg.MaxRedirects {
				return &ports.FetchError{URL: r.URL.String(), Limit: int64(s.f.cfg.MaxRedirects),
					Err: fmt.Errorf("%w: more than %d", ports.ErrTooManyRedirects, s.f.cfg.MaxRedirects)}
			}
			redirects = len(via)
			return nil
		},
	}
	resp, err := client.Do(hreq)
	if err != nil {
		return nil, classify(ctx, err)
	}
	defer resp.Body.Close()
	raw, err := s.readBody(resp)
	if err != nil {
		if ctx.Err() != nil {
			return nil, classify(ctx, ctx.Err())
		}
		return nil, &ports.FetchError{URL: resp.Request.URL.String(), Status: resp.StatusCode, Limit: limitOf(err), Err: err}
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = http.DetectContentType(raw)
	}
	decoded, cs := htmlcharset.DecodeText(raw, ct)
	return &ports.Response{
		URL:         resp.Request.URL.String(),
		Status:      resp.StatusCode,
		ContentType: ct,
		Body:        decoded,
		RawBytes:    len(raw),
		Charset:     cs,
		Redirects:   redirects,
	}, nil
}

type limitError struct{ limit int64 }

func (e limitError) Error() string {
	return fmt.Sprintf("%v: more than %d bytes", ports.ErrBodyTooLarge, e.limit)
}
func (e limitError) Unwrap() error { return ports.ErrBodyTooLarge }

func limitOf(err error) int64 {
	var le limitError
	if errors.As(err, &le) {
		return le.limit
	}
	return 0
}

// readBody undoes the content encoding and enforces the size limit.
func (s *session) readBody(resp *http.Response) ([]byte, error) {
	var r io.Reader = resp.Body
	switch strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))) {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		defer zr.Close()
		r = zr
	case "deflate":
		// "deflate" is zlib-wrapped by the RFC, raw by some servers.
		br := newPeekReader(resp.Body)
		if zr, err := zlib.NewReader(br); err == nil {
			defer zr.Close()
			r = zr
		} else {
			r = flate.NewReader(br.rewind())
		}
	case "br":
		r = brotli.NewReader(resp.Body)
	default:
		return nil, fmt.Errorf("unsupported content encoding %q", resp.Header.Get("Content-Encoding"))
	}
	limit := s.f.cfg.MaxBodyBytes
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, limitError{limit}
	}
	return b, nil
}

// peekReader remembers what zlib read while checking its header, so that
// a raw deflate stream can be read again from the start.
type peekReader struct {
	r    io.Reader
	seen bytes.Buffer
}

func newPeekReader(r io.Reader) *peekReader { return &peekReader{r: r} }

func (p *peekReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if p.seen.Len() < 64 {
		p.seen.Write(b[:n])
	}
	return n, err
}

func (p *peekReader) rewind() io.Reader { return io.MultiReader(bytes.NewReader(p.seen.Bytes()), p.r) }

// classify turns a client error into the port's errors.
func classify(ctx context.Context, err error) error {
	var fe *ports.FetchError
	if errors.As(err, &fe) {
		return fe
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %v", ports.ErrTimeout, err)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var dnsErr *net.DNSError
	var tlsErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	var opErr *net.OpError
	switch {
	case errors.As(err, &dnsErr):
		return &ports.FetchError{Err: fmt.Errorf("DNS lookup of %s failed: %v", dnsErr.Name, dnsErr.Err)}
	case errors.As(err, &tlsErr), errors.As(err, &recErr):
		return &ports.FetchError{Err: fmt.Errorf("TLS error: %v", err)}
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return &ports.FetchError{Err: fmt.Errorf("connect failed: %v", opErr.Err)}
	}
	return &ports.FetchError{Err: err}
}
