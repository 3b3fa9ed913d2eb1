//go:build wireinject

package main

import (
	"log/slog"

	"github.com/google/wire"

	"github.com/plasmate/plasmate/adapters/htmlparse"
	"github.com/plasmate/plasmate/adapters/httpfetch"
	"github.com/plasmate/plasmate/adapters/metrics"
	"github.com/plasmate/plasmate/adapters/wstransport"
	"github.com/plasmate/plasmate/app"
	"github.com/plasmate/plasmate/app/bench"
	"github.com/plasmate/plasmate/ports"
)

// pipelineSet is fetch → parse → compile, shared by the daemon and the
// bench, so both measure and serve the very same code.
var pipelineSet = wire.NewSet(
	htmlparse.New,
	wire.Bind(new(ports.Parser), new(*htmlparse.Parser)),
	httpfetch.New,
	wire.Bind(new(ports.Fetcher), new(*httpfetch.Fetcher)),
	app.NewCompiler,
)

// initDaemon builds `plasmate serve`.
func initDaemon(cfg daemonConfig, log *slog.Logger) *daemon {
	wire.Build(
		pipelineSet,
		fetcherConfig,
		metrics.New,
		wire.Bind(new(ports.Metrics), new(*metrics.Metrics)),
		app.NewSessions,
		serverInfo,
		app.NewServer,
		wire.Bind(new(ports.ConnHandler), new(*app.Server)),
		wstransport.New,
		newDaemon,
	)
	return nil
}

// initBench builds `plasmate bench`: the same pipeline as the daemon.
func initBench() (*bench.Runner, error) {
	wire.Build(
		pipelineSet,
		wire.Value(httpfetch.Config{}),
		tokenizers,
		wire.Struct(new(bench.Runner), "*"),
	)
	return nil, nil
}
