#!/usr/bin/env python3
"""Check validation/corpus.csv (standard library only).

Checks: exact header; every row parses; time_s finite and > 0; np a
positive integer; nodes empty or a positive integer; rep a positive
integer, unique per (series, np); each series has at least 5 distinct np;
application/problem/machine/source constant within a series.

Prints one line per series: id, number of distinct np, np range, and
whether the minimum time (median over repetitions) lies at an interior np
(speed-up peaks and then falls). Exits non-zero on any failure.

Usage: python3 check_corpus.py [path/to/corpus.csv]
"""
import csv
import math
import os
import statistics
import sys

HEADER = ["series_id", "application", "problem", "machine", "source",
          "np", "nodes", "time_s", "rep"]
META = ["application", "problem", "machine", "source"]
MIN_COUNTS = 5


def pos_int(text):
    """Return the positive integer written in text, or None."""
    if text is None or not text.strip().isdigit():
        return None
    value = int(text)
    return value if value > 0 else None


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus.csv")
    errors = []
    series = {}   # id -> {"meta": {...}, "times": {np: [t, ...]}, "reps": set()}
    order = []

    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh, strict=True)
        try:
            header = next(reader)
        except StopIteration:
            print("FAIL: empty file")
            return 1
        if header != HEADER:
            errors.append(f"header is {header!r}, expected {HEADER!r}")
        try:
            rows = list(reader)
        except csv.Error as exc:
            print(f"FAIL: CSV parse error: {exc}")
            return 1

    for lineno, row in enumerate(rows, start=2):
        if len(row) != len(HEADER):
            errors.append(f"line {lineno}: {len(row)} fields, expected {len(HEADER)}")
            continue
        rec = dict(zip(HEADER, row))
        sid = rec["series_id"]
        if not sid or sid != sid.strip() or sid.lower() != sid or " " in sid:
            errors.append(f"line {lineno}: bad series_id {sid!r}")
        np_ = pos_int(rec["np"])
        if np_ is None:
            errors.append(f"line {lineno}: np {rec['np']!r} is not a positive integer")
        if rec["nodes"] != "" and pos_int(rec["nodes"]) is None:
            errors.append(f"line {lineno}: nodes {rec['nodes']!r} is neither empty nor a positive integer")
        rep = pos_int(rec["rep"])
        if rep is None:
            errors.append(f"line {lineno}: rep {rec['rep']!r} is not a positive integer")
        try:
            t = float(rec["time_s"])
        except ValueError:
            t = None
        if t is None or not math.isfinite(t) or t <= 0:
            errors.append(f"line {lineno}: time_s {rec['time_s']!r} is not a finite number > 0")
            t = None
        for key in META:
            if not rec[key].strip():
                errors.append(f"line {lineno}: empty {key}")

        if sid not in series:
            series[sid] = {"meta": {k: rec[k] for k in META}, "times": {}, "reps": set()}
            order.append(sid)
        s = series[sid]
        for key in META:
            if rec[key] != s["meta"][key]:
                errors.append(f"line {lineno}: {key} differs from the first row of series {sid}")
        if np_ is not None and rep is not None:
            if (np_, rep) in s["reps"]:
                errors.append(f"line {lineno}: duplicate (np={np_}, rep={rep}) in series {sid}")
            s["reps"].add((np_, rep))
        if np_ is not None and t is not None:
            s["times"].setdefault(np_, []).append(t)

    n_rows = len(rows)
    n_peak = 0
    for sid in order:
        times = series[sid]["times"]
        nps = sorted(times)
        if len(nps) < MIN_COUNTS:
            errors.append(f"series {sid}: only {len(nps)} distinct np (need >= {MIN_COUNTS})")
        if not nps:
            continue
        med = {n: statistics.median(times[n]) for n in nps}
        best = min(nps, key=lambda n: med[n])
        interior = nps[0] < best < nps[-1]
        n_peak += interior
        print(f"{sid:46s} counts={len(nps):2d} np={nps[0]}-{nps[-1]:<6d} "
              f"min_at_np={best:<6d} peak_and_fall={'yes' if interior else 'no'}")

    print(f"TOTAL series={len(order)} rows={n_rows} peak_and_fall={n_peak}")
    if errors:
        for e in errors:
            print("FAIL:", e)
        print(f"{len(errors)} problem(s) found")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
