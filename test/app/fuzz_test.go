package app_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/plasmate/plasmate/adapters/fixturefetch"
	"github.com/plasmate/plasmate/adapters/htmlparse"
)

// FuzzEnvelope sends arbitrary messages after a hello: every one gets
// exactly one response, with type "response" and exactly one of result
// and error, and the connection keeps serving.
func FuzzEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"id":"1","type":"request","method":"session.create","params":{}}`,
		`{"id":"2","type":"request","method":"page.observe","params":{"session_id":"s_x"}}`,
		`{"id":"3","type":"request","method":"page.navigate","params":{"session_id":1,"url":["x"]}}`,
		`{"id":{"a":1},"type":"request"}`,
		`not json`, `[]`, `null`, `"str"`, `{}`, "\x00\xff",
		`{"id":"4","type":"request","method":"session.create","params":{"timeout_ms":1e309}}`,
	} {
		f.Add([]byte(s))
	}
	fetcher := fixturefetch.New().Add("https://f.test/", fixturefetch.HTML("<p>x</p>"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		h := start(t, htmlparse.New(), fetcher)
		h.session()
		h.conn.in <- msg
		var out []byte
		select {
		case out = <-h.conn.out:
		case <-time.After(5 * time.Second):
			t.Fatalf("no response to %q", msg)
		}
		var env map[string]json.RawMessage
		if err := json.Unmarshal(out, &env); err != nil {
			t.Fatalf("response %q is not a JSON object", out)
		}
		if string(env["type"]) != `"response"` || (env["result"] == nil) == (env["error"] == nil) {
			t.Fatalf("bad response %s to %q", out, msg)
		}
		if r := h.call("session.create", nil); r.Error != nil {
			t.Fatalf("connection stopped working after %q: %v", msg, r.Error)
		}
	})
}
