// Package htmlparse is the parser adapter: it parses HTML with
// golang.org/x/net/html (the HTML5 tree-construction algorithm a browser
// uses) and hands the domain a dom tree.
package htmlparse

import (
	"bytes"
	"fmt"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/plasmate/plasmate/domain/dom"
)

// Parser parses UTF-8 HTML. The zero value is ready to use.
type Parser struct{}

// New returns a Parser.
func New() *Parser { return &Parser{} }

// depthLimits are the nesting depths the input is flattened to, in turn,
// when x/net/html refuses a document nested deeper than it allows (512
// open elements). Browsers do the same: Blink stops nesting at 512 and
// attaches deeper elements as siblings. Our count of open elements only
// approximates the parser's (implied end tags, reopened formatting
// elements), hence the retries with smaller limits.
var depthLimits = []int{400, 128, 16}

// Parse parses a whole document. It reads src fully; the bytes must be
// UTF-8 (the fetcher decodes other charsets first).
func (p *Parser) Parse(src []byte) (*dom.Node, error) {
	doc, _, err := p.ParseNative(src)
	return doc, err
}

// ParseNative parses src like Parse and also returns the x/net/html tree
// that the dom tree was built from (dom.Node.Index numbers both alike),
// for adapters that need the native tree, such as a CSS selector engine.
func (p *Parser) ParseNative(src []byte) (*dom.Node, *html.Node, error) {
	root, err := parseHTML(src)
	for i := 0; err != nil && i < len(depthLimits); i++ {
		root, err = parseHTML(flatten(src, depthLimits[i]))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("htmlparse: %w", err)
	}
	return Convert(root), root, nil
}

func parseHTML(src []byte) (*html.Node, error) {
	// Scripting enabled, as in a browser: <noscript> content is raw text
	// and so never reaches the SOM.
	return html.ParseWithOptions(bytes.NewReader(src), html.ParseOptionEnableScripting(true))
}

// flatten re-serializes src with every start tag deeper than limit
// dropped (with its matching end tag), keeping all text and attributes of
// the elements that stay.
func flatten(src []byte, limit int) []byte {
	z := html.NewTokenizer(bytes.NewReader(src))
	var out bytes.Buffer
	out.Grow(len(src))
	var open []atom.Atom
	dropped := map[string]int{}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			// io.EOF or a read error of a bytes.Reader (none): either
			// way the tokens so far are the document.
			return out.Bytes()
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if isVoid(a) {
				break
			}
			if len(open) >= limit {
				dropped[string(name)]++
				continue
			}
			open = append(open, a)
		case html.EndTagToken:
			name, _ := z.TagName()
			if n := dropped[string(name)]; n > 0 {
				dropped[string(name)] = n - 1
				continue
			}
			a := atom.Lookup(name)
			for i := len(open) - 1; i >= 0; i-- {
				if open[i] == a {
					open = open[:i]
					break
				}
			}
		}
		out.Write(raw)
	}
}

func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img,
		atom.Input, atom.Link, atom.Meta, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// Convert copies an x/net/html tree into a dom tree. Nodes and attributes
// are allocated in one slab each, and strings are shared, so the copy
// costs two walks and two allocations whatever the page size.
func Convert(root *html.Node) *dom.Node {
	nodes, attrs := 0, 0
	var count func(*html.Node)
	count = func(n *html.Node) {
		nodes++
		attrs += len(n.Attr)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			count(c)
		}
	}
	count(root)
	c := converter{nodes: make([]dom.Node, nodes), attrs: make([]dom.Attr, attrs)}
	return c.copy(root, nil)
}

type converter struct {
	nodes []dom.Node
	attrs []dom.Attr
	next  int
}

func (c *converter) copy(n *html.Node, parent *dom.Node) *dom.Node {
	d := &c.nodes[c.next]
	d.Index = c.next
	c.next++
	d.Parent = parent
	switch n.Type {
	case html.DocumentNode:
		d.Type = dom.Document
	case html.ElementNode:
		d.Type = dom.Element
		d.Tag = n.Data
		d.Foreign = n.Namespace != ""
		if len(n.Attr) > 0 {
			d.Attrs = c.attrs[:len(n.Attr):len(n.Attr)]
			c.attrs = c.attrs[len(n.Attr):]
			for i, a := range n.Attr {
				key := a.Key
				if a.Namespace != "" {
					key = a.Namespace + ":" + a.Key
				}
				d.Attrs[i] = dom.Attr{Key: key, Val: a.Val}
			}
		}
	case html.TextNode:
		d.Type = dom.Text
		d.Data = n.Data
	default:
		d.Type = dom.Other
	}
	var prev *dom.Node
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		cd := c.copy(ch, d)
		if prev == nil {
			d.FirstChild = cd
		} else {
			prev.NextSibling = cd
		}
		prev = cd
	}
	return d
}
