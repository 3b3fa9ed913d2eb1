package app

import (
	"context"
	"fmt"
	"time"

	"github.com/plasmate/plasmate/domain/dom"
	"github.com/plasmate/plasmate/domain/som"
	"github.com/plasmate/plasmate/ports"
)

// Page is a loaded page: the SOM an agent observes, its JSON as sent, and
// the parsed document kept beside it for acting (forms' hidden inputs,
// CSS selectors).
type Page struct {
	URL         string
	Status      int
	ContentType string
	HTMLBytes   int
	// Body is the HTML as UTF-8, as it was parsed; a session drops it
	// when it stores the page.
	Body []byte
	Doc  *dom.Node
	SOM  *som.SOM
	// JSON is the compact SOM, exactly the bytes page.observe returns.
	JSON []byte
	// FetchTime is the fetch, redirects included; ParseTime and
	// CompileTime split the time from body to SOM.
	FetchTime, ParseTime, CompileTime time.Duration
	// LoadTime is the whole navigation, fetch included.
	LoadTime time.Duration
}

// Compiler turns a fetched response into a Page: parse, compile, encode.
// page.navigate, `plasmate compile` and `plasmate bench` all use it, so
// what the bench measures is what agents get.
type Compiler struct {
	Parser ports.Parser
}

// NewCompiler returns a Compiler that parses with p.
func NewCompiler(p ports.Parser) *Compiler { return &Compiler{Parser: p} }

// Compile parses and compiles a response's body.
func (c *Compiler) Compile(resp *ports.Response) (*Page, error) {
	t0 := time.Now()
	doc, err := c.Parser.Parse(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	t1 := time.Now()
	s := som.Compile(doc, som.Input{URL: resp.URL, HTMLBytes: resp.RawBytes})
	js, err := s.MarshalCompact()
	if err != nil {
		return nil, fmt.Errorf("encode SOM: %w", err)
	}
	t2 := time.Now()
	return &Page{
		URL:         resp.URL,
		Status:      resp.Status,
		ContentType: resp.ContentType,
		HTMLBytes:   resp.RawBytes,
		Body:        resp.Body,
		Doc:         doc,
		SOM:         s,
		JSON:        js,
		ParseTime:   t1.Sub(t0),
		CompileTime: t2.Sub(t1),
	}, nil
}

// Load is a navigation: fetch with the session, check that the response
// can be compiled, compile it. Errors are AWP errors (*Error) with the
// code an agent would get from page.navigate.
func (c *Compiler) Load(ctx context.Context, fs ports.FetchSession, req ports.Request) (*Page, error) {
	start := time.Now()
	// The fetch session bounds the navigation by req.Timeout (the port's
	// contract, checked by adapters/fetchertest); compiling has no I/O.
	resp, err := fs.Fetch(ctx, req)
	if err != nil {
		return nil, fetchError(req, err)
	}
	fetched := time.Since(start)
	if !compilable(resp.ContentType) {
		e := &Error{Code: CodeNavigationFailed, Message: fmt.Sprintf("content type %q cannot be compiled into a SOM", resp.ContentType)}
		if resp.Status >= 400 {
			e.Message = fmt.Sprintf("HTTP %d with a body that is not HTML (%q)", resp.Status, resp.ContentType)
		}
		return nil, e.with("url", req.URL, "final_url", resp.URL, "status", resp.Status, "content_type", resp.ContentType)
	}
	page, err := c.Compile(resp)
	if err != nil {
		return nil, err
	}
	page.FetchTime = fetched
	page.LoadTime = time.Since(start)
	return page, nil
}
