// Package e2e tests plasmate end to end: a real WebSocket server on
// loopback, real HTTP sites (httptest), the Go client and raw frames.
package e2e

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
	"go.uber.org/goleak"

	"github.com/plasmate/plasmate/adapters/htmlparse"
	"github.com/plasmate/plasmate/adapters/httpfetch"
	"github.com/plasmate/plasmate/adapters/metrics"
	"github.com/plasmate/plasmate/adapters/wstransport"
	"github.com/plasmate/plasmate/app"
	"github.com/plasmate/plasmate/client"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// daemon is a plasmate server on loopback.
type daemon struct {
	URL      string // ws://127.0.0.1:port/
	server   *app.Server
	metrics  *metrics.Metrics
	ws       *wstransport.Server
	shutdown func()
}

type daemonOptions struct {
	maxBody    int64
	maxMessage int64
}

func startDaemon(t testing.TB, opts daemonOptions) *daemon {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	m := metrics.New()
	fetcher := httpfetch.New(httpfetch.Config{MaxBodyBytes: opts.maxBody})
	srv := app.NewServer(app.Info{Name: "plasmate", Version: "test"}, app.NewCompiler(htmlparse.New()),
		app.NewSessions(fetcher, m), m, log)
	wss := wstransport.New(srv, log)
	if opts.maxMessage > 0 {
		wss.SetMaxMessage(opts.maxMessage)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = wss.Serve(ln) }()
	d := &daemon{URL: "ws://" + ln.Addr().String() + "/", server: srv, metrics: m, ws: wss}
	done := false
	d.shutdown = func() {
		if done {
			return
		}
		done = true
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := wss.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		fetcher.CloseIdleConnections()
	}
	t.Cleanup(d.shutdown)
	return d
}

// dial connects the Go client and says hello.
func (d *daemon) dial(t testing.TB) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.Dial(ctx, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if _, err := c.Hello(ctx, "e2e"); err != nil {
		t.Fatal(err)
	}
	return c
}

// session dials, says hello and creates a session.
func (d *daemon) session(t testing.TB) (*client.Client, string) {
	t.Helper()
	c := d.dial(t)
	id, err := c.CreateSession(ctx(t), client.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c, id
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

// wantCode asserts err is an AWP error with code.
func wantCode(t testing.TB, err error, code string) *client.Error {
	t.Helper()
	e, ok := err.(*client.Error)
	if !ok || e.Code != code {
		t.Fatalf("err = %v, want AWP error %s", err, code)
	}
	if e.Message == "" {
		t.Errorf("%s error with no message", code)
	}
	return e
}

// raw is a WebSocket connection driven frame by frame.
type raw struct {
	t    testing.TB
	conn net.Conn
}

func (d *daemon) raw(t testing.TB) *raw {
	t.Helper()
	conn, _, _, err := ws.Dial(ctx(t), d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &raw{t: t, conn: conn}
}

func (r *raw) send(op ws.OpCode, data []byte) {
	r.t.Helper()
	if err := wsutil.WriteClientMessage(r.conn, op, data); err != nil {
		r.t.Fatal(err)
	}
}

func (r *raw) sendJSON(v any) {
	r.t.Helper()
	b, _ := json.Marshal(v)
	r.send(ws.OpText, b)
}

// response is a decoded response envelope, with the raw fields kept.
type response struct {
	ID     json.RawMessage `json:"id"`
	Type   string          `json:"type"`
	Result json.RawMessage `json:"result"`
	Error  *client.Error   `json:"error"`
	raw    map[string]json.RawMessage
}

func (r *raw) recv() response {
	r.t.Helper()
	_ = r.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	data, op, err := wsutil.ReadServerData(r.conn)
	if err != nil {
		r.t.Fatalf("read: %v", err)
	}
	if op != ws.OpText {
		r.t.Fatalf("got a %v frame, want text", op)
	}
	var resp response
	if err := json.Unmarshal(data, &resp); err != nil {
		r.t.Fatalf("response is not JSON: %q", data)
	}
	_ = json.Unmarshal(data, &resp.raw)
	if resp.Type != "response" {
		r.t.Errorf("type = %q", resp.Type)
	}
	if (resp.raw["result"] == nil) == (resp.raw["error"] == nil) {
		r.t.Errorf("want exactly one of result and error: %s", data)
	}
	return resp
}

func (r *raw) call(id, method string, params any) response {
	r.t.Helper()
	r.sendJSON(map[string]any{"id": id, "type": "request", "method": method, "params": params})
	return r.recv()
}

func (r *raw) hello() {
	r.t.Helper()
	if resp := r.call("h", "awp.hello", map[string]string{"awp_version": "0.1"}); resp.Error != nil {
		r.t.Fatalf("hello: %v", resp.Error)
	}
}

// site is a test web site on loopback.
func site(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func htmlHandler(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
