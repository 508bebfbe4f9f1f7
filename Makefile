# scalewise: `make serve` builds the site and serves it at http://127.0.0.1:8080;
# `make test` runs every test; `make dist` writes the static site to dist/.
# Each first runs scripts/setup.sh, which installs whatever is missing.
SHELL := bash
CARGO_BIN := $(if $(CARGO_HOME),$(CARGO_HOME),$(HOME)/.cargo)/bin
export PATH := $(CURDIR)/node_modules/.bin:$(CARGO_BIN):$(PATH)

.PHONY: setup serve dist test cli bench validate validate-extrap forecast-limits fuzz

setup:
	@scripts/setup.sh

serve: dist
	python3 -m http.server 8080 --bind 127.0.0.1 --directory dist

dist: setup
	@scripts/build-site.sh

# The native command-line tool, installed into ~/.cargo/bin.
cli:
	cargo install --path . --locked

# First the formatting (rustfmt.toml), then clippy, silent when clean and failing on any warning: natively every target, and for
# wasm32 the library and every page's binary (`worker` includes `pages`, as trunk builds them).
test: setup
	@cargo fmt --check || { echo "cargo fmt --check: run cargo fmt (rustfmt.toml)"; exit 1; }
	@cargo clippy --quiet --all-targets --locked -- -D warnings
	@cargo clippy --quiet --lib --bins --target wasm32-unknown-unknown --features worker --locked -- -D warnings
	@scripts/test.sh

# Native timings of every calculator (tests/bench_*.rs, ignored by `cargo test`); how each
# input path of the command grows at 1x, 10x and 100x (scripts/bench-growth.py); the
# browser's speed-up fits per second, Extra-P regions per second and the simulator's messages
# per second in the pages' workers (also printed by `make test`); then the batch comparison with SciPy (scripts/bench-batch.py;
# numpy and SciPy in .venv-bench/).
bench: setup
	cargo test --release $(patsubst tests/%.rs,--test %,$(wildcard tests/bench_*.rs)) -- --ignored --nocapture --test-threads=1
	cargo build --release --locked --quiet
	python3 scripts/bench-growth.py --scalewise target/release/scalewise
	cargo build --locked --quiet
	scripts/build-site.sh > /dev/null
	@mkdir -p test-output
	node --test --test-name-pattern="speed in the browser|2,000 regions" tests/browser/speedup.test.mjs tests/browser/extrap.test.mjs tests/browser/simulate.test.mjs > test-output/bench-browser.log 2>&1 || { cat test-output/bench-browser.log; exit 1; }
	@grep "^# browser:" test-output/bench-browser.log
	@scripts/setup.sh --bench
	cargo build --release --locked --quiet
	.venv-bench/bin/python scripts/bench-batch.py target/release/scalewise 5
	@scripts/setup-extrap.sh
	python3 scripts/bench-cube.py --scalewise target/release/scalewise --extrap .venv-extrap/bin/extrap --repeat 5

# Measured accuracy of the speed-up predictions on real scaling data (validation/ and, when
# present, ../shared/validation/): prints the table and rewrites VALIDATION.md.
# It also rewrites src/model/fit/calibration.rs, the ranges' quantiles measured there, and
# src/model/transfer/calibration.rs, the transfer ranges' quantiles measured on the pairs of
# validation/transfer_pairs.csv, whose section ("The same job on another machine") ends the file.
validate: setup
	cargo run --release --locked --quiet -- validate --calibration > src/model/fit/calibration.rs.new
	mv src/model/fit/calibration.rs.new src/model/fit/calibration.rs
	cargo run --release --locked --quiet -- validate --transfer --calibration > src/model/transfer/calibration.rs.new
	mv src/model/transfer/calibration.rs.new src/model/transfer/calibration.rs
	cargo run --release --locked --quiet -- validate --markdown > VALIDATION.md
	@cat VALIDATION.md
	@$(MAKE) --no-print-directory validate-extrap
	{ echo; cat target/extrap-validation.md; } >> VALIDATION.md
	@cat target/extrap-validation.md
	cargo run --release --locked --quiet -- validate --transfer --markdown > target/transfer-validation.md.new
	mv target/transfer-validation.md.new target/transfer-validation.md
	cat target/transfer-validation.md >> VALIDATION.md
	@cat target/transfer-validation.md

# How far other forecast families get on the validation corpora (issue 31's targets): the
# forecast slowed by the horizon, corrections and analogs learned on held-out sources. About
# 2 minutes; prints Markdown tables (scripts/forecast-limits.py).
forecast-limits: setup
	cargo build --release --locked --quiet
	python3 scripts/forecast-limits.py all --scalewise target/release/scalewise

# The bottlenecks command against Extra-P 4.2.5 (.venv-extrap/, scripts/setup-extrap.sh) on
# generated experiments with known truth, on Extra-P's own test files with the largest
# process count held out, and on real multi-parameter experiments with the largest value of
# every parameter held out (scripts/extrap-real.py): one Markdown section in
# target/extrap-validation.md, which `make validate` appends to VALIDATION.md.
validate-extrap:
	@scripts/setup-extrap.sh
	cargo build --release --locked --quiet
	@mkdir -p target
	python3 scripts/extrap-compare.py --scalewise target/release/scalewise --out-dir target/extrap-compare \
		--markdown-section > target/extrap-validation.md.new
	python3 scripts/extrap-real.py --scalewise target/release/scalewise >> target/extrap-validation.md.new
	mv target/extrap-validation.md.new target/extrap-validation.md

# Coverage-guided fuzzing of every place text enters the model (nightly Rust and cargo-fuzz,
# which `scripts/setup.sh --fuzz` installs; `make test` replays the committed corpora on
# stable instead). FUZZ_SECONDS per target (default 60), FUZZ_TARGETS to choose some.
fuzz:
	@scripts/setup.sh --fuzz
	@scripts/fuzz.sh
