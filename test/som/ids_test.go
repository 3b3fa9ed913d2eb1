package som_test

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/plasmate/plasmate/domain/som"
)

func specID(origin, role, name, path string) string {
	sum := sha256.Sum256([]byte(origin + "|" + role + "|" + name + "|" + path))
	return "e_" + hex.EncodeToString(sum[:])[:12]
}

func elements(s *som.SOM) []*som.Element {
	var out []*som.Element
	s.Walk(func(_ *som.Region, e *som.Element) bool { out = append(out, e); return true })
	return out
}

func TestElementIDFormula(t *testing.T) {
	cases := []struct {
		name, html, url string
		want            []string
	}{
		{"dom path from body, origin without path", `<div><p>x</p><a href="/a">Go Home</a></div>`, "https://Example.com:8443/a/b?q=1",
			[]string{specID("https://example.com:8443", "paragraph", "x", "0/0"), specID("https://example.com:8443", "link", "go home", "0/1")}},
		{"name lower-cased, folded, cut to 100", `<p>` + strings.Repeat("AB  ", 60) + `</p>`, testURL,
			[]string{specID("https://example.com", "paragraph", strings.TrimSpace(strings.Repeat("ab ", 60))[:100], "0")}},
		{"label is the name when present", `<span></span><input aria-label="E-Mail">`, testURL,
			[]string{specID("https://example.com", "text_input", "e-mail", "1")}},
		{"element-child indices skip text nodes", "text<br>more<button>B</button>", testURL,
			[]string{specID("https://example.com", "paragraph", "text more", ""), specID("https://example.com", "button", "b", "1")}},
		{"opaque origin", `<button>B</button>`, "about:blank",
			[]string{specID("null", "button", "b", "0")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range elements(compile(t, tc.html, tc.url)) {
				got = append(got, e.ID)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("ids of %q = %v, want %v", tc.html, got, tc.want)
			}
		})
	}
}

func TestElementIDCollisions(t *testing.T) {
	// Two elements with one role, name and path cannot come from a tree,
	// but a paragraph's runs share their block's path: "x" before and
	// after a nested block collide.
	s := compile(t, `<div>x<div>y</div>x</div>`, testURL)
	els := elements(s)
	if len(els) != 3 {
		t.Fatalf("got %d elements, want 3", len(els))
	}
	base := specID("https://example.com", "paragraph", "x", "0")
	if els[0].ID != base || els[2].ID != base+"_2" {
		t.Errorf("ids = %s, %s; want %s, %s_2", els[0].ID, els[2].ID, base, base)
	}
}

func TestIDsStableAcrossRunsAndSensitiveToChange(t *testing.T) {
	const page = `<nav><a href="/a">A</a></nav><main><h1>T</h1><p>x</p><button>Go</button></main>`
	a, b := elements(compile(t, page, testURL)), elements(compile(t, page, testURL))
	for i := range a {
		if a[i].ID != b[i].ID {
			t.Fatalf("element %d: id %s then %s", i, a[i].ID, b[i].ID)
		}
	}
	other := elements(compile(t, page, "https://other.example/"))
	if other[0].ID == a[0].ID {
		t.Errorf("same id %s on another origin", a[0].ID)
	}
	changed := elements(compile(t, `<nav><a href="/a">B</a></nav>`, testURL))
	if changed[0].ID == a[0].ID {
		t.Errorf("same id %s after the link text changed", a[0].ID)
	}
}
