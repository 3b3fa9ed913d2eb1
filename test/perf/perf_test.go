// Package perf measures the daemon as an operator sees it: a built
// plasmate binary in its own process, driven over loopback. It runs only
// with PLASMATE_PERF=1 (make perf) and reports numbers; it asserts none,
// since the machines are shared and noisy.
package perf

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/plasmate/plasmate/client"
)

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// daemon builds and starts plasmate serve; it returns the AWP URL and the
// metrics URL.
func daemon(t *testing.T) (string, string) {
	bin := filepath.Join(t.TempDir(), "plasmate")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/plasmate").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	awp, met := freeAddr(t), freeAddr(t)
	host, port, _ := net.SplitHostPort(awp)
	cmd := exec.Command(bin, "serve", "--host", host, "--port", port, "--metrics-addr", met, "--log-level", "warn")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", awp); err == nil {
			c.Close()
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "ws://" + awp + "/", "http://" + met + "/metrics"
}

func metric(t *testing.T, url, name string) float64 {
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == name {
			v, _ := strconv.ParseFloat(f[1], 64)
			return v
		}
	}
	t.Fatalf("metric %s not found", name)
	return 0
}

func corpusSite(t *testing.T) (*httptest.Server, []string) {
	dir := os.Getenv("PLASMATE_CORPUS")
	if dir == "" {
		dir = "../../../shared/corpus/pages"
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	var urls []string
	for _, f := range files {
		urls = append(urls, srv.URL+"/"+filepath.Base(f))
	}
	return srv, urls
}

func TestDaemonPerformance(t *testing.T) {
	if os.Getenv("PLASMATE_PERF") == "" {
		t.Skip("set PLASMATE_PERF=1 (make perf)")
	}
	awp, metrics := daemon(t)
	_, urls := corpusSite(t)
	ctx := context.Background()

	// Observe round trip on a mid-sized page.
	c, err := client.Dial(ctx, awp)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Hello(ctx, "perf")
	id, _ := c.CreateSession(ctx, client.SessionOptions{})
	page := urls[0]
	for _, u := range urls {
		if strings.HasSuffix(u, "/cnn.html") {
			page = u
		}
	}
	if _, err := c.Navigate(ctx, id, page, 0); err != nil {
		t.Fatal(err)
	}
	var lat []time.Duration
	for range 2000 {
		start := time.Now()
		if _, err := c.ObserveRaw(ctx, id); err != nil {
			t.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	raw, _ := c.ObserveRaw(ctx, id)
	t.Logf("observe round trip (%s, SOM %d bytes, 2000 calls): p50 %v  p99 %v", filepath.Base(page), len(raw),
		lat[len(lat)/2], lat[len(lat)*99/100])
	// The same over a bare WebSocket that does not decode the reply.
	conn, _, _, err := ws.Dial(ctx, awp)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	send := func(msg string) []byte {
		if err := wsutil.WriteClientText(conn, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		b, err := wsutil.ReadServerText(conn)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	send(`{"id":"h","type":"request","method":"awp.hello","params":{"awp_version":"0.1"}}`)
	var created struct {
		Result struct {
			SessionID string `json:"session_id"`
		} `json:"result"`
	}
	_ = json.Unmarshal(send(`{"id":"c","type":"request","method":"session.create","params":{}}`), &created)
	sid := created.Result.SessionID
	send(`{"id":"n","type":"request","method":"page.navigate","params":{"session_id":"` + sid + `","url":"` + page + `"}}`)
	obs := `{"id":"o","type":"request","method":"page.observe","params":{"session_id":"` + sid + `"}}`
	lat = lat[:0]
	for range 2000 {
		start := time.Now()
		send(obs)
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	t.Logf("observe round trip over a bare WebSocket (no JSON decoding): p50 %v  p99 %v", lat[len(lat)/2], lat[len(lat)*99/100])

	sum := metric(t, metrics, `plasmate_request_duration_seconds_sum{method="page.observe",outcome="ok"}`)
	n := metric(t, metrics, `plasmate_request_duration_seconds_count{method="page.observe",outcome="ok"}`)
	t.Logf("observe handled in the server: mean %v over %.0f calls (the rest of the round trip is the socket and the client's JSON decoding)",
		time.Duration(sum/n*float64(time.Second)).Round(time.Microsecond), n)

	// Navigate throughput over the corpus, 1 and 4 connections.
	for _, workers := range []int{1, 4} {
		start := time.Now()
		var wg sync.WaitGroup
		var mu sync.Mutex
		n := 0
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := client.Dial(ctx, awp)
				if err != nil {
					t.Error(err)
					return
				}
				defer c.Close()
				c.Hello(ctx, "perf")
				id, _ := c.CreateSession(ctx, client.SessionOptions{})
				for i := w; i < len(urls)*3; i += workers {
					if _, err := c.Navigate(ctx, id, urls[i%len(urls)], 0); err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					n++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		el := time.Since(start)
		t.Logf("navigate throughput, %d connection(s): %d corpus pages in %v = %.0f pages/s", workers, n, el.Round(time.Millisecond), float64(n)/el.Seconds())
	}

	// Idle memory per open session.
	before := metric(t, metrics, "go_memstats_heap_inuse_bytes")
	rssBefore := metric(t, metrics, "process_resident_memory_bytes")
	const sessions = 1000
	var clients []*client.Client
	for range sessions {
		c, err := client.Dial(ctx, awp)
		if err != nil {
			t.Fatal(err)
		}
		c.Hello(ctx, "idle")
		if _, err := c.CreateSession(ctx, client.SessionOptions{}); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	time.Sleep(500 * time.Millisecond)
	after := metric(t, metrics, "go_memstats_heap_inuse_bytes")
	rssAfter := metric(t, metrics, "process_resident_memory_bytes")
	t.Logf("idle sessions: %d open: heap in use +%.1f KiB per session, RSS +%.1f KiB per session (connection included)",
		sessions, (after-before)/sessions/1024, (rssAfter-rssBefore)/sessions/1024)
	for _, c := range clients {
		c.Close()
	}
}
