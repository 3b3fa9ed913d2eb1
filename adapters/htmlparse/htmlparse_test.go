package htmlparse

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/plasmate/plasmate/domain/dom"
)

func TestParseBuildsTheSameTree(t *testing.T) {
	src := `<!doctype html><html lang=en><body><p class=a>x<b>y</b></p><svg><a href=1></a></svg><!-- c --><input type=text disabled></body>`
	doc, native, err := New().ParseNative([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var nodes []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		nodes = append(nodes, n)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(native)
	i := 0
	var check func(d *dom.Node)
	check = func(d *dom.Node) {
		n := nodes[i]
		if d.Index != i {
			t.Errorf("node %d has Index %d", i, d.Index)
		}
		i++
		switch n.Type {
		case html.ElementNode:
			if d.Type != dom.Element || d.Tag != n.Data || d.Foreign != (n.Namespace != "") || len(d.Attrs) != len(n.Attr) {
				t.Errorf("node %d: got %+v for <%s>", d.Index, d, n.Data)
			}
		case html.TextNode:
			if d.Type != dom.Text || d.Data != n.Data {
				t.Errorf("node %d: text %q, want %q", d.Index, d.Data, n.Data)
			}
		}
		for c := d.FirstChild; c != nil; c = c.NextSibling {
			if c.Parent != d {
				t.Errorf("node %d: wrong parent", c.Index)
			}
			check(c)
		}
	}
	check(doc)
	if i != len(nodes) {
		t.Errorf("dom tree has %d nodes, x/net/html %d", i, len(nodes))
	}
	if v, ok := doc.Body().FirstChild.Attr("class"); !ok || v != "a" {
		t.Errorf("class attribute = %q, %v", v, ok)
	}
}

func TestParseFlattensWhatIsTooDeep(t *testing.T) {
	cases := map[string]string{
		"divs":               strings.Repeat("<div>", 100000) + "deep" + strings.Repeat("</div>", 100000),
		"unclosed spans":     strings.Repeat("<span>", 5000) + "deep",
		"formatting":         strings.Repeat("<b><i>", 3000) + "deep<p>x",
		"tables":             strings.Repeat("<table><tr><td>", 2000) + "deep",
		"mixed with closers": strings.Repeat("<div><p>a</p><ul><li>", 3000) + "deep",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			doc, err := New().Parse([]byte(src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !strings.Contains(text(doc), "deep") {
				t.Errorf("the innermost text was lost")
			}
		})
	}
}

func text(n *dom.Node) string {
	var b strings.Builder
	var walk func(*dom.Node)
	walk = func(n *dom.Node) {
		if n.Type == dom.Text {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
