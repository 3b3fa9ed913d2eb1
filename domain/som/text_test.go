package som

import (
	"strings"
	"testing"
)

func TestFold(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{" a  b ", "a b"},
		{"a\n\t\r\fb", "a b"},
		{"a\u00a0\u00a0b\u2003c", "a b c"},
		{"日本 語", "日本 語"},
	}
	for _, tc := range cases {
		if got := fold(tc.in); got != tc.want {
			t.Errorf("fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	cases := []struct{ in, want string }{
		{strings.Repeat("a", 200), strings.Repeat("a", 200)},
		{strings.Repeat("a", 201), strings.Repeat("a", 200) + "..."},
		{strings.Repeat("é", 201), strings.Repeat("é", 200) + "..."},
		{strings.Repeat("a", 199) + " b", strings.Repeat("a", 199) + "..."},
	}
	for _, tc := range cases {
		if got := truncate(tc.in); got != tc.want {
			t.Errorf("truncate(%d chars) = %q, want %q", len([]rune(tc.in)), got, tc.want)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Sign In", "sign in"},
		{"ÉCOLE", "école"},
		{strings.Repeat("A", 150), strings.Repeat("a", 100)},
		{strings.Repeat("x", 99) + " y", strings.Repeat("x", 99)},
	}
	for _, tc := range cases {
		if got := normalizeName(tc.in); got != tc.want {
			t.Errorf("normalizeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTextBufCapsMemory(t *testing.T) {
	var b textBuf
	for range 100000 {
		b.add("word ")
	}
	if len(b.b) > maxRunBytes+8 {
		t.Errorf("buffer grew to %d bytes", len(b.b))
	}
	if got := b.text(); len([]rune(got)) > maxTextRunes+3 || !strings.HasSuffix(got, "...") {
		t.Errorf("text() = %q", got)
	}
}

func TestStyleHides(t *testing.T) {
	cases := map[string]bool{
		"display:none":                        true,
		"DISPLAY: NONE":                       true,
		"color:red;display : none !important": true,
		"visibility:hidden":                   true,
		"visibility: collapse":                true,
		"display:block":                       false,
		"border:none":                         false,
		"overflow:hidden":                     false,
		"":                                    false,
	}
	for style, want := range cases {
		if got := styleHides(style); got != want {
			t.Errorf("styleHides(%q) = %v, want %v", style, got, want)
		}
	}
}
