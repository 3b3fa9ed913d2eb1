package e2e

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/plasmate/plasmate/app"
	"github.com/plasmate/plasmate/client"
)

func TestHello(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	r := d.raw(t)

	resp := r.call("1", "session.create", nil)
	if resp.Error == nil || resp.Error.Code != app.CodeInvalidRequest || !contains(resp.Error.Message, "awp.hello") {
		t.Errorf("method before hello: %+v", resp.Error)
	}
	resp = r.call("2", "awp.hello", map[string]string{"awp_version": "9.9"})
	if resp.Error == nil || resp.Error.Code != app.CodeInvalidRequest || !contains(resp.Error.Message, "9.9") {
		t.Errorf("unsupported version: %+v", resp.Error)
	}
	resp = r.call("3", "awp.hello", map[string]string{"client_name": "x"})
	if resp.Error == nil || resp.Error.Code != app.CodeInvalidRequest {
		t.Errorf("missing awp_version: %+v", resp.Error)
	}
	resp = r.call("4", "page.observe", map[string]string{"session_id": "s_x"})
	if resp.Error == nil || resp.Error.Code != app.CodeInvalidRequest {
		t.Errorf("a failed hello must not open the gate: %+v", resp.Error)
	}
	resp = r.call("5", "awp.hello", map[string]string{"client_name": "e2e", "client_version": "1", "awp_version": "0.1"})
	var hello client.HelloResult
	if resp.Error != nil || json.Unmarshal(resp.Result, &hello) != nil {
		t.Fatalf("hello: %+v", resp.Error)
	}
	if hello.AWPVersion != "0.1" || hello.ServerName != "plasmate" || hello.ServerVersion != "test" || len(hello.Features) == 0 {
		t.Errorf("hello result %+v", hello)
	}
	if resp = r.call("6", "session.create", nil); resp.Error != nil {
		t.Errorf("after hello: %+v", resp.Error)
	}
}

func TestEnvelopeErrors(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	r := d.raw(t)
	r.hello()
	cases := []struct {
		name    string
		frame   string
		wantID  string // the id echoed, as JSON
		wantMsg string
	}{
		{"not JSON", `{"id": "1", nope`, "null", "not valid JSON"},
		{"JSON array", `[1,2]`, "null", "JSON object"},
		{"missing id", `{"type":"request","method":"awp.hello","params":{}}`, "null", "id"},
		{"empty id", `{"id":"","type":"request","method":"awp.hello"}`, `""`, "id"},
		{"numeric id", `{"id":7,"type":"request","method":"awp.hello"}`, `7`, "id"},
		{"type not request", `{"id":"a","type":"event","method":"awp.hello"}`, `"a"`, "type"},
		{"missing method", `{"id":"b","type":"request"}`, `"b"`, "method"},
		{"unknown method", `{"id":"c","type":"request","method":"page.fly","params":{}}`, `"c"`, "page.fly"},
		{"params not an object", `{"id":"d","type":"request","method":"session.create","params":[1]}`, `"d"`, "params"},
		{"wrongly typed field", `{"id":"e","type":"request","method":"session.create","params":{"timeout_ms":"soon"}}`, `"e"`, "params.timeout_ms"},
		{"wrongly typed embedded field", `{"id":"s","type":"request","method":"page.navigate","params":{"session_id":5,"url":"http://x.test/"}}`, `"s"`, "params.session_id must be a string"},
		{"negative timeout", `{"id":"f","type":"request","method":"session.create","params":{"timeout_ms":-5}}`, `"f"`, "positive"},
		{"bad locale", `{"id":"g","type":"request","method":"session.create","params":{"locale":"en US\r\n"}}`, `"g"`, "locale"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r.send(ws.OpText, []byte(tc.frame))
			resp := r.recv()
			if resp.Error == nil || resp.Error.Code != app.CodeInvalidRequest {
				t.Fatalf("got %+v, want INVALID_REQUEST", resp)
			}
			if string(resp.ID) != tc.wantID {
				t.Errorf("id = %s, want %s", resp.ID, tc.wantID)
			}
			if !strings.Contains(resp.Error.Message, tc.wantMsg) {
				t.Errorf("message %q does not mention %q", resp.Error.Message, tc.wantMsg)
			}
		})
	}
	t.Run("unknown fields are ignored", func(t *testing.T) {
		r.send(ws.OpText, []byte(`{"id":"u","type":"request","method":"session.create","params":{"future":1},"trace":"x"}`))
		if resp := r.recv(); resp.Error != nil || string(resp.ID) != `"u"` {
			t.Errorf("got %+v", resp)
		}
	})
}

func TestFramesAndConnectionSurvival(t *testing.T) {
	d := startDaemon(t, daemonOptions{maxMessage: 4 << 20})
	r := d.raw(t)
	r.hello()

	r.send(ws.OpBinary, []byte{0x82, 0xa2, 0x69, 0x64})
	if resp := r.recv(); resp.Error == nil || resp.Error.Code != app.CodeInvalidRequest || !contains(resp.Error.Message, "binary") {
		t.Errorf("binary frame: %+v", resp.Error)
	}
	garbage := bytes.Repeat([]byte("\x01garbage{["), (1<<20)/10)
	r.send(ws.OpText, garbage)
	if resp := r.recv(); resp.Error == nil || resp.Error.Code != app.CodeInvalidRequest {
		t.Errorf("1 MiB of garbage: %+v", resp.Error)
	}
	r.send(ws.OpText, bytes.Repeat([]byte("x"), 5<<20))
	if resp := r.recv(); resp.Error == nil || resp.Error.Code != app.CodeInvalidRequest || !contains(resp.Error.Message, "too large") {
		t.Errorf("message over the limit: %+v", resp.Error)
	}

	// A ping is answered with a pong carrying the same payload.
	if err := ws.WriteFrame(r.conn, ws.MaskFrameInPlace(ws.NewPingFrame([]byte("are you there")))); err != nil {
		t.Fatal(err)
	}
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	h, err := ws.ReadHeader(r.conn)
	if err != nil || h.OpCode != ws.OpPong {
		t.Fatalf("after ping: header %+v, %v", h, err)
	}
	payload := make([]byte, h.Length)
	if _, err := r.conn.Read(payload); err != nil || string(payload) != "are you there" {
		t.Errorf("pong payload %q, %v", payload, err)
	}

	// After all that, the connection still works.
	if resp := r.call("ok", "session.create", nil); resp.Error != nil {
		t.Errorf("connection broken: %+v", resp.Error)
	}
	// And so does every other connection.
	c, id := d.session(t)
	if err := c.CloseSession(ctx(t), id); err != nil {
		t.Error(err)
	}
}

func TestCloseHandshake(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	r := d.raw(t)
	r.hello()
	body := ws.NewCloseFrameBody(ws.StatusNormalClosure, "bye")
	if err := ws.WriteFrame(r.conn, ws.MaskFrameInPlace(ws.NewCloseFrame(body))); err != nil {
		t.Fatal(err)
	}
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	h, err := ws.ReadHeader(r.conn)
	if err != nil || h.OpCode != ws.OpClose {
		t.Fatalf("want the close frame echoed, got %+v, %v", h, err)
	}
	payload := make([]byte, h.Length)
	_, _ = r.conn.Read(payload)
	code, _ := ws.ParseCloseFrameData(payload)
	if code != ws.StatusNormalClosure {
		t.Errorf("close code %d, want 1000", code)
	}
}

func TestShutdownClosesConnectionsWithACloseFrame(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	r := d.raw(t)
	r.hello()
	d.shutdown()
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err := wsutil.ReadServerData(r.conn)
	ce, ok := err.(wsutil.ClosedError)
	if !ok || ce.Code != ws.StatusGoingAway {
		t.Errorf("after shutdown: %v, want a close frame with 1001", err)
	}
}

func TestSessions(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	c := d.dial(t)
	cx := ctx(t)

	first, err := c.CreateSession(cx, client.SessionOptions{UserAgent: "agent/1", Locale: "de-DE", TimeoutMS: 5000})
	if err != nil || !strings.HasPrefix(first, "s_") {
		t.Fatalf("create: %q, %v", first, err)
	}
	second, err := c.CreateSession(cx, client.SessionOptions{})
	if err != nil || second == first {
		t.Fatalf("second create: %q, %v", second, err)
	}
	// A second create closes the first.
	wantCode(t, c.CloseSession(cx, first), app.CodeNotFound)
	if d.server.Sessions().Len() != 1 {
		t.Errorf("%d live sessions, want 1", d.server.Sessions().Len())
	}
	// Another connection cannot use this one's session.
	other := d.dial(t)
	_, err = other.ObserveRaw(cx, second)
	wantCode(t, err, app.CodeNotFound)

	if err := c.CloseSession(cx, second); err != nil {
		t.Fatal(err)
	}
	wantCode(t, c.CloseSession(cx, second), app.CodeNotFound)
	wantCode(t, c.CloseSession(cx, "s_unknown"), app.CodeNotFound)
	_, err = c.ObserveRaw(cx, second)
	wantCode(t, err, app.CodeNotFound)

	// Closing the socket frees the session.
	c2 := d.dial(t)
	if _, err := c2.CreateSession(cx, client.SessionOptions{}); err != nil {
		t.Fatal(err)
	}
	_ = c2.Close()
	deadline := time.Now().Add(5 * time.Second)
	for d.server.Sessions().Len() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := d.server.Sessions().Len(); n != 0 {
		t.Errorf("%d sessions left after the sockets closed", n)
	}
}
