// Command plasmate is a headless browser for AI agents: it compiles web
// pages into a Semantic Object Model and serves the Agent Web Protocol.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"
)

// version is the engine version reported by `plasmate version`, the AWP
// hello and the bench report.
const version = "0.1.0"

// exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

type cli struct {
	Serve    serveCmd    `cmd:"" help:"Run the AWP server: agents connect over WebSocket (ws://127.0.0.1:9222/)."`
	Compile  compileCmd  `cmd:"" help:"Compile an HTML file (or stdin) into a SOM and print it as JSON."`
	Bench    benchCmd    `cmd:"" help:"Benchmark URLs: HTML vs SOM bytes and tokens, elements, fetch and compile times, as a Markdown report."`
	ServeDir serveDirCmd `cmd:"" name:"serve-dir" help:"Serve a folder of HTML pages over loopback HTTP (for offline benchmarks)."`
	Version  versionCmd  `cmd:"" help:"Print the plasmate version."`
}

// usageError marks errors in how the command was called.
type usageError struct{ error }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	var c cli
	exited := false
	parser, err := kong.New(&c,
		kong.Name("plasmate"),
		kong.Description("A headless browser for AI agents: pages become compact SOM JSON that agents read and act on over the Agent Web Protocol (AWP)."),
		kong.UsageOnError(),
		kong.Writers(stdout, stderr),
		kong.Exit(func(c int) { exited = true; code = c }),
		kong.Bind(&env{stdin: stdin, stdout: stdout, stderr: stderr}),
	)
	if err != nil {
		fmt.Fprintf(stderr, "plasmate: %v\n", err)
		return exitFailure
	}
	ctx, err := parser.Parse(args)
	if exited {
		return code
	}
	if err != nil {
		fmt.Fprintf(stderr, "plasmate: %v\n", err)
		return exitUsage
	}
	if err := ctx.Run(); err != nil {
		fmt.Fprintf(stderr, "plasmate: %v\n", err)
		var ue usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitFailure
	}
	return exitOK
}

// env carries the process's streams to commands, so tests can run them.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

type versionCmd struct{}

func (versionCmd) Run(e *env) error {
	_, err := fmt.Fprintf(e.stdout, "plasmate %s\n", version)
	return err
}
