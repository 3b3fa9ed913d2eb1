package som_test

import (
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"github.com/plasmate/plasmate/domain/som"
)

// checkValid asserts what every SOM must satisfy: it encodes to JSON that
// decodes again, its meta agrees with its content, and ids are unique.
func checkValid(t testing.TB, s *som.SOM) []byte {
	t.Helper()
	js, err := s.MarshalCompact()
	if err != nil {
		t.Fatalf("MarshalCompact: %v", err)
	}
	if !json.Valid(js) {
		t.Fatalf("SOM is not valid JSON: %.200s", js)
	}
	if s.Meta.SOMBytes != len(js) {
		t.Errorf("meta.som_bytes = %d, JSON is %d bytes", s.Meta.SOMBytes, len(js))
	}
	seen := map[string]bool{}
	count, interactive := 0, 0
	s.Walk(func(_ *som.Region, e *som.Element) bool {
		if seen[e.ID] {
			t.Errorf("duplicate element id %s", e.ID)
		}
		seen[e.ID] = true
		count++
		if len(e.Actions) > 0 {
			interactive++
		}
		return true
	})
	for _, r := range s.Regions {
		if seen[r.ID] {
			t.Errorf("duplicate region id %s", r.ID)
		}
		seen[r.ID] = true
	}
	if s.Meta.ElementCount != count || s.Meta.InteractiveCount != interactive {
		t.Errorf("meta counts %d/%d, SOM has %d/%d", s.Meta.ElementCount, s.Meta.InteractiveCount, count, interactive)
	}
	return js
}

func TestDegenerateInputs(t *testing.T) {
	cases := []struct {
		name         string
		html         string
		wantElements int
	}{
		{"empty document", "", 0},
		{"head only", `<html><head><title>T</title></head></html>`, 0},
		{"whitespace body", "<body>\n\t </body>", 0},
		{"fragment", `<li>one<li>two`, 2},
		{"broken markup", `<div><p>a<b>b</p>c</i></div></span><table><td>x<tr>`, 3},
		{"frameset, no body", `<frameset><frame src="a.html"></frameset>`, 0},
		{"only a comment", `<!-- nothing -->`, 0},
		{"unclosed attribute", `<a href="/x>text`, 0},
		{"nul bytes", "<p>a\x00b</p>", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := compile(t, tc.html, testURL)
			checkValid(t, s)
			if s.Meta.ElementCount != tc.wantElements {
				t.Errorf("element_count = %d, want %d", s.Meta.ElementCount, tc.wantElements)
			}
		})
	}
}

func TestTitleAndLang(t *testing.T) {
	cases := []struct{ html, title, lang string }{
		{`<html lang=" de "><head><title> A  title </title></head></html>`, "A title", "de"},
		{`<body><p>x</p><title>Late</title>`, "Late", ""},
		{`<title>First</title><title>Second</title>`, "First", ""},
		{`<svg><title>not the page's</title></svg>`, "", ""},
	}
	for _, tc := range cases {
		s := compile(t, tc.html, testURL)
		if s.Title != tc.title || s.Lang != tc.lang {
			t.Errorf("Compile(%q): title %q lang %q, want %q %q", tc.html, s.Title, s.Lang, tc.title, tc.lang)
		}
	}
}

func TestHugeInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	t.Run("100000-deep nesting", func(t *testing.T) {
		s := compile(t, strings.Repeat("<div>", 100000)+"deep"+strings.Repeat("</div>", 100000), testURL)
		checkValid(t, s)
		if s.Meta.ElementCount != 1 {
			t.Errorf("element_count = %d, want the one paragraph", s.Meta.ElementCount)
		}
	})
	t.Run("100000-deep lists and sections", func(t *testing.T) {
		s := compile(t, strings.Repeat("<section><ul><li>x", 50000), testURL)
		js := checkValid(t, s)
		var v any
		if err := json.Unmarshal(js, &v); err != nil {
			t.Fatal(err)
		}
		if d := depth(v); d > 40 {
			t.Errorf("JSON nests %d deep; nesting should be capped", d)
		}
	})
	t.Run("1 MB text node", func(t *testing.T) {
		s := compile(t, "<p>"+strings.Repeat("word ", 200000)+"</p>", testURL)
		checkValid(t, s)
		els := elements(s)
		if len(els) != 1 || len([]rune(els[0].Text)) > 203 || !strings.HasSuffix(els[0].Text, "...") {
			t.Errorf("want one paragraph of 200 characters and ..., got %d elements", len(els))
		}
	})
	t.Run("10 MB page", func(t *testing.T) {
		var b strings.Builder
		for b.Len() < 10<<20 {
			b.WriteString(`<div class="row"><h3>Item</h3><p>Some text about the item, long enough to be a paragraph.</p><a href="/item">more</a><input name="q"></div>`)
		}
		s := compile(t, b.String(), testURL)
		checkValid(t, s)
		if s.Meta.InteractiveCount < 100000 {
			t.Errorf("interactive_count = %d, want every link and input", s.Meta.InteractiveCount)
		}
	})
}

func depth(v any) int {
	switch x := v.(type) {
	case map[string]any:
		d := 0
		for _, c := range x {
			d = max(d, depth(c))
		}
		return d + 1
	case []any:
		d := 0
		for _, c := range x {
			d = max(d, depth(c))
		}
		return d + 1
	}
	return 0
}

func TestCharsetsCompileToUTF8(t *testing.T) {
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("東京の天気")
	cases := []struct{ name, html, want string }{
		{"windows-1252 by meta", "<meta charset=windows-1252><p>Caf\xE9 cr\xE8me \x80</p>", "Café crème €"},
		{"Shift_JIS by meta", `<meta charset="Shift_JIS"><p>` + sjis + `</p>`, "東京の天気"},
		{"undeclared latin-1 bytes", "<p>na\xEFve</p>", "naïve"},
		{"utf-8 by meta", `<meta charset="utf-8"><p>ünïcödé</p>`, "ünïcödé"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			els := elements(compile(t, tc.html, testURL))
			if len(els) != 1 || els[0].Text != tc.want {
				t.Errorf("text = %v, want %q", els, tc.want)
			}
		})
	}
}
