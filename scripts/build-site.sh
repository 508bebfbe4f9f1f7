#!/usr/bin/env bash
# Builds the static site into dist/: one HTML entry per page set, each with its own wasm, so
# a page loads only its own calculator (see ui::Site). trunk builds each entry into its own
# directory under target/site/, then the entries are gathered into dist/. Called by
# `make dist`, `make serve` and scripts/test.sh, with the tools of scripts/setup.sh on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

# The HTML entries at the root: index.html and one per calculator (model::calculators;
# tests/calculators.rs checks each has its entry).
ENTRIES=(*.html)

# Panic locations name each dependency's file by its path in cargo's registry (about 60
# characters of prefix each, some fifty of them a page). They are cut to the crate's own
# path, so a page's size does not depend on where CARGO_HOME is (and is about 170 bytes
# gzipped smaller). The standard library's paths (/rustc/<commit>/library/...) come
# compiled and are not cut this way. The variable replaces the config's rustflags for
# wasm32, so those come along.
REMAP="--cfg=web_sys_unstable_apis"
for dir in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
    [[ -d "$dir" && "$dir" != *" "* ]] && REMAP+=" --remap-path-prefix=$dir="
done
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$REMAP"

# The first entry alone compiles the dependencies of both wasm profiles; the rest build two at
# a time (cargo takes its lock on the target folder in turn, and one entry's wasm-bindgen and
# wasm-opt, one thread each for the most part, run beside the next one's compiling). Each
# entry's output goes to target/site/<name>.log, shown when it fails.
rm -rf target/site dist.new
mkdir -p target/site
build() {
    local entry="$1" name="${1%.html}"
    shift
    echo "-- $entry"
    if ! trunk build "$entry" --release --dist "target/site/$name" --html-output "$entry" "$@" > "target/site/$name.log" 2>&1; then
        cat "target/site/$name.log"
        echo "trunk build $entry failed" >&2
        return 1
    fi
}
build "${ENTRIES[0]}" "$@"
pids=()
for entry in "${ENTRIES[@]:1}"; do
    if (( ${#pids[@]} >= 2 )); then
        wait "${pids[0]}"
        pids=("${pids[@]:1}")
    fi
    build "$entry" "$@" &
    pids+=($!)
done
for pid in "${pids[@]}"; do
    wait "$pid"
done
mkdir -p dist.new
for entry in "${ENTRIES[@]}"; do
    cp -p "target/site/${entry%.html}"/* dist.new/
done
# The site's own scripts, manifest and icons, and the service worker with this build's files.
node scripts/offline.mjs dist.new
rm -rf dist
mv dist.new dist
ls -l dist
