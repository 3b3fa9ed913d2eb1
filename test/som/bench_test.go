package som_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/plasmate/plasmate/adapters/htmlcharset"
	"github.com/plasmate/plasmate/adapters/htmlparse"
	"github.com/plasmate/plasmate/domain/dom"
	"github.com/plasmate/plasmate/domain/som"
)

// The benchmarks run over the whole corpus per iteration, so MB/s and
// allocs/op are per corpus; compare BenchmarkCompile with
// BenchmarkParseOnly (x/net/html alone) in one run.

func benchCorpus(b *testing.B) (bodies [][]byte, total int64) {
	for _, p := range corpus(b) {
		body, _ := htmlcharset.Decode(p.raw, "")
		bodies = append(bodies, body)
		total += int64(len(p.raw))
	}
	return bodies, total
}

// BenchmarkParseOnly is the yardstick: x/net/html's parser alone.
func BenchmarkParseOnly(b *testing.B) {
	bodies, total := benchCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range bodies {
			if _, err := html.Parse(bytes.NewReader(body)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseAdapter is the parser port: parse plus the copy into the
// domain's tree.
func BenchmarkParseAdapter(b *testing.B) {
	bodies, total := benchCorpus(b)
	p := htmlparse.New()
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, body := range bodies {
			if _, err := p.Parse(body); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCompile is the compiler alone, from parsed trees to SOM JSON.
func BenchmarkCompile(b *testing.B) {
	bodies, total := benchCorpus(b)
	docs := make([]*dom.Node, len(bodies))
	for i, body := range bodies {
		d, err := htmlparse.New().Parse(body)
		if err != nil {
			b.Fatal(err)
		}
		docs[i] = d
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for i, d := range docs {
			s := som.Compile(d, som.Input{URL: "https://corpus.example/p.html", HTMLBytes: len(bodies[i])})
			if _, err := s.MarshalCompact(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPipeline is what page.navigate does after the fetch: charset
// decoding, parsing, compiling and encoding.
func BenchmarkPipeline(b *testing.B) {
	pages := corpus(b)
	var total int64
	for _, p := range pages {
		total += int64(len(p.raw))
	}
	parser := htmlparse.New()
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			body, _ := htmlcharset.Decode(p.raw, "")
			d, err := parser.Parse(body)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := som.Compile(d, som.Input{URL: "https://corpus.example/p.html", HTMLBytes: len(p.raw)}).MarshalCompact(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkScaling compiles pathological inputs at growing sizes: ns/op
// should grow in proportion to the size (MB/s stays flat) if the
// pipeline is linear.
func BenchmarkScaling(b *testing.B) {
	shapes := map[string]func(n int) string{
		"deep-nesting": func(n int) string { return strings.Repeat("<div>", n/5) + "x" },
		"text-node":    func(n int) string { return "<p>" + strings.Repeat("word ", n/5) },
		"flat-links":   func(n int) string { return strings.Repeat(`<a href="/x">link</a> `, n/22) },
		"nested-lists": func(n int) string { return strings.Repeat("<ul><li><a href=/>a</a>", n/26) },
	}
	parser := htmlparse.New()
	for _, name := range []string{"deep-nesting", "text-node", "flat-links", "nested-lists"} {
		for _, size := range []int{1 << 20, 4 << 20} {
			src := []byte(shapes[name](size))
			b.Run(fmt.Sprintf("%s/%dMB", name, size>>20), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					d, err := parser.Parse(src)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := som.Compile(d, som.Input{URL: "https://x.test/"}).MarshalCompact(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
