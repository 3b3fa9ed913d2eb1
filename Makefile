# plasmate — a headless browser for AI agents. `make` lists the targets.

GO       ?= go
PKGS     := ./...
FUZZTIME ?= 30s
BIN      := bin/plasmate
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
WIRE        := github.com/google/wire/cmd/wire@v0.7.0

.DEFAULT_GOAL := help

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## build bin/plasmate
	$(GO) build -o $(BIN) ./cmd/plasmate

.PHONY: run
run: build ## run the AWP server on 127.0.0.1:9222 with the demo site on 127.0.0.1:9280
	$(BIN) serve --host 127.0.0.1 --port 9222 --demo 127.0.0.1:9280

.PHONY: generate
generate: ## regenerate wire_gen.go (dependency injection)
	$(GO) run $(WIRE) ./cmd/plasmate

.PHONY: test
test: ## run every test, with the race detector
	$(GO) test -race -count=1 $(PKGS)

CORPUS ?= ../shared/corpus/pages

.PHONY: bench
bench: build ## benchmark the corpus (docs/bench/report.md + results.json), then the Go benchmarks
	$(BIN) bench --serve $(CORPUS) --output docs/bench/report.md --json docs/bench/results.json
	$(MAKE) gobench

.PHONY: gobench
gobench: ## Go benchmarks over the corpus: compile vs parse-only time, allocations
	$(GO) test -run '^$$' -bench . -benchmem ./test/som

.PHONY: perf
perf: ## measure the daemon: observe latency, navigate throughput, memory per session
	PLASMATE_PERF=1 $(GO) test -count=1 -v -run TestDaemonPerformance ./test/perf

.PHONY: fuzz
# Every fuzz target, as package:Target.
FUZZ_TARGETS := ./test/som:FuzzCompile ./domain/som:FuzzAppendString ./test/app:FuzzEnvelope \
	./adapters/wstransport:FuzzReadMessage ./app/bench:FuzzParseURLs

fuzz: ## fuzz every parser of untrusted input for FUZZTIME each (default 30s)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  echo "fuzz $$t"; $(GO) test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) "$${t%%:*}"; done

.PHONY: lint
lint: ## gofmt, go vet, staticcheck, the dependency rule, go mod tidy, generated code current
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)
	$(GO) test -count=1 -run TestDependencyRule ./test/arch
	$(GO) mod tidy -diff
	@cp cmd/plasmate/wire_gen.go /tmp/plasmate-wire_gen.go && $(GO) run $(WIRE) ./cmd/plasmate >/dev/null && \
	  if ! diff -q /tmp/plasmate-wire_gen.go cmd/plasmate/wire_gen.go >/dev/null; then echo "wire_gen.go is stale: run make generate"; exit 1; fi

.PHONY: golden
golden: ## regenerate the golden SOM files (review the diff before committing)
	$(GO) test ./test/som -run TestGolden -update
