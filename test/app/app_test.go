// Package app_test drives the AWP application offline: an in-memory
// connection and the fixture fetcher, no sockets.
package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/plasmate/plasmate/adapters/fixturefetch"
	"github.com/plasmate/plasmate/adapters/htmlparse"
	"github.com/plasmate/plasmate/app"
	"github.com/plasmate/plasmate/domain/dom"
	"github.com/plasmate/plasmate/ports"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// memConn is a ports.Conn over channels.
type memConn struct {
	in     chan []byte
	out    chan []byte
	once   sync.Once
	closed chan struct{}
}

func newMemConn() *memConn {
	return &memConn{in: make(chan []byte, 16), out: make(chan []byte, 16), closed: make(chan struct{})}
}

func (c *memConn) ReadMessage(ctx context.Context) (ports.MessageKind, []byte, error) {
	select {
	case m, ok := <-c.in:
		if !ok {
			return 0, nil, ports.ErrConnClosed
		}
		return ports.TextMessage, m, nil
	case <-c.closed:
		return 0, nil, ports.ErrConnClosed
	}
}

func (c *memConn) WriteMessage(_ context.Context, data []byte) error {
	select {
	case c.out <- data:
		return nil
	case <-c.closed:
		return ports.ErrConnClosed
	}
}

func (c *memConn) Close(string) error { c.once.Do(func() { close(c.closed) }); return nil }
func (c *memConn) RemoteAddr() string { return "memory" }

type harness struct {
	t      *testing.T
	conn   *memConn
	server *app.Server
	done   chan struct{}
	n      int
}

func start(t *testing.T, parser ports.Parser, fetcher ports.Fetcher) *harness {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := app.NewServer(app.Info{Name: "plasmate", Version: "t"}, app.NewCompiler(parser), app.NewSessions(fetcher, ports.NopMetrics{}), ports.NopMetrics{}, log)
	h := &harness{t: t, conn: newMemConn(), server: srv, done: make(chan struct{})}
	go func() { srv.ServeConn(context.Background(), h.conn); close(h.done) }()
	t.Cleanup(func() {
		close(h.conn.in)
		select {
		case <-h.done:
		case <-time.After(5 * time.Second):
			t.Error("ServeConn did not return after the connection closed")
		}
	})
	return h
}

type reply struct {
	ID     string          `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *app.Error      `json:"error"`
}

func (h *harness) call(method string, params any) reply {
	h.t.Helper()
	h.n++
	msg, _ := json.Marshal(map[string]any{"id": "r" + string(rune('a'+h.n%26)), "type": "request", "method": method, "params": params})
	h.conn.in <- msg
	select {
	case out := <-h.conn.out:
		var r reply
		if err := json.Unmarshal(out, &r); err != nil {
			h.t.Fatalf("reply %q: %v", out, err)
		}
		return r
	case <-time.After(5 * time.Second):
		h.t.Fatalf("no reply to %s", method)
	}
	return reply{}
}

func (h *harness) session() string {
	h.t.Helper()
	if r := h.call("awp.hello", map[string]string{"awp_version": "0.1"}); r.Error != nil {
		h.t.Fatal(r.Error)
	}
	r := h.call("session.create", nil)
	var s struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal(r.Result, &s)
	return s.SessionID
}

func TestOfflineNavigation(t *testing.T) {
	f := fixturefetch.New().
		Add("https://shop.test/", fixturefetch.HTML(`<title>Shop</title><main><h1>Deals</h1><a href="/cart">Cart</a></main>`)).
		Add("https://shop.test/old", fixturefetch.Redirect("https://shop.test/"))
	h := start(t, htmlparse.New(), f)
	id := h.session()
	r := h.call("page.navigate", map[string]string{"session_id": id, "url": "https://shop.test/old"})
	var nav struct {
		URL    string `json:"url"`
		Status int    `json:"status"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &nav) != nil || nav.URL != "https://shop.test/" || nav.Status != 200 {
		t.Fatalf("navigate: %s %v", r.Result, r.Error)
	}
	r = h.call("page.observe", map[string]string{"session_id": id})
	var obs struct {
		SOM struct {
			Title string `json:"title"`
			Meta  struct {
				InteractiveCount int `json:"interactive_count"`
			} `json:"meta"`
		} `json:"som"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &obs) != nil || obs.SOM.Title != "Shop" || obs.SOM.Meta.InteractiveCount != 1 {
		t.Errorf("observe: %s %v", r.Result, r.Error)
	}
	r = h.call("page.navigate", map[string]string{"session_id": id, "url": "https://elsewhere.test/"})
	if r.Error == nil || r.Error.Code != app.CodeNavigationFailed {
		t.Errorf("unknown host: %+v", r.Error)
	}
}

// panicParser stands for any bug deep in the pipeline.
type panicParser struct{}

func (panicParser) Parse([]byte) (*dom.Node, error) { panic("parser bug") }

func TestPanicIsAnInternalErrorAndTheConnectionLives(t *testing.T) {
	f := fixturefetch.New().Add("https://x.test/", fixturefetch.HTML("<p>x</p>"))
	h := start(t, panicParser{}, f)
	id := h.session()
	r := h.call("page.navigate", map[string]string{"session_id": id, "url": "https://x.test/"})
	if r.Error == nil || r.Error.Code != app.CodeInternal {
		t.Fatalf("got %+v, want INTERNAL", r.Error)
	}
	if r := h.call("page.observe", map[string]string{"session_id": id}); r.Error == nil || r.Error.Code != app.CodeNotFound {
		t.Errorf("after the panic: %+v", r.Error)
	}
}

func TestClosingTheConnectionFreesTheSession(t *testing.T) {
	h := start(t, htmlparse.New(), fixturefetch.New())
	h.session()
	if n := h.server.Sessions().Len(); n != 1 {
		t.Fatalf("%d sessions", n)
	}
	h.conn.Close("test")
	<-h.done
	if n := h.server.Sessions().Len(); n != 0 {
		t.Errorf("%d sessions after close", n)
	}
}

// panicConn's reads panic, as a transport bug would.
type panicConn struct{ *memConn }

func (panicConn) ReadMessage(context.Context) (ports.MessageKind, []byte, error) {
	panic("transport bug")
}

func TestTransportPanicEndsOnlyThatConnection(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := app.NewServer(app.Info{Name: "plasmate"}, app.NewCompiler(htmlparse.New()), app.NewSessions(fixturefetch.New(), ports.NopMetrics{}), ports.NopMetrics{}, log)
	done := make(chan struct{})
	go func() { srv.ServeConn(context.Background(), panicConn{newMemConn()}); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("ServeConn did not return")
	}
	// The server still serves other connections.
	h := start(t, htmlparse.New(), fixturefetch.New())
	h.session()
}
