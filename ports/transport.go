package ports

import (
	"context"
	"errors"
)

// MessageKind tells text messages (UTF-8 JSON) from binary ones (reserved
// for MessagePack in AWP v0.2).
type MessageKind uint8

const (
	TextMessage MessageKind = iota + 1
	BinaryMessage
)

// Conn is one agent connection, whatever the transport. Reads come from
// one goroutine; WriteMessage may be called from several.
type Conn interface {
	// ReadMessage blocks for the next whole message. It returns
	// ErrConnClosed once the peer has closed or the connection broke.
	ReadMessage(ctx context.Context) (MessageKind, []byte, error)
	// WriteMessage sends one text message.
	WriteMessage(ctx context.Context, data []byte) error
	// Close ends the connection with a normal closure and a reason.
	Close(reason string) error
	// RemoteAddr names the peer, for logs.
	RemoteAddr() string
}

// ConnHandler serves one connection until it ends. The transport calls it
// once per accepted connection, on a goroutine of its own, and cancels ctx
// when the server shuts down.
type ConnHandler interface {
	ServeConn(ctx context.Context, c Conn)
}

// ErrConnClosed is returned by Conn.ReadMessage once the connection is
// over.
var ErrConnClosed = errors.New("connection closed")

// ErrMessageTooLarge is returned by Conn.ReadMessage for a message over
// the transport's size limit; the connection stays usable.
var ErrMessageTooLarge = errors.New("message too large")
