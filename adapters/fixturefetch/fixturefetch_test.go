package fixturefetch_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/plasmate/plasmate/adapters/fetchertest"
	"github.com/plasmate/plasmate/adapters/fixturefetch"
	"github.com/plasmate/plasmate/ports"
)

func TestContract(t *testing.T) {
	fetchertest.Run(t, func(t *testing.T, site http.Handler) (ports.Fetcher, string) {
		return fixturefetch.New().Handle("site.test", site), "http://site.test"
	})
}

func TestStaticPages(t *testing.T) {
	f := fixturefetch.New().
		Add("https://a.test/", fixturefetch.HTML("<p>home</p>")).
		Add("https://a.test/old", fixturefetch.Redirect("/")).
		Add("https://a.test/slow", fixturefetch.Page{Body: []byte("x"), Delay: time.Second})
	s := f.NewSession(ports.SessionOptions{})
	r, err := s.Fetch(context.Background(), ports.Request{URL: "https://a.test/old#frag"})
	if err != nil || r.URL != "https://a.test/" || string(r.Body) != "<p>home</p>" || r.Redirects != 1 {
		t.Fatalf("got %+v, %v", r, err)
	}
	if _, err := s.Fetch(context.Background(), ports.Request{URL: "https://a.test/slow", Timeout: 20 * time.Millisecond}); !errors.Is(err, ports.ErrTimeout) {
		t.Errorf("err = %v, want ErrTimeout", err)
	}
	if n := len(f.Requests()); n != 3 {
		t.Errorf("%d requests logged, want 3", n)
	}
}
