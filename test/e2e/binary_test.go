package e2e

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/plasmate/plasmate/client"
)

// TestServeBinary runs the real `plasmate serve` process: it answers over
// WebSocket, serves the demo site and /metrics, and on SIGTERM closes its
// connections with a close frame and exits 0.
func TestServeBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "plasmate")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/plasmate").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	port, metricsAddr, demoAddr := freePort(t), "127.0.0.1:"+strconv.Itoa(freePort(t)), "127.0.0.1:"+strconv.Itoa(freePort(t))
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "serve", "--port", strconv.Itoa(port), "--metrics-addr", metricsAddr, "--demo", demoAddr)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	url := "ws://127.0.0.1:" + strconv.Itoa(port) + "/"
	var c *client.Client
	var err error
	for range 100 {
		if c, err = client.Dial(context.Background(), url); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("dial: %v\n%s", err, stderr.String())
	}
	cx := ctx(t)
	if _, err := c.Hello(cx, "bin"); err != nil {
		t.Fatal(err)
	}
	id, _ := c.CreateSession(cx, client.SessionOptions{})
	if _, err := c.Navigate(cx, id, "http://"+demoAddr+"/", 0); err != nil {
		t.Fatalf("navigate the demo site: %v", err)
	}
	_ = c.Close()

	// A raw connection, to see the close frame on shutdown.
	conn, _, _, err := ws.Dial(cx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err = wsutil.ReadServerData(conn)
	if ce, ok := err.(wsutil.ClosedError); !ok || ce.Code != ws.StatusGoingAway {
		t.Errorf("on SIGTERM: %v, want a 1001 close frame", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
	if !bytes.Contains(stderr.Bytes(), []byte("shutting down")) {
		t.Errorf("logs:\n%s", stderr.String())
	}
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
