package htmlcharset

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

func TestDecode(t *testing.T) {
	sjis, err := japanese.ShiftJIS.NewEncoder().String("日本語のページ")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, body, contentType string
		want, wantCharset       string
	}{
		{"utf-8 untouched", "<p>café</p>", "text/html; charset=utf-8", "<p>café</p>", "utf-8"},
		{"utf-8 BOM stripped", "\xEF\xBB\xBF<p>x</p>", "", "<p>x</p>", "utf-8"},
		{"windows-1252 from the header", "<p>caf\xE9 \x80</p>", "text/html; charset=windows-1252", "<p>café €</p>", "windows-1252"},
		{"latin1 label means windows-1252", "<p>\x93q\x94</p>", "text/html; charset=ISO-8859-1", "<p>\u201cq\u201d</p>", "windows-1252"},
		{"meta charset", "<meta charset=\"windows-1252\"><p>na\xEFve</p>", "text/html", `<meta charset="windows-1252"><p>naïve</p>`, "windows-1252"},
		{"meta http-equiv", `<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>` + sjis + `</p>`, "",
			`<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>日本語のページ</p>`, "shift_jis"},
		{"header wins over meta", "<meta charset=\"utf-8\"><p>caf\xE9</p>", "text/html; charset=windows-1252", `<meta charset="utf-8"><p>café</p>`, "windows-1252"},
		{"invalid utf-8 without a declaration falls back to windows-1252", "<p>caf\xE9</p>", "", "<p>café</p>", "windows-1252"},
		{"undeclared utf-8 past the first 1024 bytes", "<p>" + strings.Repeat("a", 1100) + "caf\xc3\xa9</p>", "", "<p>" + strings.Repeat("a", 1100) + "café</p>", "utf-8"},
		{"a declaration wins over valid utf-8", "<meta charset=windows-1252><p>" + strings.Repeat("a", 1100) + "\xc3\xa9</p>", "",
			"<meta charset=windows-1252><p>" + strings.Repeat("a", 1100) + "Ã©</p>", "windows-1252"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, cs := Decode([]byte(tc.body), tc.contentType)
			if string(got) != tc.want || cs != tc.wantCharset {
				t.Errorf("Decode(%q, %q) = %q, %q; want %q, %q", tc.body, tc.contentType, got, cs, tc.want, tc.wantCharset)
			}
		})
	}
}
