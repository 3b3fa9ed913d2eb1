// Package arch checks the dependency rule of the hexagonal design: the
// domain imports nothing outside the standard library and itself, ports
// import no adapter, app reaches the world only through ports.
package arch

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/plasmate/plasmate"

type pkg struct {
	ImportPath string
	Imports    []string
	Standard   bool
}

func TestDependencyRule(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		layer := strings.TrimPrefix(p.ImportPath, module+"/")
		for _, imp := range p.Imports {
			if msg := violates(layer, imp); msg != "" {
				t.Errorf("%s imports %s: %s", p.ImportPath, imp, msg)
			}
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d packages listed", checked)
	}
}

// violates says why package layer may not import imp, or "".
func violates(layer, imp string) string {
	own := strings.HasPrefix(imp, module+"/")
	std := !strings.Contains(strings.Split(imp, "/")[0], ".")
	target := strings.TrimPrefix(imp, module+"/")
	switch {
	case strings.HasPrefix(layer, "domain"):
		if !std && !(own && strings.HasPrefix(target, "domain")) {
			return "domain is pure: standard library and domain only"
		}
		if imp == "net/http" || imp == "net" || strings.HasPrefix(imp, "net/http/") {
			return "domain does no I/O"
		}
	case strings.HasPrefix(layer, "ports"):
		if own && !strings.HasPrefix(target, "domain") {
			return "ports know only the domain"
		}
		if !std && !own {
			return "ports are plain interfaces over the standard library"
		}
	case strings.HasPrefix(layer, "app"):
		if own && (strings.HasPrefix(target, "adapters") || strings.HasPrefix(target, "cmd")) {
			return "app reaches adapters only through ports"
		}
		if strings.Contains(imp, "gobwas") || strings.Contains(imp, "x/net/html") || strings.Contains(imp, "prometheus") {
			return "app knows no transport, parser or metrics library"
		}
	case strings.HasPrefix(layer, "adapters"):
		if own && (strings.HasPrefix(target, "app") || strings.HasPrefix(target, "cmd")) {
			return "adapters implement ports; they do not call the application"
		}
	}
	return ""
}

func TestViolatesCatchesCrossings(t *testing.T) {
	bad := [][2]string{
		{"domain/som", module + "/adapters/htmlparse"},
		{"domain/som", "golang.org/x/net/html"},
		{"domain/som", "net/http"},
		{"ports", module + "/adapters/httpfetch"},
		{"app", module + "/adapters/htmlparse"},
		{"app", "github.com/gobwas/ws"},
		{"adapters/httpfetch", module + "/app"},
	}
	for _, b := range bad {
		if violates(b[0], b[1]) == "" {
			t.Errorf("violates(%q, %q) allowed a crossing", b[0], b[1])
		}
	}
	good := [][2]string{
		{"domain/som", module + "/domain/dom"},
		{"domain/som", "crypto/sha256"},
		{"ports", module + "/domain/dom"},
		{"app", module + "/ports"},
		{"adapters/htmlparse", "golang.org/x/net/html"},
	}
	for _, g := range good {
		if msg := violates(g[0], g[1]); msg != "" {
			t.Errorf("violates(%q, %q) = %q, want allowed", g[0], g[1], msg)
		}
	}
}
