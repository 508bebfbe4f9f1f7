#!/usr/bin/env bash
# Writes sets of runs of each profiler at 1×, 10× and 100× a typical study, for timing the
# command on them (`farm-bench -- target/release/scalewise bottlenecks DIR --compact`):
#
#   scripts/profile-sets.sh OUT
#
# OUT/tau-N: a TAU study of 5·N runs made of Hatchet's four cpi ranks (tests/data/tau-cpi-mpi):
#   cpi.p1 … cpi.p4 (the first p ranks) and cpi.p4 again, N repetitions of each point.
# OUT/cali-N: Thicket's five LULESH .cali runs (tests/data/cali/mpi_scaling_cali), N times
#   each, one folder a copy.
# OUT/hpctoolkit-N: N runs, each Hatchet's allgather database (10 ranks × 2 threads, 1,944
#   nodes), in folders allgather.p10.rK.
# OUT/json-N: N copies of Hatchet's LULESH Caliper JSON profile (8 ranks), one file a run.
set -euo pipefail
out=${1:?usage: scripts/profile-sets.sh OUT}
data="$(cd "$(dirname "$0")/.." && pwd)/tests/data"
for n in 1 10 100; do
    d="$out/tau-$n"
    rm -rf "$d"
    for r in $(seq 1 "$n"); do
        for p in 1 2 3 4; do
            mkdir -p "$d/cpi.p$p.r$r"
            for k in $(seq 0 $((p - 1))); do cp "$data/tau-cpi-mpi/profile.$k.0.0" "$d/cpi.p$p.r$r/"; done
        done
        mkdir -p "$d/cpi.p4.r$((n + r))"
        cp "$data"/tau-cpi-mpi/profile.*.0.0 "$d/cpi.p4.r$((n + r))/"
    done
    d="$out/cali-$n"
    rm -rf "$d"
    for r in $(seq 1 "$n"); do
        mkdir -p "$d/copy$r"
        cp "$data"/cali/mpi_scaling_cali/*.cali "$d/copy$r/"
    done
    d="$out/hpctoolkit-$n"
    rm -rf "$d"
    for r in $(seq 1 "$n"); do
        mkdir -p "$d/allgather.p10.r$r"
        cp "$data"/hpctoolkit/hpctoolkit-allgather-database/{experiment.xml,*.metric-db} "$d/allgather.p10.r$r/"
    done
    d="$out/json-$n"
    rm -rf "$d"
    mkdir -p "$d"
    for r in $(seq 1 "$n"); do cp "$data/caliper-json/lulesh-annotation-profile.json" "$d/lulesh-$r.json"; done
done
du -sh "$out"/* | sort -k2
