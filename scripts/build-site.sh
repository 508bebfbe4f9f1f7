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

rm -rf target/site dist.new
for entry in "${ENTRIES[@]}"; do
    name="${entry%.html}"
    echo "-- $entry"
    trunk build "$entry" --release --dist "target/site/$name" --html-output "$entry" "$@"
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
