#!/usr/bin/env bash
# Every test: native model, CLI and purity checks; the release build; its gzipped size;
# the browser tests against that build served on 127.0.0.1. Called by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

echo "== native tests (model, CLI, purity of src/model)"
cargo test --locked

echo "== scripts/forecast-limits.py reads the forecast as the calculator does (make forecast-limits)"
python3 scripts/forecast-limits.py check --scalewise target/debug/scalewise

echo "== the page code type-checked for wasm (cargo check; cargo test compiles only the native side)"
cargo check --locked --target wasm32-unknown-unknown --lib --bins

echo "== release build of every page (trunk, offline)"
scripts/build-site.sh

echo "== browser tests (Debian Chromium via playwright-core)"
rm -rf test-output && mkdir -p test-output
node --test --test-reporter=spec tests/browser/*.test.mjs
