package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/plasmate/plasmate/client"
)

func TestPipelined500Requests(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	base := site(t, htmlHandler(200, `<title>P</title><a href="/x">x</a>`)).URL
	r := d.raw(t)
	r.hello()
	resp := r.call("c", "session.create", nil)
	var created struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal(resp.Result, &created)
	if resp := r.call("n", "page.navigate", map[string]string{"session_id": created.SessionID, "url": base}); resp.Error != nil {
		t.Fatal(resp.Error)
	}
	// Write all 500 before reading any answer.
	for i := range 500 {
		method := "page.observe"
		if i%50 == 49 {
			method = "no.such.method"
		}
		r.sendJSON(map[string]any{"id": "p" + strconv.Itoa(i), "type": "request", "method": method,
			"params": map[string]string{"session_id": created.SessionID}})
	}
	for i := range 500 {
		resp := r.recv()
		if want := `"p` + strconv.Itoa(i) + `"`; string(resp.ID) != want {
			t.Fatalf("response %d has id %s, want %s (in order)", i, resp.ID, want)
		}
		if (i%50 == 49) != (resp.Error != nil) {
			t.Fatalf("response %d: %+v", i, resp)
		}
	}
}

func TestFiftyConcurrentConnections(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	mux := http.NewServeMux()
	mux.HandleFunc("/{n}", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "who", Value: r.PathValue("n")})
		htmlHandler(200, "<title>"+r.PathValue("n")+"</title><p>"+r.Header.Get("Cookie")+"</p>")(w, r)
	})
	base := site(t, mux).URL
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cx := ctx(t)
			c, err := client.Dial(cx, d.URL)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			if _, err := c.Hello(cx, "load"); err != nil {
				errs <- err
				return
			}
			id, err := c.CreateSession(cx, client.SessionOptions{})
			if err != nil {
				errs <- err
				return
			}
			n := strconv.Itoa(i)
			for range 2 {
				if _, err := c.Navigate(cx, id, base+"/"+n, 0); err != nil {
					errs <- err
					return
				}
			}
			s, err := c.Observe(cx, id)
			if err != nil {
				errs <- err
				return
			}
			// The second visit sent this connection's cookie, and only it.
			if s.Title != n || len(s.Regions) == 0 || s.Regions[0].Elements[0].Text != "who="+n {
				errs <- fmt.Errorf("connection %d saw %q / %+v", i, s.Title, s.Regions)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
