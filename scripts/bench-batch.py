#!/usr/bin/env python3
"""Batch speed of `scalewise speedup` against SciPy (issue 17's target: 100x per data set with
the defaults; issue 47's: 300x per fit).

Writes 2,000 six-point speed-up data sets (n = 2..64) drawn from Downey's model with 2 %
noise (numpy's seeded generator, so the sets are the same on every run), then
- fits Downey's model to each with SciPy's bounded least_squares (trust-region reflective,
  bounds A >= 1, sigma >= 0) from 3 starts, keeping the lowest cost;
- runs the whole `scalewise speedup --compact FILE` process on the same 2,000 sets as one
  JSON array, once per request of VARIANTS: its defaults (all five models, leave-one-out,
  ranges, advice), without the leave-one-out refits, Downey's model alone with and without
  them; the last is SciPy's task, the per-fit comparison (issue 47: 300x);
- in RUNS paired rounds (scalewise twice, SciPy once, scalewise twice: the machine's
  speed drifts over a SciPy run), prints the median timings, the median of the RUNS rounds'
  ratios per data set (at least 5 rounds, whatever RUNS says), and checks that scalewise's Downey squared error is never above
  SciPy's (1e-9 relative tolerance).

Usage: bench-batch.py SCALEWISE_BINARY [RUNS]   (make bench runs it; needs numpy and scipy,
which `scripts/setup.sh --bench` installs into .venv-bench/).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.optimize import least_squares

NS = np.array([2.0, 4.0, 8.0, 16.0, 32.0, 64.0])
SETS = 2000


def downey(a, s, n):
    """Downey's speed-up (Downey 1997; seed 004 eqs. 3.5 and 3.7), vectorised over n."""
    if s <= 1.0:
        return np.where(n <= a, a * n / (a + s / 2 * (n - 1)),
                        np.where(n <= 2 * a - 1, a * n / (s * (a - 0.5) + n * (1 - s / 2)), a))
    return np.where(n <= a + a * s - s, n * a * (s + 1) / (s * (n + a - 1) + a), a)


def datasets():
    rng = np.random.default_rng(17)
    out = []
    for _ in range(SETS):
        a = 10 ** rng.uniform(0.5, 3.0)
        s = 10 ** rng.uniform(-2.0, 0.7)
        out.append(downey(a, s, NS) * (1 + 0.02 * rng.standard_normal(len(NS))))
    return out


def scipy_fit(y):
    smax = float(y.max())
    best = None
    for x0 in ([smax, 0.0], [smax, 1.2], [2 * smax, 0.6]):
        r = least_squares(lambda p: y - downey(p[0], p[1], NS), x0, bounds=([1.0, 0.0], [1e7, 1e4]))
        if best is None or r.cost < best.cost:
            best = r
    return 2 * best.cost  # least_squares' cost is half the squared error


# The requests timed, each on the same 2,000 sets: what each optional part costs. The last is
# SciPy's task (Downey's model alone, no refits): the per-fit ratio.
VARIANTS = [
    ("defaults: 5 models, leave-one-out", {}),
    ("5 models, no leave-one-out", {"leave_one_out": False}),
    ("Downey alone, leave-one-out", {"models": ["downey"]}),
    ("Downey alone, no leave-one-out (SciPy's task)", {"models": ["downey"], "leave_one_out": False}),
]


def main():
    binary = sys.argv[1]
    runs = max(5, int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    sets = datasets()
    paths = []
    for _, extra in VARIANTS:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump([{"points": [{"n": int(n), "speedup": float(v)} for n, v in zip(NS, y)], **extra} for y in sets], f)
            paths.append(f.name)
    try:
        scipy_s, sse_scipy = [], None
        ours_s = [[] for _ in VARIANTS]
        ratios = [[] for _ in VARIANTS]
        outs = [None for _ in VARIANTS]

        def ours(v):
            t = time.perf_counter()
            outs[v] = subprocess.run([binary, "speedup", "--compact", paths[v]], check=True, capture_output=True).stdout
            return time.perf_counter() - t

        # Paired rounds: the machine's speed drifts over a SciPy run's 15-20 s, so each SciPy
        # run is compared with scalewise's runs just before and just after it.
        for _ in range(runs):
            before = [[ours(v) for _ in range(2)] for v in range(len(VARIANTS))]
            t = time.perf_counter()
            sse_scipy = [scipy_fit(y) for y in sets]
            scipy_s.append(time.perf_counter() - t)
            for v in range(len(VARIANTS)):
                round_ours = before[v] + [ours(v) for _ in range(2)]
                ours_s[v] += round_ours
                ratios[v].append(scipy_s[-1] / statistics.median(round_ours))
    finally:
        for p in paths:
            os.unlink(p)
    sp = statistics.median(scipy_s)
    print(f"batch bench, {SETS} six-point data sets ({os.cpu_count()} cores):")
    print(f"  SciPy least_squares, Downey, 3 starts: median {sp:.2f} s of {len(scipy_s)} runs, "
          f"{sp / SETS * 1e6:.0f} µs per data set")
    worse = []
    for v, (label, _) in enumerate(VARIANTS):
        us = statistics.median(ours_s[v])
        print(f"  scalewise speedup, {label} (whole process): median {us:.3f} s of {len(ours_s[v])} runs, "
              f"{us / SETS * 1e6:.1f} µs per data set, {SETS / us:.0f} data sets per second; "
              f"{statistics.median(ratios[v]):.1f}x SciPy per data set, the median of {len(ratios[v])} paired rounds "
              f"({', '.join(f'{r:.1f}x' for r in ratios[v])})")
        answers = json.loads(outs[v])
        mine = [next(f["sse"] for f in a["fits"] if f["model"] == "downey") for a in answers]
        bad = [(i, m, t) for i, (m, t) in enumerate(zip(mine, sse_scipy)) if m > t * (1 + 1e-9) + 1e-15]
        better = sum(1 for m, t in zip(mine, sse_scipy) if m < t * (1 - 1e-6))
        print(f"    Downey squared error: below SciPy's by > 1e-6 in {better} sets, above it in {len(bad)}")
        for i, m, t in bad[:5]:
            print(f"    set {i}: scalewise {m:.6g}, SciPy {t:.6g}")
        worse += bad
    print(f"  per fit (SciPy's task): {statistics.median(ratios[-1]):.1f}x SciPy; target 300x")
    sys.exit(1 if worse else 0)


if __name__ == "__main__":
    main()
