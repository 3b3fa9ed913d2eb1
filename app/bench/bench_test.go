package bench

import (
	"bytes"
	"flag"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/report.golden.md")

func TestParseURLs(t *testing.T) {
	base, _ := url.Parse("http://127.0.0.1:8080/")
	cases := []struct {
		name    string
		in      string
		base    *url.URL
		want    []string
		wantErr string
	}{
		{"spec example", "# Static sites\nhttps://news.ycombinator.com\nhttps://en.wikipedia.org/wiki/Rust_(programming_language)\n\n# News\nhttps://www.bbc.com/news\n", nil,
			[]string{"https://news.ycombinator.com", "https://en.wikipedia.org/wiki/Rust_(programming_language)", "https://www.bbc.com/news"}, ""},
		{"indented comments, CRLF and trailing comments", "  # c\r\nhttps://a.test/x  # note\r\n\thttps://b.test/\t# tab note\r\n", nil,
			[]string{"https://a.test/x", "https://b.test/"}, ""},
		{"fragments are not comments", "https://a.test/page#top\n", nil, []string{"https://a.test/page#top"}, ""},
		{"relative with a base", "cnn.html\n/dir/x.html\n", base, []string{"http://127.0.0.1:8080/cnn.html", "http://127.0.0.1:8080/dir/x.html"}, ""},
		{"relative without a base", "https://ok.test/\ncnn.html\n", nil, nil, "line 2"},
		{"two words", "https://a.test/ https://b.test/\n", nil, nil, "line 1"},
		{"other scheme", "ftp://a.test/f\n", nil, nil, "only http and https"},
		{"no host", "http:///path\n", nil, nil, "no valid host"},
		{"bad host (found by fuzzing)", "//:0:0\n", base, nil, "no valid host"},
		{"empty file", "\n# nothing\n", nil, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseURLs(strings.NewReader(tc.in), tc.base)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseURLs(%q) error = %v, want one mentioning %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("ParseURLs(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func FuzzParseURLs(f *testing.F) {
	f.Add("# c\nhttps://a.test/x # n\n\nrel.html\n")
	f.Add("http://[::1]:80/\n%zz\n")
	base, _ := url.Parse("http://127.0.0.1:1/")
	f.Fuzz(func(t *testing.T, in string) {
		urls, err := ParseURLs(strings.NewReader(in), base)
		if err != nil {
			return
		}
		for _, u := range urls {
			p, perr := url.Parse(u)
			if perr != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Hostname() == "" {
				t.Fatalf("ParseURLs accepted %q from %q", u, in)
			}
		}
	})
}

func TestDescribe(t *testing.T) {
	cases := []struct {
		in   []float64
		want Stat
	}{
		{nil, Stat{}},
		{[]float64{5}, Stat{5, 5, 5}},
		{[]float64{4, 1, 3, 2}, Stat{2.5, 2.5, 4}},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, Stat{10.5, 10.5, 19}},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 100}, Stat{310.0 / 21, 11, 20}},
	}
	for _, tc := range cases {
		got := Describe(tc.in)
		if math.Abs(got.Mean-tc.want.Mean) > 1e-9 || got.Median != tc.want.Median || got.P95 != tc.want.P95 {
			t.Errorf("Describe(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestSummarizeAveragesPerURLRatios(t *testing.T) {
	rs := []Result{
		{Status: StatusOK, HTMLBytes: 1000, SOMBytes: 100, ByteRatio: 10},
		{Status: StatusOK, HTMLBytes: 100000, SOMBytes: 50000, ByteRatio: 2},
		{Status: "TIMEOUT"},
		{Status: StatusEmpty},
	}
	s := Summarize(rs)
	if s.ByteRatio.Mean != 6 { // not 101000/50100
		t.Errorf("mean byte ratio %v, want 6 (per-URL ratios averaged)", s.ByteRatio.Mean)
	}
	if s.URLsTested != 4 || s.Successful != 2 || s.Failed != 1 || s.Empty != 1 {
		t.Errorf("counts %+v", s)
	}
}

func fixedReport() *Report {
	rs := []Result{
		{URL: "https://news.example/", Status: StatusOK, HTTPStatus: 200, HTMLBytes: 42891, SOMBytes: 1847, ByteRatio: 42891.0 / 1847,
			HTMLTokensEst: 10723, SOMTokensEst: 462, TokenRatioEst: 10723.0 / 462, HTMLTokensCL100K: 11000, SOMTokensCL100K: 500, TokenRatioCL100K: 22,
			HTMLTokensO200K: 10500, SOMTokensO200K: 480, TokenRatioO200K: 10500.0 / 480, Elements: 94, Interactive: 38, FetchMS: 312.4, ParseSOMMS: 6.25},
		{URL: "https://en.wiki.example/wiki/A_very_long_article_title_that_goes_on_and_on_and_on", Status: StatusOK, HTTPStatus: 200,
			HTMLBytes: 218445, SOMBytes: 8932, ByteRatio: 218445.0 / 8932, HTMLTokensEst: 54611, SOMTokensEst: 2233, TokenRatioEst: 54611.0 / 2233,
			HTMLTokensCL100K: 60000, SOMTokensCL100K: 2500, TokenRatioCL100K: 24, HTMLTokensO200K: 59000, SOMTokensO200K: 2400, TokenRatioO200K: 59000.0 / 2400,
			Elements: 312, Interactive: 89, FetchMS: 1240, ParseSOMMS: 18},
		{URL: "https://down.example/", Status: "NAVIGATION_FAILED", Error: "HTTP 500 with a body that is not HTML (\"text/plain\")", HTTPStatus: 500, FetchMS: 0},
		{URL: "https://slow.example/", Status: "TIMEOUT", Error: "navigation to https://slow.example/ timed out after 200 ms"},
	}
	return &Report{Date: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC), Engine: "plasmate", Version: "0.1.0", Concurrency: 4,
		WallTime: 1.5, Results: rs, Summary: Summarize(rs)}
}

func TestWriteMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, fixedReport()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.golden.md")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("report differs from %s:\n%s", golden, buf.String())
	}
}

func TestCount(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 38412.4: "38,412", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := count(in); got != want {
			t.Errorf("count(%v) = %q, want %q", in, got, want)
		}
	}
}
