package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plasmate/plasmate/adapters/demosite"
)

// TestPythonReferenceClient runs the spec's Python client (Debian's
// /usr/bin/python3 with python3-websockets, which .ci/run installs)
// against the real server and the bundled demo site.
func TestPythonReferenceClient(t *testing.T) {
	const python = "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skipf("%s not installed", python)
	}
	if out, err := exec.Command(python, "-c", "import websockets").CombinedOutput(); err != nil {
		t.Fatalf("python3-websockets is missing (apt-get install python3-websockets): %s", out)
	}
	d := startDaemon(t, daemonOptions{})
	demo := site(t, demosite.New())
	script, _ := filepath.Abs("../../client/python/plasmate_client.py")
	cx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(cx, python, script, d.URL, demo.URL+"/").CombinedOutput()
	if err != nil {
		t.Fatalf("client failed: %v\n%s", err, out)
	}
	for _, want := range []string{
		"Connected to plasmate test (AWP 0.1)",
		"Loaded " + demo.URL + "/ (200, ",
		"SOM: ", "interactive",
		"r_navigation: 1 elements",
		"- Home  ->  /",
		"Unknown session: NOT_FOUND",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
