package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
)

type serveCmd struct {
	Host        string `default:"127.0.0.1" env:"PLASMATE_HOST" help:"Address to listen on for AWP WebSocket connections."`
	Port        int    `default:"9222" env:"PLASMATE_PORT" help:"Port for AWP WebSocket connections (ws://HOST:PORT/)."`
	MetricsAddr string `default:"127.0.0.1:9223" env:"PLASMATE_METRICS_ADDR" help:"Where to serve Prometheus /metrics; empty to disable."`
	Demo        string `env:"PLASMATE_DEMO_ADDR" placeholder:"HOST:PORT" help:"Also serve the bundled demo site at this address (make run uses 127.0.0.1:9280)."`
	MaxBody     int64  `default:"33554432" env:"PLASMATE_MAX_BODY" help:"Largest page body to fetch, in bytes."`
	MaxConns    int64  `name:"max-connections" default:"4096" env:"PLASMATE_MAX_CONNECTIONS" help:"Open agent connections at most; more are refused with HTTP 503."`
	LogLevel    string `default:"info" enum:"debug,info,warn,error" env:"PLASMATE_LOG_LEVEL" help:"Log level: debug, info, warn or error."`
}

func (c *serveCmd) Run(e *env) error {
	if c.Port < 0 || c.Port > 65535 {
		return usageError{fmt.Errorf("--port %d is not a TCP port", c.Port)}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return usageError{err}
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	d := initDaemon(daemonConfig{
		Addr:        net.JoinHostPort(c.Host, strconv.Itoa(c.Port)),
		MetricsAddr: c.MetricsAddr,
		DemoAddr:    c.Demo,
		MaxBody:     c.MaxBody,
		MaxConns:    c.MaxConns,
	}, log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return d.Run(ctx, nil)
}
