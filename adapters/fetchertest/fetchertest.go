// Package fetchertest is the contract every fetch adapter must meet: one
// suite, run by each adapter's tests against its own way of serving the
// same site (real loopback HTTP, or in memory).
package fetchertest

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/plasmate/plasmate/ports"
)

// Harness makes the fetcher under test serve site, and returns it with
// the site's base URL (no trailing slash).
type Harness func(t *testing.T, site http.Handler) (ports.Fetcher, string)

// Site is the handler every adapter is tested against.
func Site() http.Handler {
	mux := http.NewServeMux()
	html := func(w http.ResponseWriter, status int, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { html(w, 200, "<title>ok</title><p>hello</p>") })
	mux.HandleFunc("/redirect/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			html(w, 200, "<p>done</p>")
			return
		}
		http.Redirect(w, r, "/redirect/"+strconv.Itoa(n-1), http.StatusFound)
	})
	mux.HandleFunc("/setcookie", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "abc", Path: "/"})
		http.Redirect(w, r, "/echo", http.StatusFound)
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		html(w, 200, fmt.Sprintf("<p>cookie=%s ua=%s lang=%s method=%s</p>",
			r.Header.Get("Cookie"), r.Header.Get("User-Agent"), r.Header.Get("Accept-Language"), r.Method))
	})
	mux.HandleFunc("/post", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		html(w, 200, fmt.Sprintf("<p>method=%s q=%s type=%s</p>", r.Method, r.PostForm.Get("q"), r.Header.Get("Content-Type")))
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=windows-1252")
		w.Write([]byte("<p>caf\xe9</p>"))
	})
	mux.HandleFunc("/404", func(w http.ResponseWriter, r *http.Request) { html(w, 404, "<h1>Not here</h1>") })
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(500)
		fmt.Fprint(w, "boom")
	})
	mux.HandleFunc("/untyped", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil
		fmt.Fprint(w, "<!DOCTYPE html><p>sniffed</p>")
	})
	mux.HandleFunc("/enc/{kind}", func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		body := []byte("<p>" + strings.Repeat("compressed ", 100) + "</p>")
		switch kind := r.PathValue("kind"); kind {
		case "gzip":
			zw := gzip.NewWriter(&buf)
			zw.Write(body)
			zw.Close()
		case "deflate":
			zw := zlib.NewWriter(&buf)
			zw.Write(body)
			zw.Close()
		case "br":
			bw := brotli.NewWriter(&buf)
			bw.Write(body)
			bw.Close()
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", r.PathValue("kind"))
		w.Write(buf.Bytes())
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
			return
		}
		html(w, 200, "<p>late</p>")
	})
	return mux
}

// Run runs the contract against the adapter that h builds.
func Run(t *testing.T, h Harness) {
	opts := ports.SessionOptions{UserAgent: "plasmate-test/1", AcceptLanguage: "fr-CA,fr;q=0.9"}
	get := func(t *testing.T, f ports.Fetcher, base, path string) (*ports.Response, error) {
		return f.NewSession(opts).Fetch(context.Background(), ports.Request{URL: base + path, Timeout: 5 * time.Second})
	}

	t.Run("200 HTML", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := get(t, f, base, "/ok")
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != 200 || r.URL != base+"/ok" || !strings.HasPrefix(r.ContentType, "text/html") ||
			string(r.Body) != "<title>ok</title><p>hello</p>" || r.RawBytes != len(r.Body) {
			t.Errorf("got %+v", r)
		}
	})
	t.Run("headers: user agent and language", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := get(t, f, base, "/echo")
		if err != nil {
			t.Fatal(err)
		}
		if want := "ua=plasmate-test/1 lang=fr-CA,fr;q=0.9 method=GET"; !strings.Contains(string(r.Body), want) {
			t.Errorf("body %q lacks %q", r.Body, want)
		}
	})
	t.Run("10 redirects followed, final URL reported", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := get(t, f, base, "/redirect/10")
		if err != nil {
			t.Fatal(err)
		}
		if r.URL != base+"/redirect/0" || r.Redirects != 10 || string(r.Body) != "<p>done</p>" {
			t.Errorf("got url %s after %d redirects, body %q", r.URL, r.Redirects, r.Body)
		}
	})
	t.Run("11 redirects fail", func(t *testing.T) {
		f, base := h(t, Site())
		_, err := get(t, f, base, "/redirect/11")
		if !errors.Is(err, ports.ErrTooManyRedirects) {
			t.Errorf("err = %v, want ErrTooManyRedirects", err)
		}
	})
	t.Run("cookie set on a redirect hop is sent on the next request", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := get(t, f, base, "/setcookie")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(r.Body), "cookie=sid=abc") {
			t.Errorf("body %q: cookie not sent after the redirect", r.Body)
		}
	})
	t.Run("cookies are per session", func(t *testing.T) {
		f, base := h(t, Site())
		a, b := f.NewSession(opts), f.NewSession(opts)
		ctx := context.Background()
		if _, err := a.Fetch(ctx, ports.Request{URL: base + "/setcookie"}); err != nil {
			t.Fatal(err)
		}
		ra, _ := a.Fetch(ctx, ports.Request{URL: base + "/echo"})
		rb, _ := b.Fetch(ctx, ports.Request{URL: base + "/echo"})
		if !strings.Contains(string(ra.Body), "cookie=sid=abc") || strings.Contains(string(rb.Body), "sid=abc") {
			t.Errorf("session a saw %q, session b saw %q", ra.Body, rb.Body)
		}
	})
	t.Run("POST form", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := f.NewSession(opts).Fetch(context.Background(), ports.Request{
			Method: "POST", URL: base + "/post", Body: []byte("q=plasma+go"), ContentType: "application/x-www-form-urlencoded"})
		if err != nil {
			t.Fatal(err)
		}
		if want := "method=POST q=plasma go"; !strings.Contains(string(r.Body), want) {
			t.Errorf("body %q lacks %q", r.Body, want)
		}
	})
	t.Run("charset decoded to UTF-8", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := get(t, f, base, "/latin1")
		if err != nil {
			t.Fatal(err)
		}
		if string(r.Body) != "<p>café</p>" || r.Charset != "windows-1252" || r.RawBytes != 11 {
			t.Errorf("body %q charset %q raw %d", r.Body, r.Charset, r.RawBytes)
		}
	})
	for _, enc := range []string{"gzip", "deflate", "br"} {
		t.Run("content encoding "+enc, func(t *testing.T) {
			f, base := h(t, Site())
			r, err := get(t, f, base, "/enc/"+enc)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(r.Body), "<p>compressed compressed") {
				t.Errorf("body %.40q", r.Body)
			}
		})
	}
	t.Run("404 with HTML is a response, not an error", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := get(t, f, base, "/404")
		if err != nil || r.Status != 404 || string(r.Body) != "<h1>Not here</h1>" {
			t.Errorf("got %+v, %v", r, err)
		}
	})
	t.Run("500 text is a response with its content type", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := get(t, f, base, "/500")
		if err != nil || r.Status != 500 || r.ContentType != "text/plain" {
			t.Errorf("got %+v, %v", r, err)
		}
	})
	t.Run("missing content type is sniffed", func(t *testing.T) {
		f, base := h(t, Site())
		r, err := get(t, f, base, "/untyped")
		if err != nil || !strings.HasPrefix(r.ContentType, "text/html") {
			t.Errorf("got %+v, %v", r, err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		// /slow answers after 5 s, so only the 100 ms timeout can end it
		// with ErrTimeout.
		f, base := h(t, Site())
		_, err := f.NewSession(opts).Fetch(context.Background(), ports.Request{URL: base + "/slow", Timeout: 100 * time.Millisecond})
		if !errors.Is(err, ports.ErrTimeout) {
			t.Errorf("err = %v, want ErrTimeout", err)
		}
	})
	t.Run("unsupported scheme", func(t *testing.T) {
		f, _ := h(t, Site())
		_, err := f.NewSession(opts).Fetch(context.Background(), ports.Request{URL: "ftp://example.com/x"})
		if !errors.Is(err, ports.ErrUnsupportedScheme) {
			t.Errorf("err = %v, want ErrUnsupportedScheme", err)
		}
	})
	t.Run("unknown host", func(t *testing.T) {
		f, _ := h(t, Site())
		_, err := f.NewSession(opts).Fetch(context.Background(), ports.Request{URL: "http://no-such-host.invalid/", Timeout: 5 * time.Second})
		var fe *ports.FetchError
		if !errors.As(err, &fe) || errors.Is(err, ports.ErrTimeout) {
			t.Errorf("err = %v, want a FetchError", err)
		}
	})
}
