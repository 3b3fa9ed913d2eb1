// Package bench is `plasmate bench`: it loads a list of URLs through the
// very pipeline page.navigate uses (app.Compiler.Load), measures sizes,
// token counts and times, and reports them (spec §9).
package bench

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/plasmate/plasmate/app"
	"github.com/plasmate/plasmate/ports"
)

// Statuses of a row besides the AWP error codes.
const (
	StatusOK    = "ok"
	StatusEmpty = "empty" // fetched, but an empty body: nothing to measure
)

// Result is one URL's row.
type Result struct {
	URL        string `json:"url"`
	Status     string `json:"status"`
	Error      string `json:"error,omitempty"`
	FinalURL   string `json:"final_url,omitempty"`
	HTTPStatus int    `json:"http_status,omitempty"`

	HTMLBytes int     `json:"html_bytes"`
	SOMBytes  int     `json:"som_bytes"`
	ByteRatio float64 `json:"byte_ratio"`

	// Estimated tokens: bytes / 4, as the spec's v0.1 estimate.
	HTMLTokensEst int     `json:"html_tokens_est"`
	SOMTokensEst  int     `json:"som_tokens_est"`
	TokenRatioEst float64 `json:"token_ratio_est"`
	// Exact tokens.
	HTMLTokensCL100K int     `json:"html_tokens_cl100k"`
	SOMTokensCL100K  int     `json:"som_tokens_cl100k"`
	TokenRatioCL100K float64 `json:"token_ratio_cl100k"`
	HTMLTokensO200K  int     `json:"html_tokens_o200k"`
	SOMTokensO200K   int     `json:"som_tokens_o200k"`
	TokenRatioO200K  float64 `json:"token_ratio_o200k"`

	Elements    int     `json:"elements"`
	Interactive int     `json:"interactive"`
	FetchMS     float64 `json:"fetch_ms"`
	ParseSOMMS  float64 `json:"parse_som_ms"`
}

// OK reports whether the row has figures.
func (r *Result) OK() bool { return r.Status == StatusOK }

// Config is how a run fetches.
type Config struct {
	Concurrency int
	Timeout     time.Duration
	UserAgent   string
	Locale      string
}

// Tokenizers count exact tokens.
type Tokenizers struct {
	CL100K, O200K ports.TokenCounter
}

// Progress hears of each URL as it starts and as it finishes (from
// several goroutines, one call at a time).
type Progress interface {
	Start(url string)
	Done(url string, ok bool)
}

// Runner runs benchmarks.
type Runner struct {
	Compiler *app.Compiler
	Fetcher  ports.Fetcher
	Tokens   Tokenizers
}

// Run benchmarks urls and returns one row per URL, in order. Each URL
// gets a fresh session (an empty cookie jar), as a new agent would.
func (r *Runner) Run(ctx context.Context, urls []string, cfg Config, progress Progress) []Result {
	if cfg.Concurrency < 1 {
		cfg.Concurrency = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = app.DefaultTimeout
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = app.DefaultUserAgent
	}
	results := make([]Result, len(urls))
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(cfg.Concurrency, len(urls)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if progress != nil {
					mu.Lock()
					progress.Start(urls[i])
					mu.Unlock()
				}
				results[i] = r.one(ctx, urls[i], cfg)
				if progress != nil {
					mu.Lock()
					progress.Done(urls[i], results[i].OK())
					mu.Unlock()
				}
			}
		}()
	}
	for i := range urls {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func (r *Runner) one(ctx context.Context, url string, cfg Config) Result {
	res := Result{URL: url}
	fs := r.Fetcher.NewSession(ports.SessionOptions{UserAgent: cfg.UserAgent, AcceptLanguage: cfg.Locale})
	page, err := r.Compiler.Load(ctx, fs, ports.Request{URL: url, Timeout: cfg.Timeout})
	if err != nil {
		var e *app.Error
		if errors.As(err, &e) {
			res.Status, res.Error = e.Code, e.Message
			if s, ok := e.Details["status"].(int); ok {
				res.HTTPStatus = s
			}
			if u, ok := e.Details["final_url"].(string); ok {
				res.FinalURL = u
			}
		} else {
			res.Status, res.Error = app.CodeInternal, err.Error()
		}
		return res
	}
	res.FinalURL, res.HTTPStatus = page.URL, page.Status
	res.HTMLBytes, res.SOMBytes = page.HTMLBytes, len(page.JSON)
	res.Elements, res.Interactive = page.SOM.Meta.ElementCount, page.SOM.Meta.InteractiveCount
	res.FetchMS = ms(page.FetchTime)
	res.ParseSOMMS = ms(page.ParseTime + page.CompileTime)
	if page.HTMLBytes == 0 {
		res.Status = StatusEmpty
		return res
	}
	res.Status = StatusOK
	res.ByteRatio = ratio(res.HTMLBytes, res.SOMBytes)
	res.HTMLTokensEst, res.SOMTokensEst = estimate(res.HTMLBytes), estimate(res.SOMBytes)
	res.TokenRatioEst = ratio(res.HTMLTokensEst, res.SOMTokensEst)
	html, som := string(page.Body), string(page.JSON)
	if r.Tokens.CL100K != nil {
		res.HTMLTokensCL100K, res.SOMTokensCL100K = r.Tokens.CL100K.Count(html), r.Tokens.CL100K.Count(som)
		res.TokenRatioCL100K = ratio(res.HTMLTokensCL100K, res.SOMTokensCL100K)
	}
	if r.Tokens.O200K != nil {
		res.HTMLTokensO200K, res.SOMTokensO200K = r.Tokens.O200K.Count(html), r.Tokens.O200K.Count(som)
		res.TokenRatioO200K = ratio(res.HTMLTokensO200K, res.SOMTokensO200K)
	}
	return res
}

// estimate is the spec's v0.1 token estimate: bytes / 4, rounded.
func estimate(bytes int) int { return (bytes + 2) / 4 }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
