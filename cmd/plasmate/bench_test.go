package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plasmate/plasmate/app/bench"
)

// TestBenchCommand benchmarks a loopback site with good pages, a 500, a
// page that times out, a PDF and an empty page, through the real command.
func TestBenchCommand(t *testing.T) {
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}
	mux.HandleFunc("/a", page(`<html><head><script>`+strings.Repeat("var x = 1;", 500)+`</script></head><body><nav><a href="/b">B</a></nav><h1>A</h1><p>text</p></body></html>`))
	mux.HandleFunc("/b", page(`<title>B</title><form><input name=q><button>Go</button></form>`))
	mux.HandleFunc("/empty", page(""))
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) })
	mux.HandleFunc("/pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		w.Write([]byte("%PDF-1.4"))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	dir := t.TempDir()
	urls := filepath.Join(dir, "urls.txt")
	lines := "# test site\n" + srv.URL + "/a\n" + srv.URL + "/b  # second\n\n" + srv.URL + "/500\n" + srv.URL + "/slow\n" + srv.URL + "/pdf\n" + srv.URL + "/empty\n"
	if err := os.WriteFile(urls, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	report, results := filepath.Join(dir, "out", "report.md"), filepath.Join(dir, "out", "results.json")
	code, out, errOut := runCLI(t, "", "bench", "--urls", urls, "--output", report, "--json", results, "--timeout-ms", "300", "--concurrency", "3")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	md, _ := os.ReadFile(report)
	for _, want := range []string{
		"# Plasmate SOM Benchmark Report", "Engine: plasmate v" + version, "URLs tested: 6", "Successful: 2 (33%)", "Empty pages: 1", "Failed: 3",
		"| Metric | Mean | Median | P95 |", "| Byte ratio |", "| Token ratio (cl100k_base) |", "| Parse+SOM time (ms) |",
		"| Mean absolute error |", "## Per-URL Results",
		strings.TrimPrefix(srv.URL, "http://") + "/500 |", "NAVIGATION_FAILED: HTTP 500",
		"TIMEOUT: navigation to " + srv.URL + "/slow timed out after 300 ms",
		"NAVIGATION_FAILED: content type \"application/pdf\"",
		"| empty |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	var r bench.Report
	raw, _ := os.ReadFile(results)
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 6 || r.Summary.Successful != 2 || r.Summary.Failed != 3 || r.Summary.Empty != 1 {
		t.Fatalf("JSON summary %+v with %d rows", r.Summary, len(r.Results))
	}
	a := r.Results[0]
	if a.URL != srv.URL+"/a" || a.Status != "ok" || a.HTMLBytes < 5000 || a.SOMBytes == 0 || a.ByteRatio <= 1 ||
		a.HTMLTokensCL100K == 0 || a.SOMTokensO200K == 0 || a.Elements != 3 || a.Interactive != 1 {
		t.Errorf("row a: %+v", a)
	}
	wantStatus := []string{"ok", "ok", "NAVIGATION_FAILED", "TIMEOUT", "NAVIGATION_FAILED", "empty"}
	for i, w := range wantStatus {
		if r.Results[i].Status != w {
			t.Errorf("row %d (%s): status %s, want %s", i, r.Results[i].URL, r.Results[i].Status, w)
		}
	}
	if r.Results[2].HTTPStatus != 500 {
		t.Errorf("500 row: http_status %d", r.Results[2].HTTPStatus)
	}
	if !strings.Contains(errOut, "benchmarked 6 URLs") {
		t.Errorf("stderr %q", errOut)
	}
	if strings.Contains(errOut, "\r") {
		t.Errorf("a progress bar was drawn on a stderr that is not a terminal: %q", errOut)
	}
}

func TestBenchServeDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "one.html"), []byte("<p>one</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, "two.html"), []byte("<a href=/>two</a>"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("skip me"), 0o644)
	code, out, errOut := runCLI(t, "", "bench", "--serve", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "URLs tested: 2") || !strings.Contains(out, "/one.html |") || !strings.Contains(out, "/two.html |") {
		t.Errorf("report:\n%s", out)
	}
	// A urls file of relative paths, resolved against the served folder.
	urls := filepath.Join(t.TempDir(), "urls.txt")
	os.WriteFile(urls, []byte("two.html\n"), 0o644)
	code, out, _ = runCLI(t, "", "bench", "--serve", dir, "--urls", urls)
	if code != 0 || !strings.Contains(out, "URLs tested: 1") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestBenchUsageErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "urls.txt")
	os.WriteFile(bad, []byte("https://ok.test/\nnot a url\n"), 0o644)
	for _, args := range [][]string{
		{"bench"},
		{"bench", "--urls", bad},
		{"bench", "--serve", "/no/such/dir"},
		{"bench", "--urls", bad, "--concurrency", "0"},
	} {
		if code, _, errOut := runCLI(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("plasmate %v: exit %d, stderr %q; want 2 and a message", args, code, errOut)
		}
	}
}

// TestBenchProgressOnATerminal runs the built command under script(1),
// which gives it a pseudo-terminal: the bar must show URL n of N, the
// URL and the failures so far.
func TestBenchProgressOnATerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "plasmate")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	pages := filepath.Join(dir, "pages")
	os.Mkdir(pages, 0o755)
	os.WriteFile(filepath.Join(pages, "a.html"), []byte("<p>a</p>"), 0o644)
	os.WriteFile(filepath.Join(pages, "b.html"), []byte("<p>b</p>"), 0o644)
	cmd := bin + " bench --serve " + pages + " --output " + filepath.Join(dir, "r.md")
	out, err := exec.Command(script, "-qec", cmd, "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"(0/2)", "(1/2)", "failures 0", "/a.html", "/b.html", "benchmarked 2 URLs"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("terminal output lacks %q:\n%q", want, out)
		}
	}
}
