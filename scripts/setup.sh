#!/usr/bin/env bash
# Installs everything scalewise needs to build, serve and test, on a fresh Debian machine
# with rustup, node and npm. Idempotent: each step checks first and takes well under a
# second when its tool is already there. Only crates.io, npm and Debian are used.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# 1. Rust target for the browser build, and clippy and rustfmt (`make test` runs both).
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if ! cargo clippy --version >/dev/null 2>&1; then
  say "adding clippy"
  rustup component add clippy
fi
if ! cargo fmt --version >/dev/null 2>&1; then
  say "adding rustfmt"
  rustup component add rustfmt
fi

# 2. trunk (0.22 needs a newer rustc; 0.21.14 builds here). Without default features it
#    cannot download tools, which is what we want: they come from steps 3 and 5.
if [[ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]]; then
  say "installing trunk $TRUNK_VERSION (unoptimised: it only runs the other tools; a few minutes the first time)"
  cargo install trunk --locked --version "$TRUNK_VERSION" --no-default-features --debug
fi

# 3. wasm-bindgen-cli at exactly the version Cargo.lock resolves (they must match).
WBG_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [[ -z "$WBG_VERSION" ]]; then echo "setup: no wasm-bindgen in Cargo.lock" >&2; exit 1; fi
if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WBG_VERSION" ]]; then
  say "installing wasm-bindgen-cli $WBG_VERSION (a few minutes the first time)"
  # Not --locked: its lockfile names a crate version the registry no longer has. Built at
  # opt-level 1 without LTO: a fraction of the release build's time, and it still rewrites a
  # page's wasm in well under a second.
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install wasm-bindgen-cli --version "$WBG_VERSION" --force
fi

# 4. Chromium and its driver from Debian, for the browser tests.
if ! { have chromium && have chromedriver; }; then
  say "installing chromium and chromium-driver from Debian"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# 4b. Python 3 (standard library only) for scripts/forecast-limits.py, whose check runs in
#     `make test`.
if ! have python3; then
  say "installing python3 from Debian"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3 >/dev/null
fi

# 5. npm packages: playwright-core (drives the Debian Chromium; never downloads a browser),
#    binaryen, whose wasm-opt reads current wasm-bindgen output (Debian's is too old),
#    axe-core, the accessibility checker the browser tests inject into every page, and terser,
#    which minifies the scripts after trunk (scripts/offline.mjs).
if [[ ! -x node_modules/.bin/wasm-opt || ! -d node_modules/playwright-core || ! -f node_modules/axe-core/axe.min.js || ! -d node_modules/terser \
      || package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm packages (playwright-core, binaryen, axe-core, terser)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi

# 6. Every crate in the lockfile, so trunk's offline build finds them.
if [[ ! -f target/.fetched || Cargo.lock -nt target/.fetched ]]; then
  say "fetching crates"
  cargo fetch --locked
  mkdir -p target && touch target/.fetched
fi

# 7. Only for `make fuzz` (`setup.sh --fuzz`): nightly Rust and cargo-fuzz.
if [[ "${1:-}" == "--fuzz" ]]; then
  if ! rustup toolchain list | grep -q '^nightly'; then
    say "installing the nightly toolchain (for cargo-fuzz)"
    rustup toolchain install nightly --profile minimal
  fi
  if ! have cargo-fuzz; then
    say "installing cargo-fuzz"
    cargo install cargo-fuzz --locked
  fi
fi

# 8. Only for `make bench` (`setup.sh --bench`): numpy and SciPy in .venv-bench/, for the batch
# comparison of scripts/bench-batch.py.
if [[ "${1:-}" == "--bench" ]]; then
  if ! .venv-bench/bin/python -c "import numpy, scipy" 2>/dev/null; then
    say "installing numpy and scipy into .venv-bench (for make bench)"
    python3 -m venv .venv-bench
    .venv-bench/bin/pip install --quiet numpy scipy
  fi
fi
