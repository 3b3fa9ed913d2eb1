package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/plasmate/plasmate/adapters/demosite"
	"github.com/plasmate/plasmate/adapters/httpfetch"
	"github.com/plasmate/plasmate/adapters/metrics"
	"github.com/plasmate/plasmate/adapters/wstransport"
	"github.com/plasmate/plasmate/app"
)

// daemonConfig is what `plasmate serve` is told.
type daemonConfig struct {
	Addr        string // AWP WebSocket listener, host:port
	MetricsAddr string // /metrics listener; "" for none
	DemoAddr    string // bundled demo site; "" for none
	MaxBody     int64  // fetch body limit in bytes
	MaxConns    int64  // open WebSocket connections at most
}

// daemon is the running server: the AWP transport, metrics, demo site.
type daemon struct {
	cfg     daemonConfig
	ws      *wstransport.Server
	metrics *metrics.Metrics
	log     *slog.Logger
}

func newDaemon(cfg daemonConfig, ws *wstransport.Server, m *metrics.Metrics, log *slog.Logger) *daemon {
	if cfg.MaxConns > 0 {
		ws.SetMaxConns(cfg.MaxConns)
	}
	return &daemon{cfg: cfg, ws: ws, metrics: m, log: log}
}

// Providers for wire: distinct types keep values of one basic type apart.

func serverInfo() app.Info { return app.Info{Name: "plasmate", Version: version} }

func fetcherConfig(cfg daemonConfig) httpfetch.Config {
	return httpfetch.Config{MaxBodyBytes: cfg.MaxBody}
}

// listeners are the daemon's bound sockets, opened before serving so
// that a busy port fails at once with a clear message.
type listeners struct {
	awp, metrics, demo net.Listener
}

func (d *daemon) listen() (*listeners, error) {
	var l listeners
	var err error
	if l.awp, err = net.Listen("tcp", d.cfg.Addr); err != nil {
		return nil, fmt.Errorf("listen for AWP on %s: %w", d.cfg.Addr, err)
	}
	if d.cfg.MetricsAddr != "" {
		if l.metrics, err = net.Listen("tcp", d.cfg.MetricsAddr); err != nil {
			l.awp.Close()
			return nil, fmt.Errorf("listen for metrics on %s: %w", d.cfg.MetricsAddr, err)
		}
	}
	if d.cfg.DemoAddr != "" {
		if l.demo, err = net.Listen("tcp", d.cfg.DemoAddr); err != nil {
			l.awp.Close()
			if l.metrics != nil {
				l.metrics.Close()
			}
			return nil, fmt.Errorf("listen for the demo site on %s: %w", d.cfg.DemoAddr, err)
		}
	}
	return &l, nil
}

// Run serves until ctx ends, then shuts down: it stops accepting, closes
// every connection with a close frame and returns.
func (d *daemon) Run(ctx context.Context, ready func(*listeners)) error {
	l, err := d.listen()
	if err != nil {
		return err
	}
	var side []*http.Server
	var wg sync.WaitGroup
	errc := make(chan error, 3)
	serveHTTP := func(name string, ln net.Listener, h http.Handler) {
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		side = append(side, srv)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("%s server: %w", name, err)
			}
		}()
	}
	if l.metrics != nil {
		mux := http.NewServeMux()
		mux.Handle("/metrics", d.metrics.Handler())
		serveHTTP("metrics", l.metrics, mux)
		d.log.Info("metrics", "url", "http://"+l.metrics.Addr().String()+"/metrics")
	}
	if l.demo != nil {
		serveHTTP("demo site", l.demo, demosite.New())
		d.log.Info("demo site", "url", "http://"+l.demo.Addr().String()+"/")
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := d.ws.Serve(l.awp); err != nil {
			errc <- fmt.Errorf("AWP server: %w", err)
		}
	}()
	d.log.Info("plasmate AWP server listening", "url", "ws://"+l.awp.Addr().String()+"/", "version", version)
	if ready != nil {
		ready(l)
	}

	var runErr error
	select {
	case <-ctx.Done():
		d.log.Info("shutting down")
	case runErr = <-errc:
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := d.ws.Shutdown(shutCtx); err != nil && runErr == nil {
		runErr = fmt.Errorf("shutdown: %w", err)
	}
	for _, s := range side {
		_ = s.Shutdown(shutCtx)
	}
	wg.Wait()
	return runErr
}
