// Package ports declares the interfaces between the AWP application and
// the world: fetching pages, parsing HTML, and the transport agents
// connect over. Adapters implement them; app and domain use only these.
package ports

import (
	"context"
	"errors"
	"time"

	"github.com/plasmate/plasmate/domain/dom"
)

// Parser turns UTF-8 HTML into a document tree.
type Parser interface {
	Parse(html []byte) (*dom.Node, error)
}

// Fetcher opens fetch sessions: each has its own cookie jar, user agent
// and language, as a browser profile does.
type Fetcher interface {
	NewSession(opts SessionOptions) FetchSession
}

// SessionOptions configure a fetch session.
type SessionOptions struct {
	UserAgent string
	// AcceptLanguage is sent as the Accept-Language header.
	AcceptLanguage string
}

// FetchSession fetches pages with one cookie jar.
type FetchSession interface {
	Fetch(ctx context.Context, req Request) (*Response, error)
}

// Request is one navigation: a GET, or a form submission.
type Request struct {
	Method string // "" means GET
	URL    string
	// Body and ContentType are set for a POST.
	Body        []byte
	ContentType string
	// Timeout bounds the whole navigation, redirects included; zero
	// leaves it to ctx.
	Timeout time.Duration
}

// Response is a fetched page, its body decoded to UTF-8.
type Response struct {
	// URL is the final URL, after redirects.
	URL         string
	Status      int
	ContentType string
	// Body is the response body as UTF-8, whatever charset it came in.
	Body []byte
	// RawBytes is the size of the body as the server sent it (after
	// content-encoding is undone, before charset decoding).
	RawBytes int
	// Charset names the encoding the body was decoded from.
	Charset   string
	Redirects int
}

// Fetch errors. Adapters wrap them with detail; callers test with
// errors.Is.
var (
	ErrTimeout           = errors.New("navigation timed out")
	ErrTooManyRedirects  = errors.New("too many redirects")
	ErrBodyTooLarge      = errors.New("response body over the size limit")
	ErrUnsupportedScheme = errors.New("unsupported URL scheme")
	ErrInvalidURL        = errors.New("invalid URL")
)

// FetchError carries what a failed fetch knows: the URL it reached, the
// HTTP status, the limit it hit.
type FetchError struct {
	URL    string
	Status int
	Limit  int64
	Err    error
}

func (e *FetchError) Error() string { return e.Err.Error() }
func (e *FetchError) Unwrap() error { return e.Err }

// TokenCounter counts the tokens a model would read for a text.
type TokenCounter interface {
	Count(text string) int
}
