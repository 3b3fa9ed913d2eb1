// Package dom is the parser-neutral document tree the SOM compiler reads.
//
// The parser adapter builds it from whatever HTML parser it wraps, so the
// domain never imports a parser library. Nodes are plain structs linked by
// pointers (rather than an interface per node) because the compiler visits
// every node of every page: a method call and an allocation per node would
// cost more than the compile itself.
package dom

// NodeType tells element, text and the node kinds the compiler skips apart.
type NodeType uint8

const (
	// Other covers comments, doctypes and anything else the SOM omits.
	Other NodeType = iota
	// Document is the root of a parsed page.
	Document
	// Element is an HTML element (see Node.Foreign for SVG and MathML).
	Element
	// Text is a run of character data.
	Text
)

// Attr is one attribute, its key lower-cased by the parser.
type Attr struct {
	Key string
	Val string
}

// Node is one node of the document tree.
type Node struct {
	Parent, FirstChild, NextSibling *Node

	Type NodeType
	// Foreign is true for elements in the SVG or MathML namespace, whose
	// internals the SOM omits.
	Foreign bool
	// Tag is the lower-case local name of an element.
	Tag string
	// Data is the character data of a text node.
	Data  string
	Attrs []Attr
	// Index is the node's position in a pre-order walk of its document,
	// so other views of the same document (a CSS engine's tree, say) can
	// map their nodes to these.
	Index int
}

// Attr returns the value of the attribute key and whether it is present.
func (n *Node) Attr(key string) (string, bool) {
	for i := range n.Attrs {
		if n.Attrs[i].Key == key {
			return n.Attrs[i].Val, true
		}
	}
	return "", false
}

// AttrOr returns the value of the attribute key, or "" when absent.
func (n *Node) AttrOr(key string) string {
	v, _ := n.Attr(key)
	return v
}

// Has reports whether the attribute key is present, whatever its value.
func (n *Node) Has(key string) bool {
	_, ok := n.Attr(key)
	return ok
}

// IsElement reports whether n is an HTML (not foreign) element named tag.
func (n *Node) IsElement(tag string) bool {
	return n.Type == Element && !n.Foreign && n.Tag == tag
}

// Find returns the first element in n's subtree (n included) for which
// match is true, in document order, or nil.
func (n *Node) Find(match func(*Node) bool) *Node {
	if n.Type == Element && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := c.Find(match); f != nil {
			return f
		}
	}
	return nil
}

// Body returns the document's <body> element, or nil when it has none.
func (n *Node) Body() *Node {
	return n.Find(func(e *Node) bool { return e.IsElement("body") })
}
