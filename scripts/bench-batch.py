#!/usr/bin/env python3
"""Batch speed of `scalewise speedup` against SciPy (issue 17's target: 100x per data set).

Writes 2,000 six-point speed-up data sets (n = 2..64) drawn from Downey's model with 2 %
noise (numpy's seeded generator, so the sets are the same on every run), then
- fits Downey's model to each with SciPy's bounded least_squares (trust-region reflective,
  bounds A >= 1, sigma >= 0) from 3 starts, keeping the lowest cost;
- runs the whole `scalewise speedup --compact FILE` process on the same 2,000 sets as one
  JSON array, with its defaults (all five models, leave-one-out, ranges, advice);
- in RUNS // 2 paired rounds (scalewise twice, SciPy once, scalewise twice: the machine's
  speed drifts over a SciPy run), prints the median timings, the median of the rounds'
  ratios per data set, and checks that scalewise's Downey squared error is never above
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


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    sets = datasets()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([{"points": [{"n": int(n), "speedup": float(v)} for n, v in zip(NS, y)]} for y in sets], f)
        path = f.name
    try:
        scipy_s, sse_scipy, ours_s, ratios, out = [], None, [], [], None

        def ours():
            nonlocal out
            t = time.perf_counter()
            out = subprocess.run([binary, "speedup", "--compact", path], check=True, capture_output=True).stdout
            return time.perf_counter() - t

        # Paired rounds: the machine's speed drifts over a SciPy run's 15-20 s, so each SciPy
        # run is compared with scalewise's runs just before and just after it.
        for _ in range(max(1, runs // 2)):
            round_ours = [ours() for _ in range(2)]
            t = time.perf_counter()
            sse_scipy = [scipy_fit(y) for y in sets]
            scipy_s.append(time.perf_counter() - t)
            round_ours += [ours() for _ in range(2)]
            ours_s += round_ours
            ratios.append(scipy_s[-1] / statistics.median(round_ours))
    finally:
        os.unlink(path)
    answers = json.loads(out)
    worse = []
    for i, (a, theirs) in enumerate(zip(answers, sse_scipy)):
        mine = next(f["sse"] for f in a["fits"] if f["model"] == "downey")
        if mine > theirs * (1 + 1e-9) + 1e-15:
            worse.append((i, mine, theirs))
    better = sum(1 for a, theirs in zip(answers, sse_scipy)
                 if next(f["sse"] for f in a["fits"] if f["model"] == "downey") < theirs * (1 - 1e-6))
    sp, us = statistics.median(scipy_s), statistics.median(ours_s)
    print(f"batch bench, {SETS} six-point data sets ({os.cpu_count()} cores):")
    print(f"  SciPy least_squares, Downey, 3 starts: median {sp:.2f} s of {len(scipy_s)} runs, "
          f"{sp / SETS * 1e6:.0f} µs per data set")
    print(f"  scalewise speedup (whole process, defaults: 5 models, leave-one-out): median {us:.3f} s "
          f"of {len(ours_s)} runs, {us / SETS * 1e6:.1f} µs per data set, {SETS / us:.0f} data sets per second")
    print(f"  ratio: {statistics.median(ratios):.1f}x per data set, the median of {len(ratios)} paired rounds "
          f"({', '.join(f'{r:.1f}x' for r in ratios)}; target 100x)")
    print(f"  Downey squared error: below SciPy's by > 1e-6 in {better} sets, above it in {len(worse)}")
    for i, mine, theirs in worse[:5]:
        print(f"    set {i}: scalewise {mine:.6g}, SciPy {theirs:.6g}")
    sys.exit(1 if worse else 0)


if __name__ == "__main__":
    main()
