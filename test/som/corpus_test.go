package som_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/plasmate/plasmate/adapters/htmlcharset"
	"github.com/plasmate/plasmate/adapters/htmlparse"
	"github.com/plasmate/plasmate/domain/som"
)

var update = flag.Bool("update", false, "rewrite the golden SOM files from the current compiler")

// corpusDir is the shared corpus of real pages: PLASMATE_CORPUS, else
// the shared folder beside the repository.
func corpusDir(t testing.TB) string {
	if d := os.Getenv("PLASMATE_CORPUS"); d != "" {
		return d
	}
	for _, d := range []string{"../../../shared/corpus/pages", "/work/shared/corpus/pages"} {
		if abs, err := filepath.Abs(d); err == nil {
			if _, err := os.Stat(abs); err == nil {
				return abs
			}
		}
	}
	return "../../../shared/corpus/pages"
}

type corpusPage struct {
	name string
	raw  []byte
}

func corpus(t testing.TB) []corpusPage {
	t.Helper()
	dir := corpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(files) == 0 {
		t.Skipf("no corpus pages in %s (set PLASMATE_CORPUS)", dir)
	}
	var pages []corpusPage
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, corpusPage{name: strings.TrimSuffix(filepath.Base(f), ".html"), raw: raw})
	}
	return pages
}

func corpusURL(name string) string { return "https://corpus.example/" + name + ".html" }

func compileRaw(t testing.TB, raw []byte, pageURL string) (*som.SOM, *html.Node) {
	t.Helper()
	body, _ := htmlcharset.Decode(raw, "")
	doc, native, err := htmlparse.New().ParseNative(body)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return som.Compile(doc, som.Input{URL: pageURL, HTMLBytes: len(raw)}), native
}

// TestGolden compares each corpus page's SOM with the reviewed file under
// testdata/golden. Run with -update to regenerate, then review the diff.
func TestGolden(t *testing.T) {
	for _, p := range corpus(t) {
		t.Run(p.name, func(t *testing.T) {
			s, _ := compileRaw(t, p.raw, corpusURL(p.name))
			js := checkValid(t, s)
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, js, "", " "); err != nil {
				t.Fatal(err)
			}
			pretty.WriteByte('\n')
			golden := filepath.Join("testdata", "golden", p.name+".som.json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("no golden file (run go test ./test/som -run TestGolden -update): %v", err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Errorf("SOM of %s differs from %s; first difference near: %s", p.name, golden, firstDiff(pretty.Bytes(), want))
			}
		})
	}
}

func firstDiff(got, want []byte) string {
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if gl[i] != wl[i] {
			return "line " + itoa(i+1) + ": got " + gl[i] + ", want " + wl[i]
		}
	}
	return "length: got " + itoa(len(gl)) + " lines, want " + itoa(len(wl))
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestDeterminism compiles each page twice: the same bytes both times.
func TestDeterminism(t *testing.T) {
	for _, p := range corpus(t) {
		a, _ := compileRaw(t, p.raw, corpusURL(p.name))
		b, _ := compileRaw(t, p.raw, corpusURL(p.name))
		ja, jb := checkValid(t, a), checkValid(t, b)
		if !bytes.Equal(ja, jb) {
			t.Errorf("%s: two compiles gave different SOMs", p.name)
		}
	}
}

// TestCompleteness counts, with a walker of its own over the parser's
// tree, every visible link, button, input, select and textarea of each
// page, and checks that exactly those nodes became SOM elements.
func TestCompleteness(t *testing.T) {
	for _, p := range corpus(t) {
		t.Run(p.name, func(t *testing.T) {
			s, native := compileRaw(t, p.raw, corpusURL(p.name))
			want := map[int]string{}
			var nodes []*html.Node
			var walk func(n *html.Node, visible bool)
			walk = func(n *html.Node, visible bool) {
				me := len(nodes)
				nodes = append(nodes, n)
				if n.Type == html.ElementNode {
					visible = visible && n.Namespace == "" && !invisible(n)
					if visible && control(n) {
						want[me] = n.Data
					}
				}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c, visible)
				}
			}
			walk(native, true)
			got := map[int]bool{}
			s.Walk(func(_ *som.Region, e *som.Element) bool {
				if e.Node != nil {
					got[e.Node.Index] = true
				}
				return true
			})
			missing := 0
			for idx, tag := range want {
				if !got[idx] {
					missing++
					if missing <= 5 {
						t.Errorf("visible <%s> (node %d) has no SOM element", tag, idx)
					}
				}
			}
			n := 0
			s.Walk(func(_ *som.Region, e *som.Element) bool {
				if e.Node != nil && control(nodes[e.Node.Index]) {
					n++
				}
				return true
			})
			if missing > 0 || n != len(want) {
				t.Errorf("page has %d visible controls, SOM has %d of them (%d missing)", len(want), n, missing)
			}
		})
	}
}

// control reports whether a node is one the completeness rule counts.
func control(n *html.Node) bool {
	if n == nil || n.Type != html.ElementNode || n.Namespace != "" {
		return false
	}
	switch n.Data {
	case "a":
		for _, a := range n.Attr {
			if a.Key == "href" {
				return true
			}
		}
	case "button", "select", "textarea":
		return true
	case "input":
		for _, a := range n.Attr {
			if a.Key == "type" && strings.EqualFold(strings.TrimSpace(a.Val), "hidden") {
				return false
			}
		}
		return true
	}
	return false
}

// invisible is this test's own reading of the spec's hiding rules.
func invisible(n *html.Node) bool {
	switch n.Data {
	case "template", "script", "style", "noscript", "head", "iframe", "object", "embed",
		"video", "audio", "canvas", "map", "select", "datalist":
		// A select's options are not controls of their own.
		if n.Data == "select" {
			return false
		}
		return true
	case "dialog":
		open := false
		for _, a := range n.Attr {
			open = open || a.Key == "open"
		}
		if !open {
			return true
		}
	}
	for _, a := range n.Attr {
		v := strings.ToLower(strings.ReplaceAll(a.Val, " ", ""))
		switch {
		case a.Key == "hidden":
			return true
		case a.Key == "aria-hidden" && v == "true":
			return true
		case a.Key == "style" && (strings.Contains(v, "display:none") || strings.Contains(v, "visibility:hidden") || strings.Contains(v, "visibility:collapse")):
			return true
		}
	}
	return false
}
