package httpfetch_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plasmate/plasmate/adapters/fetchertest"
	"github.com/plasmate/plasmate/adapters/httpfetch"
	"github.com/plasmate/plasmate/ports"
)

func TestContract(t *testing.T) {
	fetchertest.Run(t, func(t *testing.T, site http.Handler) (ports.Fetcher, string) {
		srv := httptest.NewServer(site)
		t.Cleanup(srv.Close)
		return httpfetch.New(httpfetch.Config{}), srv.URL
	})
}

func TestBodyLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(strings.Repeat("x", 2000)))
	}))
	defer srv.Close()
	f := httpfetch.New(httpfetch.Config{MaxBodyBytes: 1000})
	_, err := f.NewSession(ports.SessionOptions{}).Fetch(context.Background(), ports.Request{URL: srv.URL})
	var fe *ports.FetchError
	if !errors.Is(err, ports.ErrBodyTooLarge) || !errors.As(err, &fe) || fe.Limit != 1000 {
		t.Errorf("err = %v, want ErrBodyTooLarge with limit 1000", err)
	}
}

func TestConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := httpfetch.New(httpfetch.Config{}).NewSession(ports.SessionOptions{}).Fetch(context.Background(), ports.Request{URL: url})
	if err == nil || !strings.Contains(err.Error(), "connect failed") {
		t.Errorf("err = %v, want a connect failure", err)
	}
}
