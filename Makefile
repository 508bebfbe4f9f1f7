# scalewise: `make serve` builds and serves the app at http://127.0.0.1:8080;
# `make test` runs every test; `make dist` writes a static site to dist/.
# Each first runs scripts/setup.sh, which installs whatever is missing.
SHELL := bash
CARGO_BIN := $(if $(CARGO_HOME),$(CARGO_HOME),$(HOME)/.cargo)/bin
export PATH := $(CURDIR)/node_modules/.bin:$(CARGO_BIN):$(PATH)

.PHONY: setup serve dist test cli bench

setup:
	@scripts/setup.sh

serve: setup
	trunk serve --release

dist: setup
	trunk build --release

# The native command-line tool, installed into ~/.cargo/bin.
cli:
	cargo install --path . --locked

test: setup
	@scripts/test.sh

bench: setup
	cargo test --release --test bench_planner -- --ignored --nocapture
