#!/usr/bin/env python3
"""Check validation corpus CSV files (standard library only).

Single-file mode (default), as before:

    python3 check_corpus.py [path/to/corpus.csv]

Checks: exact header; every row parses; time_s finite and > 0; np a
positive integer; nodes empty or a positive integer; rep a positive
integer, unique per (series, np); each series has at least 5 distinct np;
application/problem/machine/source constant within a series.

Prints one line per series: id, number of distinct np, np range, and
whether the minimum time (median over repetitions) lies at an interior np
(speed-up peaks and then falls). Exits non-zero on any failure.

Multi-file mode:

    python3 check_corpus.py --all [FILE ...] [--ref FILE ...]
                            [--min-repos N] [--max-share F]

Every FILE gets the full single-file checks above, and in addition each of
its rows must cite a 40-hex commit in `source` ("@<commit>"). Files given
with --ref (for example the read-only shared corpora, which follow their
own conventions) are only read for series ids and sources. Over all files
together it checks that series ids are unique, that the series come from at
least N repositories (default 25) and that no repository holds more than a
share F of all series (default 0.10). It prints the series count per
repository. A repository is the `github:owner/name` at the start of
`source`, or the host name for a web address.

With --all and no FILE, it checks corpus.csv and corpus_wide.csv next to
this script, with the two shared files
(../../shared/validation/strong_scaling_dev.csv and strong_scaling_more.csv)
as --ref when they exist.
"""
import collections
import csv
import math
import os
import re
import statistics
import sys

HEADER = ["series_id", "application", "problem", "machine", "source",
          "np", "nodes", "time_s", "rep"]
META = ["application", "problem", "machine", "source"]
MIN_COUNTS = 5
COMMIT_RE = re.compile(r"@[0-9a-f]{40}(?![0-9a-f])")


def pos_int(text):
    """Return the positive integer written in text, or None."""
    if text is None or not text.strip().isdigit():
        return None
    value = int(text)
    return value if value > 0 else None


def read_rows(path):
    """Return (header, rows, error) for a CSV file."""
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh, strict=True)
        try:
            header = next(reader)
        except StopIteration:
            return None, [], "empty file"
        try:
            rows = list(reader)
        except csv.Error as exc:
            return header, [], f"CSV parse error: {exc}"
    return header, rows, None


def check_file(path, require_commit=False, label=""):
    """Run the full checks on one file and print one line per series.

    Returns (errors, series, order); series maps id -> {"meta", "times", "reps"}.
    """
    errors = []
    series = {}   # id -> {"meta": {...}, "times": {np: [t, ...]}, "reps": set()}
    order = []
    header, rows, err = read_rows(path)
    if err:
        return [f"{label}{err}"], series, order
    if header != HEADER:
        errors.append(f"{label}header is {header!r}, expected {HEADER!r}")

    for lineno, row in enumerate(rows, start=2):
        if len(row) != len(HEADER):
            errors.append(f"{label}line {lineno}: {len(row)} fields, expected {len(HEADER)}")
            continue
        rec = dict(zip(HEADER, row))
        sid = rec["series_id"]
        if not sid or sid != sid.strip() or sid.lower() != sid or " " in sid:
            errors.append(f"{label}line {lineno}: bad series_id {sid!r}")
        np_ = pos_int(rec["np"])
        if np_ is None:
            errors.append(f"{label}line {lineno}: np {rec['np']!r} is not a positive integer")
        if rec["nodes"] != "" and pos_int(rec["nodes"]) is None:
            errors.append(f"{label}line {lineno}: nodes {rec['nodes']!r} is neither empty nor a positive integer")
        rep = pos_int(rec["rep"])
        if rep is None:
            errors.append(f"{label}line {lineno}: rep {rec['rep']!r} is not a positive integer")
        try:
            t = float(rec["time_s"])
        except ValueError:
            t = None
        if t is None or not math.isfinite(t) or t <= 0:
            errors.append(f"{label}line {lineno}: time_s {rec['time_s']!r} is not a finite number > 0")
            t = None
        for key in META:
            if not rec[key].strip():
                errors.append(f"{label}line {lineno}: empty {key}")
        if require_commit and not COMMIT_RE.search(rec["source"]):
            errors.append(f"{label}line {lineno}: source cites no 40-hex commit ('@<commit>')")

        if sid not in series:
            series[sid] = {"meta": {k: rec[k] for k in META}, "times": {}, "reps": set()}
            order.append(sid)
        s = series[sid]
        for key in META:
            if rec[key] != s["meta"][key]:
                errors.append(f"{label}line {lineno}: {key} differs from the first row of series {sid}")
        if np_ is not None and rep is not None:
            if (np_, rep) in s["reps"]:
                errors.append(f"{label}line {lineno}: duplicate (np={np_}, rep={rep}) in series {sid}")
            s["reps"].add((np_, rep))
        if np_ is not None and t is not None:
            s["times"].setdefault(np_, []).append(t)

    n_peak = 0
    for sid in order:
        times = series[sid]["times"]
        nps = sorted(times)
        if len(nps) < MIN_COUNTS:
            errors.append(f"{label}series {sid}: only {len(nps)} distinct np (need >= {MIN_COUNTS})")
        if not nps:
            continue
        med = {n: statistics.median(times[n]) for n in nps}
        best = min(nps, key=lambda n: med[n])
        interior = nps[0] < best < nps[-1]
        n_peak += interior
        print(f"{sid:46s} counts={len(nps):2d} np={nps[0]}-{nps[-1]:<6d} "
              f"min_at_np={best:<6d} peak_and_fall={'yes' if interior else 'no'}")

    print(f"TOTAL series={len(order)} rows={len(rows)} peak_and_fall={n_peak}")
    return errors, series, order


def repository(source):
    """The repository a source cites: github:owner/name, or a web host."""
    src = source.strip()
    m = re.match(r"github:([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+?)(?:\.git)?(?=[@:\s(]|$)", src)
    if m:
        return "github:" + m.group(1)
    m = re.match(r"(?:https?://)?([A-Za-z0-9.-]+\.[A-Za-z]{2,})(?:[/:\s]|$)", src)
    if m:
        return m.group(1).lower()
    return src.split()[0] if src else "(empty)"


def read_reference(path):
    """Series ids -> source of a reference file (read only, no checks)."""
    header, rows, err = read_rows(path)
    if err:
        return None, err
    if header != HEADER:
        return None, f"header is {header!r}, expected {HEADER!r}"
    out = {}
    for row in rows:
        if len(row) != len(HEADER):
            continue
        rec = dict(zip(HEADER, row))
        out.setdefault(rec["series_id"], rec["source"])
    return out, None


def main_single(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    path = argv[0] if argv else os.path.join(here, "corpus.csv")
    errors, _, _ = check_file(path)
    if errors:
        for e in errors:
            print("FAIL:", e)
        print(f"{len(errors)} problem(s) found")
        return 1
    print("OK")
    return 0


def main_all(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    files, refs = [], []
    min_repos, max_share = 25, 0.10
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--ref":
            i += 1
            refs.append(argv[i])
        elif a == "--min-repos":
            i += 1
            min_repos = int(argv[i])
        elif a == "--max-share":
            i += 1
            max_share = float(argv[i])
        else:
            files.append(a)
        i += 1
    if not files and not refs:
        files = [os.path.join(here, "corpus.csv"), os.path.join(here, "corpus_wide.csv")]
        shared = os.path.join(here, "..", "..", "shared", "validation")
        for name in ("strong_scaling_dev.csv", "strong_scaling_more.csv"):
            p = os.path.normpath(os.path.join(shared, name))
            if os.path.exists(p):
                refs.append(p)

    errors = []
    owner = {}      # series id -> file
    sources = {}    # series id -> source
    per_file = collections.OrderedDict()
    for path in files:
        print(f"== {path}")
        errs, series, order = check_file(path, require_commit=True,
                                         label=f"{os.path.basename(path)}: ")
        errors.extend(errs)
        per_file[path] = order
        for sid in order:
            if sid in owner:
                errors.append(f"series id {sid} is in both {owner[sid]} and {path}")
            else:
                owner[sid] = path
                sources[sid] = series[sid]["meta"]["source"]
    for path in refs:
        got, err = read_reference(path)
        if err:
            errors.append(f"{os.path.basename(path)}: {err}")
            continue
        print(f"== {path} (reference: ids and sources only) series={len(got)}")
        per_file[path] = list(got)
        for sid, src in got.items():
            if sid in owner:
                errors.append(f"series id {sid} is in both {owner[sid]} and {path}")
            else:
                owner[sid] = path
                sources[sid] = src

    total = len(sources)
    counts = collections.Counter(repository(s) for s in sources.values())
    print()
    print(f"ALL FILES series={total} repositories={len(counts)}")
    for path, order in per_file.items():
        print(f"  {len(order):4d}  {path}")
    print("Series per repository:")
    limit = max_share * total
    for repo, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        share = n / total if total else 0.0
        flag = "  OVER LIMIT" if n > limit else ""
        print(f"  {n:4d}  {share:6.1%}  {repo}{flag}")
        if n > limit:
            errors.append(f"repository {repo} holds {n} of {total} series "
                          f"({share:.1%} > {max_share:.0%})")
    if len(counts) < min_repos:
        errors.append(f"only {len(counts)} repositories (need >= {min_repos})")

    if errors:
        for e in errors:
            print("FAIL:", e)
        print(f"{len(errors)} problem(s) found")
        return 1
    print("OK")
    return 0


def main():
    argv = sys.argv[1:]
    if argv and argv[0] == "--all":
        return main_all(argv[1:])
    return main_single(argv)


if __name__ == "__main__":
    sys.exit(main())
