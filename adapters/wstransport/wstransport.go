// Package wstransport is the WebSocket transport adapter, built on
// github.com/gobwas/ws: it upgrades HTTP requests at "/", turns frames
// into whole messages for a ports.ConnHandler, answers pings, and closes
// with a proper close handshake.
package wstransport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/plasmate/plasmate/ports"
)

// DefaultMaxMessage bounds one incoming message. Larger messages are
// discarded and reported to the handler as ports.ErrMessageTooLarge; the
// connection stays up.
const DefaultMaxMessage = 16 << 20

// writeTimeout bounds one write, so a peer that stops reading cannot
// hold a handler forever.
const writeTimeout = 10 * time.Second

// DefaultMaxConns bounds open connections; past it, upgrades are refused
// with 503 rather than letting the process run out of file descriptors.
const DefaultMaxConns = 4096

// Server accepts WebSocket connections and hands each to the handler.
type Server struct {
	handler    ports.ConnHandler
	log        *slog.Logger
	maxMessage int64
	maxConns   int64
	open       atomic.Int64

	ctx    context.Context
	cancel context.CancelFunc
	conns  sync.WaitGroup
	http   *http.Server
}

// New returns a Server that serves connections with h.
func New(h ports.ConnHandler, log *slog.Logger) *Server {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{handler: h, log: log, maxMessage: DefaultMaxMessage, maxConns: DefaultMaxConns, ctx: ctx, cancel: cancel}
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	return s
}

// SetMaxMessage changes the message size limit.
func (s *Server) SetMaxMessage(n int64) { s.maxMessage = n }

// SetMaxConns changes how many connections may be open at once.
func (s *Server) SetMaxConns(n int64) { s.maxConns = n }

// Serve accepts connections on ln until Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	err := s.http.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting, closes every connection with a close frame,
// and waits for the handlers to return (or ctx to end).
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.http.Shutdown(ctx)
	s.cancel()
	done := make(chan struct{})
	go func() { s.conns.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return err
}

// ServeHTTP upgrades a request at "/" to a WebSocket connection.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	if s.ctx.Err() != nil {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	if r.Header.Get("Upgrade") == "" {
		w.Header().Set("Upgrade", "websocket")
		http.Error(w, "plasmate speaks the Agent Web Protocol over WebSocket: connect with ws://"+r.Host+"/", http.StatusUpgradeRequired)
		return
	}
	if s.open.Add(1) > s.maxConns {
		s.open.Add(-1)
		s.log.Warn("connection refused: too many open", "remote", r.RemoteAddr, "limit", s.maxConns)
		http.Error(w, fmt.Sprintf("too many connections (limit %d): try again later", s.maxConns), http.StatusServiceUnavailable)
		return
	}
	nc, _, _, err := ws.UpgradeHTTP(r, w)
	if err != nil {
		s.open.Add(-1)
		s.log.Debug("websocket upgrade failed", "remote", r.RemoteAddr, "err", err)
		return
	}
	s.conns.Add(1)
	go func() {
		defer s.conns.Done()
		defer s.open.Add(-1)
		c := newConn(nc, s.maxMessage)
		// On shutdown, say "going away" and close the socket, which also
		// unblocks the handler's pending read.
		stop := context.AfterFunc(s.ctx, func() { _ = c.shut(ws.StatusGoingAway, "server shutting down") })
		defer stop()
		defer c.shut(ws.StatusGoingAway, "server closing")
		defer func() {
			// The handler recovers per request; this catches the rest, so
			// that no connection can take the daemon down with it.
			if p := recover(); p != nil {
				s.log.Error("connection handler panicked", "remote", c.RemoteAddr(), "panic", p)
				_ = c.shut(ws.StatusInternalServerError, "internal error")
			}
		}()
		s.handler.ServeConn(s.ctx, c)
	}()
}

// conn is one WebSocket connection.
type conn struct {
	nc         net.Conn
	rd         *wsutil.Reader
	ctl        wsutil.ControlHandler
	maxMessage int64

	wmu       sync.Mutex // serializes frames: replies and pongs
	closeSent bool
	closed    bool
}

var _ ports.Conn = (*conn)(nil)

func newConn(nc net.Conn, maxMessage int64) *conn {
	c := &conn{nc: nc, maxMessage: maxMessage}
	c.ctl = wsutil.ControlHandler{Src: nil, Dst: lockedWriter{c}, State: ws.StateServerSide, DisableSrcCiphering: true}
	c.rd = &wsutil.Reader{
		Source: nc,
		State:  ws.StateServerSide,
		// Control frames between the fragments of a message.
		OnIntermediate: func(h ws.Header, r io.Reader) error { return c.control(h, r) },
	}
	return c
}

// control answers a ping or close read from r.
func (c *conn) control(h ws.Header, r io.Reader) error {
	ctl := c.ctl
	ctl.Src = r
	err := ctl.Handle(h)
	var closed wsutil.ClosedError
	if errors.As(err, &closed) {
		c.wmu.Lock()
		c.closeSent = true // the handler answered the peer's close
		c.wmu.Unlock()
	}
	return err
}

type lockedWriter struct{ c *conn }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.c.wmu.Lock()
	defer w.c.wmu.Unlock()
	if w.c.closed {
		return 0, net.ErrClosed
	}
	_ = w.c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
	return w.c.nc.Write(p)
}

// ReadMessage returns the next text or binary message.
func (c *conn) ReadMessage(ctx context.Context) (ports.MessageKind, []byte, error) {
	for {
		if ctx.Err() != nil {
			return 0, nil, ports.ErrConnClosed
		}
		hdr, err := c.rd.NextFrame()
		if err != nil {
			return 0, nil, fmt.Errorf("%w: %v", ports.ErrConnClosed, err)
		}
		if hdr.OpCode.IsControl() {
			if err := c.control(hdr, c.rd); err != nil {
				return 0, nil, fmt.Errorf("%w: %v", ports.ErrConnClosed, err)
			}
			continue
		}
		kind := ports.TextMessage
		switch hdr.OpCode {
		case ws.OpText:
		case ws.OpBinary:
			kind = ports.BinaryMessage
		default:
			if err := c.rd.Discard(); err != nil {
				return 0, nil, fmt.Errorf("%w: %v", ports.ErrConnClosed, err)
			}
			continue
		}
		data, err := io.ReadAll(io.LimitReader(c.rd, c.maxMessage+1))
		if err != nil {
			return 0, nil, fmt.Errorf("%w: %v", ports.ErrConnClosed, err)
		}
		if int64(len(data)) > c.maxMessage {
			if _, err := io.Copy(io.Discard, c.rd); err != nil {
				return 0, nil, fmt.Errorf("%w: %v", ports.ErrConnClosed, err)
			}
			return kind, nil, fmt.Errorf("%w: over %d bytes", ports.ErrMessageTooLarge, c.maxMessage)
		}
		return kind, data, nil
	}
}

// WriteMessage sends one text message.
func (c *conn) WriteMessage(_ context.Context, data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closed || c.closeSent {
		return ports.ErrConnClosed
	}
	_ = c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
	return wsutil.WriteServerMessage(c.nc, ws.OpText, data)
}

// Close ends the connection with a normal closure.
func (c *conn) Close(reason string) error { return c.shut(ws.StatusNormalClosure, reason) }

func (c *conn) shut(code ws.StatusCode, reason string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if !c.closeSent {
		c.closeSent = true
		_ = c.nc.SetWriteDeadline(time.Now().Add(time.Second))
		_ = ws.WriteFrame(c.nc, ws.NewCloseFrame(ws.NewCloseFrameBody(code, reason)))
	}
	return c.nc.Close()
}

// RemoteAddr is the peer's address.
func (c *conn) RemoteAddr() string { return c.nc.RemoteAddr().String() }
