#!/usr/bin/env bash
# `make fuzz`: runs every fuzz target (fuzz/fuzz_targets, one per check of src/fuzzing.rs)
# for FUZZ_SECONDS each (default 60) with libFuzzer's limits: 1 s per input, 1 GB of memory.
# Each target starts from its committed corpus (fuzz/corpus/<target>, read only) and keeps
# what it finds in target/fuzz-corpus/<target>. Prints executions, coverage (features) and
# findings per target; findings are in fuzz/artifacts/<target>/. A fixed finding is committed
# as fuzz/regressions/<target>/<name>, which `cargo test` replays on stable.
# FUZZ_MERGE=1 then merges what the campaign found into the committed corpus (only inputs that
# add coverage, and none over 4 KB, so that the replay in `cargo test` stays in seconds).
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
parallel=()
((jobs > 1)) && parallel=(-jobs="$jobs" -workers="$jobs")
targets=${FUZZ_TARGETS:-$(ls fuzz/fuzz_targets | sed 's/\.rs$//')}
# Optimised, with debug assertions and overflow checks (-a: an overflow is a finding). Safe
# Rust needs no address sanitizer; without it the targets run several times faster.
(cd fuzz && cargo +nightly fuzz build -O -a --sanitizer none >/dev/null) || exit 1
mkdir -p target/fuzz-logs
printf '%-16s %14s %10s %9s\n' target executions features findings
total=0; found=0
for t in $targets; do
    mkdir -p "target/fuzz-corpus/$t"
    before=$(ls "fuzz/artifacts/$t" 2>/dev/null | wc -l)
    (cd fuzz && cargo +nightly fuzz run -O -a --sanitizer none "$t" "../target/fuzz-corpus/$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout=1 -rss_limit_mb=1024 -dict=dict/scalewise.dict \
        "${parallel[@]}" -print_final_stats=1 -close_fd_mask=3) \
        > "target/fuzz-logs/$t.log" 2>&1
    after=$(ls "fuzz/artifacts/$t" 2>/dev/null | wc -l)
    execs=$(grep -h 'stat::number_of_executed_units' "target/fuzz-logs/$t.log" fuzz/fuzz-*.log 2>/dev/null | awk '{s+=$2} END {print s+0}')
    feats=$(grep -ho 'ft: [0-9]*' "target/fuzz-logs/$t.log" fuzz/fuzz-*.log 2>/dev/null | awk '{print $2}' | sort -n | tail -1)
    rm -f fuzz/fuzz-*.log
    printf '%-16s %14s %10s %9s\n' "$t" "$execs" "${feats:-0}" "$((after - before))"
    total=$((total + execs)); found=$((found + after - before))
done
printf '%-16s %14s %10s %9s\n' total "$total" "" "$found"
if [[ "${FUZZ_MERGE:-0}" == 1 ]]; then
    for t in $targets; do
        (cd fuzz && cargo +nightly fuzz run -O -a --sanitizer none "$t" "corpus/$t" "../target/fuzz-corpus/$t" -- \
            -merge=1 -timeout=5 -rss_limit_mb=2048) > "target/fuzz-logs/$t-merge.log" 2>&1
        find "fuzz/corpus/$t" -type f ! -name 'seed-*' -size +4k -delete
    done
    echo "merged: $(find fuzz/corpus -type f | wc -l) corpus files"
fi
[[ $found -eq 0 ]]
