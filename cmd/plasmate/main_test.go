package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCompileCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.html")
	if err := os.WriteFile(file, []byte("<title>T</title><a href=/a>A</a>"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		stdin    string
		args     []string
		wantCode int
		wantOut  string // a substring of stdout
		wantErr  string // a substring of stderr
	}{
		{"file with url", "", []string{"compile", file, "--url", "https://x.test/p"}, 0, `"url":"https://x.test/p","title":"T"`, ""},
		{"file without url uses file://", "", []string{"compile", file}, 0, `"url":"file://`, ""},
		{"stdin", "<p>hi</p>", []string{"compile", "-", "--url", "https://x.test/"}, 0, `"text":"hi"`, ""},
		{"stdin by default", "<p>hi</p>", []string{"compile"}, 0, `"url":"about:blank"`, ""},
		{"pretty", "<p>hi</p>", []string{"compile", "--pretty"}, 0, "\n  \"som_version\": \"0.1\"", ""},
		{"missing file", "", []string{"compile", filepath.Join(dir, "nope.html")}, 1, "", "no such file"},
		{"relative url", "", []string{"compile", file, "--url", "/relative"}, 2, "", "not an absolute URL"},
		{"unknown flag", "", []string{"compile", "--bogus"}, 2, "", "unknown flag"},
		{"unknown command", "", []string{"frobnicate"}, 2, "", "unexpected argument"},
		{"version", "", []string{"version"}, 0, "plasmate " + version, ""},
		{"help", "", []string{"--help"}, 0, "compile", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.stdin, tc.args...)
			if code != tc.wantCode || !strings.Contains(out, tc.wantOut) || !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("plasmate %v = %d\nstdout %q\nstderr %q\nwant %d, stdout containing %q, stderr containing %q",
					tc.args, code, out, errOut, tc.wantCode, tc.wantOut, tc.wantErr)
			}
		})
	}
}

func TestCompileOutputIsTheSOM(t *testing.T) {
	code, out, _ := runCLI(t, "<nav><a href=/a>A</a></nav>", "compile", "--url", "https://x.test/")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var som struct {
		Meta struct {
			SOMBytes int `json:"som_bytes"`
		} `json:"meta"`
	}
	if err := json.Unmarshal([]byte(out), &som); err != nil {
		t.Fatal(err)
	}
	if som.Meta.SOMBytes != len(strings.TrimSuffix(out, "\n")) {
		t.Errorf("som_bytes %d, printed %d bytes", som.Meta.SOMBytes, len(out)-1)
	}
}
