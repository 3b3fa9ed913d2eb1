package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/plasmate/plasmate/ports"
)

// ProtocolVersion is the AWP version this server speaks.
const ProtocolVersion = "0.1"

// Features are the capabilities awp.hello announces: only what is
// implemented.
var Features = []string{"som.snapshot"}

// Info identifies the server in awp.hello.
type Info struct {
	Name    string
	Version string
}

// Server is the AWP application: it serves connections of any transport.
type Server struct {
	info     Info
	compiler *Compiler
	sessions *Sessions
	metrics  ports.Metrics
	log      *slog.Logger
	methods  map[string]handler
}

type handler func(ctx context.Context, c *connection, params json.RawMessage) (any, error)

// NewServer wires the application.
func NewServer(info Info, compiler *Compiler, sessions *Sessions, metrics ports.Metrics, log *slog.Logger) *Server {
	s := &Server{info: info, compiler: compiler, sessions: sessions, metrics: metrics, log: log}
	s.methods = map[string]handler{
		"awp.hello":      s.hello,
		"session.create": s.sessionCreate,
		"session.close":  s.sessionClose,
		"page.navigate":  s.pageNavigate,
		"page.observe":   s.pageObserve,
	}
	return s
}

// Sessions is the server's session registry.
func (s *Server) Sessions() *Sessions { return s.sessions }

var _ ports.ConnHandler = (*Server)(nil)

// connection is the protocol state of one agent connection.
type connection struct {
	conn    ports.Conn
	hello   bool
	session *Session // v0.1: at most one per connection
}

// queueDepth is how many requests may wait while one is being handled;
// a client pipelining more is slowed by TCP back-pressure, not dropped.
const queueDepth = 256

type incoming struct {
	kind ports.MessageKind
	data []byte
	err  error
}

// ServeConn serves one connection until the peer leaves or ctx ends. A
// reader goroutine keeps reading (so control frames are answered and a
// closed socket is noticed) while requests are handled one at a time, in
// order; closing the socket cancels the request in flight.
func (s *Server) ServeConn(ctx context.Context, c ports.Conn) {
	s.metrics.ConnOpened()
	defer s.metrics.ConnClosed()
	server := ctx
	ctx, cancel := context.WithCancel(ctx)
	st := &connection{conn: c}
	log := s.log.With("remote", c.RemoteAddr())
	log.Debug("connection opened")

	in := make(chan incoming, queueDepth)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(in)
		defer func() {
			// A transport bug ends this connection, not the daemon.
			if p := recover(); p != nil {
				log.Error("panic reading from the connection", "panic", p)
				cancel()
			}
		}()
		for {
			kind, data, err := c.ReadMessage(ctx)
			if err != nil && !errors.Is(err, ports.ErrMessageTooLarge) {
				cancel()
				return
			}
			select {
			case in <- incoming{kind, data, err}:
			case <-ctx.Done():
				return
			}
		}
	}()
	defer func() {
		cancel()
		if server.Err() == nil {
			_ = c.Close("bye")
		} // else the server is shutting down: the transport says "going away"
		wg.Wait()
		if st.session != nil {
			s.sessions.Close(st.session.ID)
		}
		log.Debug("connection closed")
	}()

	for {
		var m incoming
		var ok bool
		select {
		case m, ok = <-in:
			if !ok {
				return
			}
		case <-ctx.Done():
			return
		}
		var out []byte
		switch {
		case m.err != nil:
			out = errorResponse(nil, invalid("message too large: the limit is %v", m.err))
		case m.kind == ports.BinaryMessage:
			out = errorResponse(nil, invalid("binary frames are reserved for MessagePack (AWP v0.2): send JSON in text frames"))
		default:
			out = s.handle(ctx, st, m.data)
		}
		if err := c.WriteMessage(ctx, out); err != nil {
			log.Debug("write failed", "err", err)
			return
		}
	}
}

// request is the envelope of a client message. Unknown fields are
// ignored, as the spec requires.
type request struct {
	ID     json.RawMessage `json:"id"`
	Type   json.RawMessage `json:"type"`
	Method json.RawMessage `json:"method"`
	Params json.RawMessage `json:"params"`
}

// handle answers one text message; it never panics.
func (s *Server) handle(ctx context.Context, st *connection, data []byte) (out []byte) {
	start := time.Now()
	method := "invalid"
	var id json.RawMessage
	outcome := "ok"
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic handling request", "panic", p, "stack", string(debug.Stack()))
			outcome = CodeInternal
			out = errorResponse(id, &Error{Code: CodeInternal, Message: "internal error; the connection is still usable"})
		}
		s.metrics.RequestDone(method, outcome, time.Since(start))
	}()

	result, name, rid, err := s.dispatch(ctx, st, data)
	id = rid
	if name != "" {
		method = name
	}
	if err != nil {
		e := asError(err)
		outcome = e.Code
		if e.Code == CodeInternal {
			s.log.Error("internal error", "method", method, "err", err)
		}
		return errorResponse(id, e)
	}
	return resultResponse(id, result)
}

func (s *Server) dispatch(ctx context.Context, st *connection, data []byte) (result any, method string, id json.RawMessage, err error) {
	var req request
	if err := json.Unmarshal(data, &req); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || !json.Valid(data) {
			return nil, "", nil, invalid("message is not valid JSON: %v", err)
		}
		return nil, "", nil, invalid("message must be a JSON object")
	}
	id = req.ID
	var idStr string
	if len(req.ID) == 0 || json.Unmarshal(req.ID, &idStr) != nil || idStr == "" {
		return nil, "", id, invalid("id must be a non-empty string")
	}
	var typ string
	if json.Unmarshal(req.Type, &typ) != nil || typ != "request" {
		return nil, "", id, invalid(`type must be "request"`)
	}
	var name string
	if json.Unmarshal(req.Method, &name) != nil || name == "" {
		return nil, "", id, invalid("method must be a non-empty string")
	}
	h, ok := s.methods[name]
	if !ok {
		return nil, "", id, invalid("unknown method %q", name).with("method", name)
	}
	if !st.hello && name != "awp.hello" {
		return nil, name, id, invalid("awp.hello must be the first request on a connection")
	}
	result, err = h(ctx, st, req.Params)
	return result, name, id, err
}

// response is the envelope of a reply: exactly one of result and error.
type response struct {
	ID     json.RawMessage `json:"id"`
	Type   string          `json:"type"`
	Result any             `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

func idOrNull(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

func errorResponse(id json.RawMessage, e *Error) []byte {
	b, err := json.Marshal(response{ID: idOrNull(id), Type: "response", Error: e})
	if err != nil {
		// Details that cannot be encoded: send the error without them.
		b, _ = json.Marshal(response{ID: idOrNull(id), Type: "response", Error: &Error{Code: e.Code, Message: e.Message}})
	}
	return b
}

// rawResult is a result already encoded as JSON (the SOM is encoded once,
// when the page is compiled, not at every observe).
type rawResult []byte

func resultResponse(id json.RawMessage, result any) []byte {
	if raw, ok := result.(rawResult); ok {
		b := make([]byte, 0, len(raw)+64)
		b = append(b, `{"id":`...)
		b = append(b, idOrNull(id)...)
		b = append(b, `,"type":"response","result":`...)
		b = append(b, raw...)
		return append(b, '}')
	}
	if result == nil {
		result = struct{}{}
	}
	b, err := json.Marshal(response{ID: idOrNull(id), Type: "response", Result: result})
	if err != nil {
		return errorResponse(id, &Error{Code: CodeInternal, Message: fmt.Sprintf("encode result: %v", err)})
	}
	return b
}
