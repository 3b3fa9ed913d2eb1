package wstransport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/plasmate/plasmate/ports"
)

// pipe returns a server-side conn and the client end of a net.Pipe.
func pipe(t *testing.T, max int64) (*conn, net.Conn) {
	srv, cli := net.Pipe()
	t.Cleanup(func() { srv.Close(); cli.Close() })
	return newConn(srv, max), cli
}

func frame(op ws.OpCode, fin bool, payload []byte) []byte {
	var buf bytes.Buffer
	f := ws.NewFrame(op, fin, payload)
	f = ws.MaskFrameInPlace(f)
	_ = ws.WriteFrame(&buf, f)
	return buf.Bytes()
}

func TestReadMessage(t *testing.T) {
	c, cli := pipe(t, 1024)
	go func() {
		cli.Write(frame(ws.OpText, true, []byte(`{"a":1}`)))
		// A fragmented message with a ping between its fragments.
		cli.Write(frame(ws.OpText, false, []byte("hel")))
		cli.Write(frame(ws.OpPing, true, []byte("p")))
		cli.Write(frame(ws.OpContinuation, true, []byte("lo")))
		cli.Write(frame(ws.OpBinary, true, []byte{1, 2}))
		cli.Write(frame(ws.OpText, true, bytes.Repeat([]byte("x"), 2000)))
		cli.Write(frame(ws.OpText, true, []byte("after")))
	}()
	// The pong to the ping must be read for the pipe to move on.
	pongs := make(chan []byte, 1)
	go func() {
		for {
			data, op, err := wsutil.ReadServerData(cli)
			if err != nil {
				return
			}
			if op == ws.OpPong {
				pongs <- data
			}
		}
	}()
	ctx := context.Background()
	want := []struct {
		kind ports.MessageKind
		data string
		err  error
	}{
		{ports.TextMessage, `{"a":1}`, nil},
		{ports.TextMessage, "hello", nil},
		{ports.BinaryMessage, "\x01\x02", nil},
		{ports.TextMessage, "", ports.ErrMessageTooLarge},
		{ports.TextMessage, "after", nil},
	}
	for i, w := range want {
		kind, data, err := c.ReadMessage(ctx)
		if kind != w.kind || string(data) != w.data || !errors.Is(err, w.err) {
			t.Fatalf("message %d: %v %q %v; want %v %q %v", i, kind, data, err, w.kind, w.data, w.err)
		}
	}
}

func TestPeerCloseEndsReading(t *testing.T) {
	c, cli := pipe(t, 1024)
	go func() {
		cli.Write(frame(ws.OpClose, true, ws.NewCloseFrameBody(ws.StatusNormalClosure, "bye")))
		if h, err := ws.ReadHeader(cli); err == nil { // the echoed close
			_, _ = io.ReadFull(cli, make([]byte, h.Length))
		}
	}()
	_, _, err := c.ReadMessage(context.Background())
	if !errors.Is(err, ports.ErrConnClosed) {
		t.Errorf("err = %v, want ErrConnClosed", err)
	}
	if err := c.WriteMessage(context.Background(), []byte("x")); !errors.Is(err, ports.ErrConnClosed) {
		t.Errorf("write after close: %v", err)
	}
}

// FuzzReadMessage feeds arbitrary bytes as the client's side of the
// stream: reading ends in messages or an error, never a panic or a hang.
func FuzzReadMessage(f *testing.F) {
	f.Add(frame(ws.OpText, true, []byte(`{"id":"1"}`)))
	f.Add(append(frame(ws.OpText, false, []byte("a")), frame(ws.OpContinuation, true, []byte("b"))...))
	f.Add(frame(ws.OpPing, true, []byte("p")))
	f.Add([]byte{0x81, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0x88, 0x80, 1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, stream []byte) {
		srv, cli := net.Pipe()
		defer srv.Close()
		defer cli.Close()
		c := newConn(srv, 4096)
		go func() {
			cli.Write(stream)
			cli.Close()
		}()
		go func() { // drain pongs and close echoes
			buf := make([]byte, 512)
			for {
				if _, err := cli.Read(buf); err != nil {
					return
				}
			}
		}()
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := 0; i < 1000; i++ {
				if _, _, err := c.ReadMessage(context.Background()); err != nil && !errors.Is(err, ports.ErrMessageTooLarge) {
					return
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadMessage hung on %q", stream)
		}
	})
}

type panicHandler struct{}

func (panicHandler) ServeConn(context.Context, ports.Conn) { panic("handler bug") }

func TestHandlerPanicClosesOnlyThatConnection(t *testing.T) {
	srv := New(panicHandler{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for range 2 { // the server survives the first panic
		conn, br, _, err := ws.Dial(context.Background(), "ws"+strings.TrimPrefix(hs.URL, "http")+"/")
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		var rw io.ReadWriter = conn
		if br != nil { // the close frame came with the handshake
			rw = struct {
				io.Reader
				io.Writer
			}{io.MultiReader(br, conn), conn}
		}
		_, _, err = wsutil.ReadServerData(rw)
		var ce wsutil.ClosedError
		if !errors.As(err, &ce) || ce.Code != ws.StatusInternalServerError {
			t.Errorf("got %v, want a 1011 close", err)
		}
		conn.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Error(err)
	}
}

// holdHandler keeps each connection open until the server shuts down.
type holdHandler struct{}

func (holdHandler) ServeConn(ctx context.Context, c ports.Conn) {
	for {
		if _, _, err := c.ReadMessage(ctx); err != nil && !errors.Is(err, ports.ErrMessageTooLarge) {
			return
		}
	}
}

func TestConnectionLimit(t *testing.T) {
	srv := New(holdHandler{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv.SetMaxConns(2)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + "/"
	var open []net.Conn
	for range 2 {
		c, _, _, err := ws.Dial(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
	}
	_, _, _, err := ws.Dial(context.Background(), url)
	var se ws.StatusError
	if !errors.As(err, &se) || int(se) != 503 {
		t.Errorf("third connection: %v, want a 503 refusal", err)
	}
	// A closed connection frees its place.
	open[0].Close()
	var c net.Conn
	for range 100 {
		if c, _, _, err = ws.Dial(context.Background(), url); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("after a close: %v", err)
	}
	open = append(open, c)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Error(err)
	}
	for _, c := range open {
		c.Close()
	}
}
