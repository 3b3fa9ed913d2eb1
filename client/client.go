// Package client is a Go client of the Agent Web Protocol: typed,
// context-aware calls to a plasmate server over WebSocket. Calls may be
// made from several goroutines; responses are matched to requests by id.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/plasmate/plasmate/domain/som"
)

// Error is an AWP error response.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return "awp: " + e.Code + ": " + e.Message }

// ErrClosed is returned by calls on a closed connection.
var ErrClosed = errors.New("awp: connection closed")

// Client is one AWP connection.
type Client struct {
	conn net.Conn
	rd   io.Reader

	wmu    sync.Mutex
	nextID atomic.Uint64

	mu      sync.Mutex
	pending map[string]chan envelope
	err     error // set once the connection is gone
	done    chan struct{}
}

type envelope struct {
	ID     string          `json:"id"`
	Type   string          `json:"type"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// Dial connects to a plasmate server, such as ws://127.0.0.1:9222/. It
// does not say hello: call Hello next.
func Dial(ctx context.Context, url string) (*Client, error) {
	conn, br, _, err := ws.Dial(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("awp: dial %s: %w", url, err)
	}
	c := &Client{conn: conn, rd: conn, pending: map[string]chan envelope{}, done: make(chan struct{})}
	if br != nil {
		// Frames that arrived with the handshake response come first.
		c.rd = io.MultiReader(br, conn)
	}
	go c.read()
	return c, nil
}

func (c *Client) read() {
	defer close(c.done)
	rw := struct {
		io.Reader
		io.Writer
	}{c.rd, writerFunc(c.writeRaw)}
	var err error
	for {
		var data []byte
		var op ws.OpCode
		data, op, err = wsutil.ReadServerData(rw)
		if err != nil {
			break
		}
		if op != ws.OpText {
			continue
		}
		var env envelope
		if json.Unmarshal(data, &env) != nil || env.Type != "response" {
			continue // events (v0.2) and garbage are not ours to answer
		}
		c.mu.Lock()
		ch := c.pending[env.ID]
		delete(c.pending, env.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- env
		}
	}
	c.mu.Lock()
	c.err = fmt.Errorf("%w: %v", ErrClosed, err)
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// writeRaw writes control-frame answers (pongs, close) under the lock.
func (c *Client) writeRaw(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.conn.Write(p)
}

// Call sends a request and decodes its result into result (which may be
// nil). An AWP error comes back as *Error.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	if params == nil {
		params = struct{}{}
	}
	id := strconv.FormatUint(c.nextID.Add(1), 10)
	msg, err := json.Marshal(map[string]any{"id": id, "type": "request", "method": method, "params": params})
	if err != nil {
		return fmt.Errorf("awp: encode %s params: %w", method, err)
	}
	ch := make(chan envelope, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.pending[id] = ch
	c.mu.Unlock()

	c.wmu.Lock()
	err = wsutil.WriteClientMessage(c.conn, ws.OpText, msg)
	c.wmu.Unlock()
	if err != nil {
		c.forget(id)
		return fmt.Errorf("awp: send %s: %w", method, err)
	}
	select {
	case env, ok := <-ch:
		if !ok {
			return c.closedErr()
		}
		if env.Error != nil {
			return env.Error
		}
		if raw, ok := result.(*json.RawMessage); ok {
			*raw = env.Result // already validated by the envelope's decoding
			return nil
		}
		if result != nil {
			if err := json.Unmarshal(env.Result, result); err != nil {
				return fmt.Errorf("awp: decode %s result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	}
}

func (c *Client) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

func (c *Client) closedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	return ErrClosed
}

// Close sends a close frame and closes the connection.
func (c *Client) Close() error {
	c.wmu.Lock()
	_ = ws.WriteFrame(c.conn, ws.MaskFrameInPlace(ws.NewCloseFrame(ws.NewCloseFrameBody(ws.StatusNormalClosure, ""))))
	c.wmu.Unlock()
	err := c.conn.Close()
	<-c.done
	return err
}

// HelloResult is the server's answer to awp.hello.
type HelloResult struct {
	AWPVersion    string   `json:"awp_version"`
	ServerName    string   `json:"server_name"`
	ServerVersion string   `json:"server_version"`
	Features      []string `json:"features"`
}

// Hello negotiates AWP 0.1; it must be the first call.
func (c *Client) Hello(ctx context.Context, clientName string) (*HelloResult, error) {
	var r HelloResult
	err := c.Call(ctx, "awp.hello", map[string]string{
		"client_name": clientName, "client_version": "0.1.0", "awp_version": "0.1",
	}, &r)
	return &r, err
}

// SessionOptions are session.create's optional params.
type SessionOptions struct {
	UserAgent string `json:"user_agent,omitempty"`
	Locale    string `json:"locale,omitempty"`
	TimeoutMS int    `json:"timeout_ms,omitempty"`
}

// CreateSession opens a session and returns its id.
func (c *Client) CreateSession(ctx context.Context, opts SessionOptions) (string, error) {
	var r struct {
		SessionID string `json:"session_id"`
	}
	err := c.Call(ctx, "session.create", opts, &r)
	return r.SessionID, err
}

// CloseSession closes a session.
func (c *Client) CloseSession(ctx context.Context, sessionID string) error {
	return c.Call(ctx, "session.close", map[string]string{"session_id": sessionID}, nil)
}

// NavigateResult is page.navigate's result.
type NavigateResult struct {
	URL         string `json:"url"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	HTMLBytes   int    `json:"html_bytes"`
	SOMReady    bool   `json:"som_ready"`
	LoadMS      int64  `json:"load_ms"`
}

// Navigate loads url in the session; timeoutMS 0 keeps the session's.
func (c *Client) Navigate(ctx context.Context, sessionID, url string, timeoutMS int) (*NavigateResult, error) {
	params := map[string]any{"session_id": sessionID, "url": url}
	if timeoutMS > 0 {
		params["timeout_ms"] = timeoutMS
	}
	var r NavigateResult
	err := c.Call(ctx, "page.navigate", params, &r)
	return &r, err
}

// ObserveRaw returns the current page's SOM as the server sent it.
func (c *Client) ObserveRaw(ctx context.Context, sessionID string) (json.RawMessage, error) {
	var r struct {
		SOM json.RawMessage `json:"som"`
	}
	err := c.Call(ctx, "page.observe", map[string]string{"session_id": sessionID}, &r)
	return r.SOM, err
}

// Observe returns the current page's SOM.
func (c *Client) Observe(ctx context.Context, sessionID string) (*som.SOM, error) {
	raw, err := c.ObserveRaw(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var s som.SOM
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("awp: decode SOM: %w", err)
	}
	return &s, nil
}
