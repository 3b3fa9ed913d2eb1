// Package som_test holds the SOM compiler's behaviour tests: the rules of
// the spec as table-driven cases, golden SOMs of the corpus, completeness
// and determinism. They parse with the real parser adapter, so they live
// here rather than in the domain package, which imports no adapter.
package som_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/plasmate/plasmate/adapters/htmlcharset"
	"github.com/plasmate/plasmate/adapters/htmlparse"
	"github.com/plasmate/plasmate/domain/som"
)

const testURL = "https://example.com/dir/page.html"

func compile(t testing.TB, html, pageURL string) *som.SOM {
	t.Helper()
	body, _ := htmlcharset.Decode([]byte(html), "")
	doc, err := htmlparse.New().Parse(body)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return som.Compile(doc, som.Input{URL: pageURL, HTMLBytes: len(html)})
}

// regionsJSON renders the regions with element ids blanked out, so that
// cases can state the structure without restating hashes.
func regionsJSON(t testing.TB, s *som.SOM) string {
	t.Helper()
	s.Walk(func(_ *som.Region, e *som.Element) bool { e.ID = ""; return true })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s.Regions); err != nil {
		t.Fatal(err)
	}
	return string(bytes.ReplaceAll(bytes.TrimSpace(buf.Bytes()), []byte(`"id":"",`), nil))
}

// canonical re-encodes a JSON text so that cases can be written freely.
func canonical(t testing.TB, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad want JSON %s: %v", s, err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return string(bytes.TrimSpace(buf.Bytes()))
}

// normalize re-encodes got through the same generic path as want, which
// sorts object keys the same way.
func normalize(t testing.TB, s string) string { return canonical(t, s) }
