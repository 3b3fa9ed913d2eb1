package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/plasmate/plasmate/adapters/htmlparse"
	"github.com/plasmate/plasmate/app"
	"github.com/plasmate/plasmate/client"
	"github.com/plasmate/plasmate/domain/som"
	"github.com/plasmate/plasmate/ports"
)

// testSite serves the pages the navigation tests need.
func testSite(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/", htmlHandler(200, `<html lang="en"><title>Home</title><nav><a href="/a">A</a></nav><main><h1>Welcome</h1><p>Hello there.</p></main>`))
	mux.HandleFunc("/second", htmlHandler(200, `<title>Second</title><p>two</p>`))
	mux.HandleFunc("/redirect/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			htmlHandler(200, "<title>Landed</title>")(w, r)
			return
		}
		http.Redirect(w, r, "/redirect/"+strconv.Itoa(n-1), http.StatusFound)
	})
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "s3cret", Path: "/"})
		http.Redirect(w, r, "/whoami", http.StatusSeeOther)
	})
	mux.HandleFunc("/whoami", func(w http.ResponseWriter, r *http.Request) {
		who := "anonymous"
		if c, err := r.Cookie("sid"); err == nil {
			who = c.Value
		}
		htmlHandler(200, "<title>"+who+"</title><p>ua="+r.UserAgent()+" lang="+r.Header.Get("Accept-Language")+"</p>")(w, r)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
			return
		}
		htmlHandler(200, "late")(w, r)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<meta charset=\"windows-1252\"><title>Caf\xe9</title><p>cr\xe8me br\xfbl\xe9e \x80</p>"))
	})
	mux.HandleFunc("/missing", htmlHandler(404, "<title>Not found</title><h1>Page not found</h1><a href=\"/\">Home</a>"))
	mux.HandleFunc("/error", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(503)
		_, _ = w.Write([]byte(`{"error":"down"}`))
	})
	mux.HandleFunc("/doc.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write([]byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"))
	})
	mux.HandleFunc("/gzip", encodedHTML("gzip", "<title>Zipped</title>"))
	mux.HandleFunc("/br", encodedHTML("br", "<title>Brotli</title>"))
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write(bytes.Repeat([]byte("<p>x</p>"), 1<<17))
	})
	return site(t, mux).URL
}

// encodedHTML serves body compressed with a Content-Encoding.
func encodedHTML(encoding, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		var zw io.WriteCloser = gzip.NewWriter(&buf)
		if encoding == "br" {
			zw = brotli.NewWriter(&buf)
		}
		zw.Write([]byte(body))
		zw.Close()
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", encoding)
		w.Write(buf.Bytes())
	}
}

func TestNavigateAndObserve(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	base := testSite(t)
	c, id := d.session(t)
	cx := ctx(t)

	_, err := c.ObserveRaw(cx, id)
	wantCode(t, err, app.CodeNotFound)

	nav, err := c.Navigate(cx, id, base+"/", 0)
	if err != nil {
		t.Fatal(err)
	}
	if nav.URL != base+"/" || nav.Status != 200 || nav.ContentType != "text/html; charset=utf-8" || !nav.SOMReady || nav.HTMLBytes < 100 || nav.LoadMS < 0 {
		t.Errorf("navigate result %+v", nav)
	}
	raw, err := c.ObserveRaw(cx, id)
	if err != nil {
		t.Fatal(err)
	}
	var s som.SOM
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if s.Title != "Home" || s.Lang != "en" || s.URL != base+"/" || s.Meta.SOMBytes != len(raw) || s.Meta.HTMLBytes != nav.HTMLBytes {
		t.Errorf("SOM %s", raw)
	}
	// Observe returns exactly what compiling the same page gives.
	resp, _ := http.Get(base + "/")
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	page, err := app.NewCompiler(htmlparse.New()).Compile(&ports.Response{URL: base + "/", Body: body.Bytes(), RawBytes: body.Len()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, page.JSON) {
		t.Errorf("observe:\n%s\ncompile:\n%s", raw, page.JSON)
	}
}

func TestNavigationErrors(t *testing.T) {
	d := startDaemon(t, daemonOptions{maxBody: 512 << 10})
	base := testSite(t)
	c, id := d.session(t)
	cx := ctx(t)
	if _, err := c.Navigate(cx, id, base+"/second", 0); err != nil {
		t.Fatal(err)
	}
	refused := func() string {
		s := site(t, http.NotFoundHandler())
		u := s.URL
		s.Close()
		return u
	}()

	selfSigned := httptest.NewTLSServer(htmlHandler(200, "<p>secret</p>"))
	t.Cleanup(selfSigned.Close)

	cases := []struct {
		name    string
		url     string
		timeout int
		code    string
		details map[string]any
	}{
		{"11 redirects", base + "/redirect/11", 0, app.CodeNavigationFailed, map[string]any{"limit": float64(10)}},
		{"timeout", base + "/slow", 200, app.CodeTimeout, map[string]any{"timeout_ms": float64(200)}},
		{"5xx without HTML", base + "/error", 0, app.CodeNavigationFailed, map[string]any{"status": float64(503)}},
		{"PDF", base + "/doc.pdf", 0, app.CodeNavigationFailed, map[string]any{"content_type": "application/pdf"}},
		{"body over the limit", base + "/big", 0, app.CodeNavigationFailed, map[string]any{"limit": float64(512 << 10)}},
		{"connection refused", refused + "/", 0, app.CodeNavigationFailed, nil},
		{"DNS failure", "http://no-such-host.invalid/", 0, app.CodeNavigationFailed, nil},
		{"TLS certificate not trusted", selfSigned.URL + "/", 0, app.CodeNavigationFailed, map[string]any{"reason": "TLS error: tls: failed to verify certificate: x509: certificate signed by unknown authority"}},
		{"unsupported scheme", "ftp://example.com/file", 0, app.CodeInvalidRequest, nil},
		{"relative URL", "/relative", 0, app.CodeInvalidRequest, nil},
		{"file URL", "file:///etc/passwd", 0, app.CodeInvalidRequest, nil},
		{"no host", "http://:80/x", 0, app.CodeInvalidRequest, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Navigate(cx, id, tc.url, tc.timeout)
			e := wantCode(t, err, tc.code)
			for k, v := range tc.details {
				if e.Details[k] != v {
					t.Errorf("details[%s] = %v, want %v (details %v)", k, e.Details[k], v, e.Details)
				}
			}
		})
	}
	// Every failure left the previous page in place.
	s, err := c.Observe(cx, id)
	if err != nil || s.Title != "Second" {
		t.Errorf("after failed navigations: %v, %v", s, err)
	}
	// Params are checked before any fetch.
	_, err = c.Navigate(cx, "s_other", base+"/", 0)
	wantCode(t, err, app.CodeNotFound)
	wantCode(t, c.Call(cx, "page.navigate", map[string]any{"session_id": id}, nil), app.CodeInvalidRequest)
	wantCode(t, c.Call(cx, "page.navigate", map[string]any{"session_id": id, "url": 42}, nil), app.CodeInvalidRequest)
	wantCode(t, c.Call(cx, "page.navigate", map[string]any{"url": base}, nil), app.CodeInvalidRequest)
}

func TestNavigateFetchBehaviour(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	base := testSite(t)
	cx := ctx(t)

	t.Run("10 redirects are followed", func(t *testing.T) {
		c, id := d.session(t)
		nav, err := c.Navigate(cx, id, base+"/redirect/10", 0)
		if err != nil || nav.URL != base+"/redirect/0" {
			t.Fatalf("%+v, %v", nav, err)
		}
	})
	t.Run("cookie set on a redirect hop is sent next; other connections do not see it", func(t *testing.T) {
		c, id := d.session(t)
		nav, err := c.Navigate(cx, id, base+"/login", 0)
		if err != nil || nav.URL != base+"/whoami" {
			t.Fatalf("%+v, %v", nav, err)
		}
		if s, _ := c.Observe(cx, id); s.Title != "s3cret" {
			t.Errorf("title %q: the cookie was not sent after the redirect", s.Title)
		}
		other, oid := d.session(t)
		if _, err := other.Navigate(cx, oid, base+"/whoami", 0); err != nil {
			t.Fatal(err)
		}
		if s, _ := other.Observe(cx, oid); s.Title != "anonymous" {
			t.Errorf("another connection saw cookie %q", s.Title)
		}
	})
	t.Run("user agent and locale", func(t *testing.T) {
		c := d.dial(t)
		id, err := c.CreateSession(cx, client.SessionOptions{UserAgent: "TestAgent/2.0", Locale: "fr-CA"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Navigate(cx, id, base+"/whoami", 0); err != nil {
			t.Fatal(err)
		}
		raw, _ := c.ObserveRaw(cx, id)
		if !contains(string(raw), "ua=TestAgent/2.0 lang=fr-CA,fr;q=0.9") {
			t.Errorf("SOM %s", raw)
		}
	})
	t.Run("session timeout applies when the call sets none", func(t *testing.T) {
		c := d.dial(t)
		// /slow answers after 10 s: TIMEOUT can only come from the
		// session's 150 ms.
		id, _ := c.CreateSession(cx, client.SessionOptions{TimeoutMS: 150})
		_, err := c.Navigate(cx, id, base+"/slow", 0)
		e := wantCode(t, err, app.CodeTimeout)
		if e.Details["timeout_ms"] != float64(150) {
			t.Errorf("details %v", e.Details)
		}
	})
	for _, tc := range []struct{ path, title string }{
		{"/latin1", "Café"}, {"/gzip", "Zipped"}, {"/br", "Brotli"},
	} {
		t.Run("decoded "+tc.path, func(t *testing.T) {
			c, id := d.session(t)
			if _, err := c.Navigate(cx, id, base+tc.path, 0); err != nil {
				t.Fatal(err)
			}
			s, _ := c.Observe(cx, id)
			if s.Title != tc.title {
				t.Errorf("title %q, want %q", s.Title, tc.title)
			}
			if tc.path == "/latin1" && !contains(fmt.Sprint(s.Regions[0].Elements[0].Text), "crème brûlée €") {
				t.Errorf("text %q", s.Regions[0].Elements[0].Text)
			}
		})
	}
	t.Run("404 with an HTML page compiles like a browser shows it", func(t *testing.T) {
		c, id := d.session(t)
		nav, err := c.Navigate(cx, id, base+"/missing", 0)
		if err != nil || nav.Status != 404 {
			t.Fatalf("%+v, %v", nav, err)
		}
		s, _ := c.Observe(cx, id)
		if s.Title != "Not found" || s.Meta.InteractiveCount != 1 {
			t.Errorf("SOM %+v", s)
		}
	})
}

func TestMetricsSeeTheTraffic(t *testing.T) {
	d := startDaemon(t, daemonOptions{})
	base := testSite(t)
	c, id := d.session(t)
	cx := ctx(t)
	if _, err := c.Navigate(cx, id, base+"/", 0); err != nil {
		t.Fatal(err)
	}
	_, _ = c.Navigate(cx, id, "ftp://x/", 0)
	families, err := d.metrics.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, f := range families {
		if strings.HasPrefix(f.GetName(), "plasmate_") {
			found[f.GetName()] = true
		}
	}
	for _, name := range []string{"plasmate_request_duration_seconds", "plasmate_fetch_duration_seconds", "plasmate_compile_duration_seconds",
		"plasmate_html_bytes", "plasmate_som_bytes", "plasmate_connections_active", "plasmate_sessions_active", "plasmate_errors_total"} {
		if !found[name] {
			t.Errorf("metric %s missing", name)
		}
	}
}
