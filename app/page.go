package app

import (
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
	Doc         *dom.Node
	SOM         *som.SOM
	// JSON is the compact SOM, exactly the bytes page.observe returns.
	JSON []byte
	// ParseTime and CompileTime split the time from body to SOM.
	ParseTime, CompileTime time.Duration
	// LoadTime is the whole navigation, fetch included.
	LoadTime time.Duration
}

// Compiler turns a fetched response into a Page: parse, compile, encode.
// page.navigate, `plasmate compile` and `plasmate bench` all use it.
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
		Doc:         doc,
		SOM:         s,
		JSON:        js,
		ParseTime:   t1.Sub(t0),
		CompileTime: t2.Sub(t1),
	}, nil
}
