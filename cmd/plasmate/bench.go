package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/plasmate/plasmate/adapters/tokencount"
	"github.com/plasmate/plasmate/app/bench"
)

type benchCmd struct {
	URLs        string `name:"urls" placeholder:"FILE" help:"File of URLs, one a line (# starts a comment). With --serve, relative lines are paths in DIR."`
	Serve       string `placeholder:"DIR" help:"Serve DIR over loopback HTTP for the run; without --urls, every *.html in DIR is benchmarked."`
	Output      string `placeholder:"FILE" help:"Write the Markdown report here (default: stdout)."`
	JSON        string `name:"json" placeholder:"FILE" help:"Also write every per-URL figure as JSON."`
	Concurrency int    `default:"4" help:"URLs fetched at once."`
	TimeoutMS   int    `name:"timeout-ms" default:"30000" help:"Timeout of each navigation, in milliseconds."`
	UserAgent   string `name:"user-agent" help:"User-Agent to send (default: the AWP session default, Chrome 128)."`
}

func (c *benchCmd) Run(e *env) error {
	if c.URLs == "" && c.Serve == "" {
		return usageError{errors.New("give --urls FILE, --serve DIR, or both")}
	}
	if c.Concurrency < 1 || c.TimeoutMS < 1 {
		return usageError{errors.New("--concurrency and --timeout-ms must be positive")}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var base *url.URL
	var files []string
	if c.Serve != "" {
		srv, u, err := serveDir(c.Serve)
		if err != nil {
			return err
		}
		defer srv.Close()
		base = u
		if c.URLs == "" {
			if files, err = htmlFiles(c.Serve); err != nil {
				return err
			}
			if len(files) == 0 {
				return fmt.Errorf("no *.html files in %s", c.Serve)
			}
		}
	}
	var urls []string
	if c.URLs != "" {
		f, err := os.Open(c.URLs)
		if err != nil {
			return fmt.Errorf("read urls: %w", err)
		}
		urls, err = bench.ParseURLs(f, base)
		f.Close()
		if err != nil {
			return usageError{fmt.Errorf("%s: %w", c.URLs, err)}
		}
	} else {
		for _, name := range files {
			urls = append(urls, base.ResolveReference(&url.URL{Path: name}).String())
		}
	}
	if len(urls) == 0 {
		return usageError{fmt.Errorf("%s lists no URLs", c.URLs)}
	}

	runner, err := initBench()
	if err != nil {
		return err
	}
	progress := newProgress(e.stderr, len(urls))
	start := time.Now()
	results := runner.Run(ctx, urls, bench.Config{
		Concurrency: c.Concurrency,
		Timeout:     time.Duration(c.TimeoutMS) * time.Millisecond,
		UserAgent:   c.UserAgent,
	}, progress)
	progress.finish()
	report := &bench.Report{
		Date: start, Engine: "plasmate", Version: version, Concurrency: c.Concurrency,
		WallTime: time.Since(start).Seconds(), Results: results, Summary: bench.Summarize(results),
	}
	if err := c.write(e, report); err != nil {
		return err
	}
	s := report.Summary
	fmt.Fprintf(e.stderr, "benchmarked %d URLs in %.1f s: %d ok, %d failed; median token ratio (cl100k_base) %.1fx\n",
		s.URLsTested, report.WallTime, s.Successful, s.Failed, s.TokenRatioCL100K.Median)
	return ctx.Err()
}

func (c *benchCmd) write(e *env, r *bench.Report) error {
	var out io.Writer = e.stdout
	if c.Output != "" {
		if err := os.MkdirAll(filepath.Dir(c.Output), 0o755); err != nil {
			return err
		}
		f, err := os.Create(c.Output)
		if err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		defer f.Close()
		out = f
	}
	if err := bench.WriteMarkdown(out, r); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if c.JSON != "" {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(c.JSON), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(c.JSON, append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("write JSON: %w", err)
		}
	}
	return nil
}

func tokenizers() (bench.Tokenizers, error) {
	cl, err := tokencount.New(tokencount.CL100K)
	if err != nil {
		return bench.Tokenizers{}, err
	}
	o, err := tokencount.New(tokencount.O200K)
	if err != nil {
		return bench.Tokenizers{}, err
	}
	return bench.Tokenizers{CL100K: cl, O200K: o}, nil
}

// dirServer is an HTTP server of the files in dir, listening on addr.
func dirServer(dir, addr string) (*http.Server, net.Listener, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil, usageError{fmt.Errorf("%s: not a directory", dir)}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	return &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}, ln, nil
}

// serveDir serves dir on a loopback port and returns its base URL.
func serveDir(dir string) (*http.Server, *url.URL, error) {
	srv, ln, err := dirServer(dir, "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	go func() { _ = srv.Serve(ln) }()
	return srv, &url.URL{Scheme: "http", Host: ln.Addr().String(), Path: "/"}, nil
}

func htmlFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".html") || strings.HasSuffix(e.Name(), ".htm")) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// progress is a bar on stderr: URL n of N, the current URL, failures so
// far. It stays silent when stderr is not a terminal.
type progress struct {
	bar      *progressbar.ProgressBar
	failures int
}

func newProgress(w io.Writer, n int) *progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetDescription("bench"),
	)}
}

// Start shows the URL now being fetched.
func (p *progress) Start(u string) {
	if p.bar == nil {
		return
	}
	short := strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	if r := []rune(short); len(r) > 40 {
		short = "…" + string(r[len(r)-39:])
	}
	p.bar.Describe(fmt.Sprintf("%-40s failures %d", short, p.failures))
}

// Done counts a finished URL.
func (p *progress) Done(_ string, ok bool) {
	if !ok {
		p.failures++
	}
	if p.bar != nil {
		_ = p.bar.Add(1)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

type serveDirCmd struct {
	Dir  string `arg:"" help:"Folder of pages to serve."`
	Addr string `default:"127.0.0.1:8080" help:"Address to serve on."`
}

func (c *serveDirCmd) Run(e *env) error {
	srv, ln, err := dirServer(c.Dir, c.Addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "serving %s at http://%s/ (Ctrl-C to stop)\n", c.Dir, ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); _ = srv.Close() }()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
