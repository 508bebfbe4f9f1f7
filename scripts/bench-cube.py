#!/usr/bin/env python3
"""Score-P runs (Cube 4 profiles) read and modelled: `scalewise bottlenecks DIR` against Extra-P
4.2.5's command-line tool `extrap --cube DIR`, on Extra-P's own cube sets
tests/data/extrap-upstream/cubeset/multi_parameter (27 runs, parameters x, y, z) and
single_parameter (9 runs, x). Both read every profile and print models; their output is
discarded. The two commands are timed alternately (paired: scalewise, then Extra-P, REPEAT
times, after one warm-up of each), wall time from start to exit, and the medians and their
ratio are printed as a Markdown table, with the
median CPU time (user + system, of the process and its children) of each. The issue's target: at least 50x on multi_parameter.

What each does is not the same work: Extra-P models every metric with data (7 metrics x 4 call
paths on these sets, its default modeler), scalewise the time metric's 4 call paths (with its
own model search, leave-one-out scoring, rankings and ranges). Both start a process per run:
Extra-P's start-up (Python, numpy, scipy imports) is part of its time as it is for a user.

Usage (standard library only):
  scripts/bench-cube.py --scalewise target/release/scalewise --extrap .venv-extrap/bin/extrap [--repeat 5]
`make bench` runs it after scripts/setup-extrap.sh.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CUBESET = os.path.join(ROOT, "tests", "data", "extrap-upstream", "cubeset")
SETS = ["multi_parameter", "single_parameter"]
TARGET = 50.0


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd):
    """(wall seconds from start to exit, CPU seconds user + system) of cmd, its output
    discarded; exits if it fails. CPU time is the steadier figure on a loaded machine."""
    cpu0 = cpu_of_children()
    started = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    cpu = cpu_of_children() - cpu0
    if proc.returncode != 0:
        sys.exit(f"bench-cube: {' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-500:]}")
    return elapsed, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scalewise", default=os.path.join(ROOT, "target", "release", "scalewise"))
    ap.add_argument("--extrap", default=os.path.join(ROOT, ".venv-extrap", "bin", "extrap"), help="the extrap console script of a venv with extrap 4.2.5")
    ap.add_argument("--repeat", type=int, default=5, help="paired runs per set (default 5)")
    ap.add_argument("repeat_pos", nargs="?", type=int, help="the repeat count, given without --repeat")
    args = ap.parse_args()
    repeat = args.repeat_pos or args.repeat
    if repeat < 1:
        sys.exit("bench-cube: the repeat count must be at least 1")
    for exe in (args.scalewise, args.extrap):
        if not os.access(exe, os.X_OK):
            sys.exit(f"bench-cube: {exe} is not an executable (build scalewise with cargo build --release; Extra-P: scripts/setup-extrap.sh)")

    rows = []
    for name in SETS:
        path = os.path.join(CUBESET, name)
        runs = sum(1 for d in os.listdir(path) if os.path.isdir(os.path.join(path, d)))
        ours_cmd = [args.scalewise, "bottlenecks", path, "--compact"]
        theirs_cmd = [args.extrap, "--cube", path]
        timed(ours_cmd)
        timed(theirs_cmd)
        ours, theirs = [], []
        for _ in range(repeat):
            ours.append(timed(ours_cmd))
            theirs.append(timed(theirs_cmd))
        m_ours, m_theirs = statistics.median(w for w, _ in ours), statistics.median(w for w, _ in theirs)
        ratios = [t[0] / o[0] for o, t in zip(ours, theirs)]
        c_ours, c_theirs = statistics.median(c for _, c in ours), statistics.median(c for _, c in theirs)
        rows.append((name, runs, m_ours, m_theirs, m_theirs / m_ours, min(ratios), max(ratios), c_ours, c_theirs))

    print(f"### Score-P runs: scalewise bottlenecks against extrap --cube (median of {repeat}, paired)\n")
    print("| cube set | runs | scalewise (s) | Extra-P 4.2.5 (s) | ratio | paired ratios (min–max) | CPU scalewise (s) | CPU Extra-P (s) | CPU ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, runs, o, t, r, lo, hi, co, ct in rows:
        cpu_ratio = f"{ct / co:.0f}×" if co > 0 else "–"
        print(f"| {name} | {runs} | {o:.4f} | {t:.3f} | {r:.0f}× | {lo:.0f}–{hi:.0f}× | {co:.3f} | {ct:.2f} | {cpu_ratio} |")
    multi = rows[0][4]
    verdict = "meets" if multi >= TARGET else "misses"
    print(f"\nmulti_parameter: {multi:.0f}× ({verdict} the {TARGET:.0f}× target)")


if __name__ == "__main__":
    main()
