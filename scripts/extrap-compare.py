#!/usr/bin/env python3
"""Measures scalewise against Extra-P 4.2.5 on experiments with known truth, and prints
Markdown tables to stdout.

    scripts/setup-extrap.sh                       # once: Extra-P 4.2.5 into .venv-extrap/
    cargo build --release --locked
    scripts/extrap-compare.py [--scalewise PATH] [--out-dir DIR] [--seed N] [--json FILE]
                              [--no-census] [--no-held-out] [--markdown-section]

(Run with any python3: without Extra-P importable it re-runs itself under .venv-extrap.)

1. scripts/extrap-generate.py writes 12 single-parameter and 4 two-parameter experiments
   (Extra-P text format) with a truth file each into --out-dir (default: a new temp dir).
2. For every experiment both tools predict each region's time at A and B:
   - single parameter: A = 4x, B = 16x the largest measured p;
     scalewise: `scalewise bottlenecks FILE --predict A,B --compact`, regions[].predictions[].time_s;
   - two parameters (p, n): A = (4x p, 2x n), B = (16x p, 4x n);
     scalewise: `scalewise bottlenecks FILE --predict pA:nA,pB:nB --compact`; a refusal
     (exit status not 0) counts every region as missing. Accepted answers are matched by
     predictions[].point ({"p": .., "n": ..} or [p, n]), else by predictions[].n with .side
     (or the region's side) as n;
   - Extra-P: TextFileReader().read_experiment(FILE); ModelGenerator(experiment) (its
     "Default" modeler: Basic single-parameter modeler, or the Multi-Parameter modeler);
     model_all(); models[(callpath, metric "time")].hypothesis.function.evaluate(p) or
     .evaluate([p, n]). A second Extra-P column ("Extra-P -exp") sets the modeler option
     allow_negative_exponents = True (for two parameters: on its single_parameter_modeler),
     the option Extra-P offers for strong scaling; the default search space has only
     non-negative exponents of p.
3. Per region: relative error |pred - true| / true; per class the median and 90th percentile
   (linear interpolation), the number of regions without a prediction ("miss") and of
   predictions at or below zero ("<=0", included in the errors); per experiment whether each
   tool's largest predicted region is the truly largest one at A and at B.
4. scalewise's 90 % ranges [time_low_s, time_high_s] (step 2 and 5): per class, at A and at
   B, the share of true times inside and the median width high/low; per prediction
   q = |ln(true/pred)| / (ln(time_high_s/time_s) / RANGE_Q), the RANGE_Q (read from
   src/model/fit/search.rs) at which its range would just reach the truth (0 for a range
   0 wide around an exact prediction; predictions without a range are left out); the 90th
   percentile of q per source is the RANGE_Q that would cover 90 %.
5. Extra-P's own test files with the largest process count held out (--no-held-out skips):
   every file of tests/data/extrap-upstream/loads.json that loads and is no negative example
   is read with Extra-P's reader for its format (keeping the repetitions); the process
   parameter is chosen as scalewise chooses it (p, np, n, procs, ..., case-insensitive, else
   the first), files where it has fewer than 4 distinct values are skipped, and the points at
   its largest value are removed; the rest, of the metric scalewise would rank ("time" in any
   case, else the first), is written as JSON Lines to DIR/held-out/. Both tools model that
   file (scalewise: --predict whole points in its own parameter order, 64 per call, with
   --parameter naming the held-out parameter; Extra-P: read_jsonlines_file, Default modeler,
   and with allow_negative_exponents) and predict the removed points; the truth is the median
   of their repetitions in the full file (pairs with a truth at or below 0 are counted and
   left out). Tables split one-parameter from multi-parameter files.
6. A census of tests/data/extrap-upstream/: does `scalewise bottlenecks FILE --compact` exit 0,
   and how many of its regions have no `error`, next to Extra-P's loads.json.
7. Timing on tests/data/extrap/app.txt (24 regions), median of 5 after one warm-up each:
   one `scalewise bottlenecks app.txt --predict 256,1024 --compact` process; Extra-P reading
   and modelling the whole experiment in-process (its import not counted); and one process of
   Extra-P's command-line tool, `extrap --text app.txt` from the venv (output discarded).

--markdown-section prints only one Markdown section for VALIDATION.md ("## Bottlenecks at
scale: ..."; `make validate-extrap` writes it to target/extrap-validation.md and `make
validate` appends it): method, per-class errors, dominant-region counts, ranges, the held-out
files and the speed ratios, every number from the run (no census).
"""
import argparse
import contextlib
import importlib.util
import json
import logging
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
VENV_PYTHON = os.path.join(ROOT, ".venv-extrap", "bin", "python")
UPSTREAM = os.path.join(ROOT, "tests", "data", "extrap-upstream")
TIMING_FILE = os.path.join(ROOT, "tests", "data", "extrap", "app.txt")
METRIC = "time"


def ensure_extrap():
    try:
        import extrap  # noqa: F401
        return
    except ImportError:
        pass
    # (the venv's python is a symlink to the system one: compare prefixes, not binaries)
    if os.path.exists(VENV_PYTHON) and not os.environ.get("EXTRAP_COMPARE_REEXEC"):
        os.environ["EXTRAP_COMPARE_REEXEC"] = "1"
        os.execv(VENV_PYTHON, [VENV_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    sys.exit("extrap-compare: Extra-P is not importable; run scripts/setup-extrap.sh first")


def load_generator():
    path = os.path.join(ROOT, "scripts", "extrap-generate.py")
    sys.dont_write_bytecode = True      # no scripts/__pycache__ in the work tree
    spec = importlib.util.spec_from_file_location("extrap_generate", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------------------ scalewise

def run_scalewise(exe, args, timeout=120):
    proc = subprocess.run([exe] + args, capture_output=True, text=True, timeout=timeout)
    out = None
    if proc.returncode == 0:
        try:
            out = json.loads(proc.stdout)
        except json.JSONDecodeError as err:
            return 0, None, f"output is not JSON: {err}"
    msg = (proc.stderr or proc.stdout).strip().splitlines()
    return proc.returncode, out, (msg[0] if msg else "")


def point_key(params, pt):
    return tuple(float(pt[p]) for p in params)


def fmt_value(v):
    """A parameter value as scalewise's --predict takes it: 64, not 64.0."""
    v = float(v)
    return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)


MAX_POINTS = 64     # scalewise bottlenecks takes at most this many --predict points per call


def scalewise_predictions(exe, path, params, points, order=None, extra=()):
    """({callpath: {point key: time}}, {callpath: {point key: (low, high)}}, {callpath: error},
    refusal message or None, seconds). Whole points (P:N:..., or the count alone with one
    parameter; values in `order`, scalewise's parameter order, default params), at most
    MAX_POINTS per call; a refused call counts its points as missing. Keys follow params."""
    order = order or params
    preds, ranges, errors, refusals, seconds = {}, {}, {}, [], 0.0
    for start in range(0, len(points), MAX_POINTS):
        batch = points[start:start + MAX_POINTS]
        spec = ",".join(":".join(fmt_value(pt[p]) for p in order) for pt in batch)
        t0 = time.perf_counter()
        rc, out, msg = run_scalewise(exe, ["bottlenecks", path, "--predict", spec, "--compact", *extra])
        seconds += time.perf_counter() - t0
        if rc != 0 or out is None:
            refusals.append(f"exit {rc}: {msg}")
            continue
        wanted = {point_key(params, pt) for pt in batch}
        for region in out.get("regions", []):
            cp = region.get("callpath")
            if region.get("error"):
                errors[cp] = region["error"]
            for pr in region.get("predictions") or []:
                t = pr.get("time_s")
                if t is None:
                    continue
                key = None
                if isinstance(pr.get("point"), dict):
                    key = tuple(float(pr["point"].get(p, math.nan)) for p in params)
                elif isinstance(pr.get("point"), list):
                    key = tuple(float(v) for v in pr["point"])
                elif len(params) == 1:
                    key = (float(pr.get("n")),)
                else:
                    side = pr.get("side", region.get("side"))
                    if side is not None and pr.get("n") is not None:
                        key = (float(pr["n"]), float(side))
                if key in wanted:
                    preds.setdefault(cp, {})[key] = float(t)
                    lo, hi = pr.get("time_low_s"), pr.get("time_high_s")
                    if lo is not None and hi is not None:
                        ranges.setdefault(cp, {})[key] = (float(lo), float(hi))
        if own_times(out):
            inclusive_from_own(out, preds, ranges)
    return preds, ranges, errors, ("; ".join(refusals) or None), seconds


def own_times(answer):
    """Whether scalewise read the file's values as inclusive and fitted each region's own time
    (its value less its children's), so that its time_s is not the value the file holds."""
    times = answer.get("times") or {}
    return times.get("kind") == "inclusive" and not answer.get("non_additive") and answer.get("nesting") != "flat"


def inclusive_from_own(answer, preds, ranges):
    """Turns own-time predictions back into the inclusive values the file holds, to compare
    with its truth: a region's own plus its descendants' (bounds summed likewise)."""
    kids = {}
    for region in answer.get("regions", []):
        if region.get("parent") is not None:
            kids.setdefault(region["parent"], []).append(region["callpath"])

    def subtree(cp):
        out = [cp]
        for k in kids.get(cp, []):
            out += subtree(k)
        return out

    own, own_ranges = {cp: dict(v) for cp, v in preds.items()}, {cp: dict(v) for cp, v in ranges.items()}
    for cp in own:
        nodes = subtree(cp)
        for key in own[cp]:
            if all(key in own.get(n, {}) for n in nodes):
                preds[cp][key] = sum(own[n][key] for n in nodes)
            if all(key in own_ranges.get(n, {}) for n in nodes):
                ranges[cp][key] = tuple(sum(own_ranges[n][key][i] for n in nodes) for i in (0, 1))


# -------------------------------------------------------------------------------- Extra-P

def extrap_model(path, negative_exponents=False):
    """Reads an Extra-P text file and models every call path of METRIC with the default
    model generator. Returns (experiment, {callpath name: Function})."""
    from extrap.fileio.file_reader.text_file_reader import TextFileReader
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        experiment = TextFileReader().read_experiment(path)
    return experiment, extrap_model_experiment(experiment, METRIC, negative_exponents)


def extrap_model_experiment(experiment, metric_name, negative_exponents=False):
    """{callpath name: Function} of every call path of metric_name, from Extra-P's default
    model generator (its "Default" modeler, mean of the repetitions)."""
    from extrap.modelers.model_generator import ModelGenerator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        generator = ModelGenerator(experiment)
        if negative_exponents:
            modeler = generator.modeler
            target = getattr(modeler, "single_parameter_modeler", None) or modeler
            target.allow_negative_exponents = True
        generator.model_all()
    functions = {}
    for (callpath, metric), model in generator.models.items():
        if metric.name == metric_name:
            functions[callpath.name] = model.hypothesis.function
    return functions


def extrap_evaluate(fn, order, pt):
    """The function's value at pt ({name: value}) or None when it is not finite."""
    try:
        if len(order) == 1:
            v = float(fn.evaluate(float(pt[order[0]])))
        else:
            v = float(fn.evaluate([float(pt[name]) for name in order]))
    except (ArithmeticError, ValueError):
        return None
    return v if math.isfinite(v) else None


def extrap_predictions(path, params, points, negative_exponents=False):
    t0 = time.perf_counter()
    experiment, functions = extrap_model(path, negative_exponents)
    order = [str(p.name) for p in experiment.parameters]
    preds = {}
    for cp, fn in functions.items():
        for pt in points:
            v = extrap_evaluate(fn, order, pt)
            if v is not None:
                preds.setdefault(cp, {})[point_key(params, pt)] = v
    return preds, time.perf_counter() - t0


# ------------------------------------------------------------------------------ statistics

def quantile(xs, q):
    """The q-quantile with linear interpolation (an infinite value stays infinite)."""
    xs = sorted(xs)
    if not xs:
        return math.nan
    k = (len(xs) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    if hi == lo or xs[hi] == xs[lo]:
        return xs[lo]
    if math.isinf(xs[hi]):
        return xs[hi]
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def pct(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    v = 100 * x
    if v < 10:
        return f"{v:.1f} %"
    if v < 10000:
        return f"{v:.0f} %"
    return f"{v:.1e} %"


def short(cp):
    return cp.replace("main->", "", 1) if cp else "—"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- comparison

TOOLS = [("scalewise", "scalewise"), ("extrap", "Extra-P"), ("extrap_neg", "Extra-P -exp")]


def compare_experiment(exe, out_dir, entry):
    with open(os.path.join(out_dir, entry["truth"])) as f:
        truth = json.load(f)
    path = os.path.join(out_dir, truth["file"])
    params = truth["parameters"]
    points = [p["point"] for p in truth["predict"]]
    sw, sw_rng, sw_err, refusal, sw_s = scalewise_predictions(exe, path, params, points)
    ep, ep_s = extrap_predictions(path, params, points)
    en, en_s = extrap_predictions(path, params, points, negative_exponents=True)
    preds = {"scalewise": sw, "extrap": ep, "extrap_neg": en}
    regions = []
    for r in truth["regions"]:
        row = {"callpath": r["callpath"], "class": r["class"], "growing": r["growing"],
               "formula": r["formula"], "true": [], "pred": {k: [] for k, _ in TOOLS},
               "scalewise_error": sw_err.get(r["callpath"]), "range": []}
        for pinfo in truth["predict"]:
            key = point_key(params, pinfo["point"])
            row["true"].append(pinfo["times"][r["callpath"]])
            row["range"].append(sw_rng.get(r["callpath"], {}).get(key))
            for tool, _ in TOOLS:
                row["pred"][tool].append(preds[tool].get(r["callpath"], {}).get(key))
        regions.append(row)
    dominant = []
    for i, pinfo in enumerate(truth["predict"]):
        d = {"point": pinfo["point"], "true": pinfo["dominant"], "lead": pinfo["lead"]}
        for tool, _ in TOOLS:
            cand = [(row["pred"][tool][i], row["callpath"]) for row in regions
                    if row["pred"][tool][i] is not None]
            d[tool] = max(cand)[1] if cand else None
        dominant.append(d)
    return {"experiment": truth["experiment"], "file": path, "parameters": params,
            "scenario": truth["scenario"], "points": truth["points"], "predict": points,
            "regions": regions, "dominant": dominant, "scalewise_refusal": refusal,
            "seconds": {"scalewise": sw_s, "extrap": ep_s, "extrap_neg": en_s}}


def error_rows(results, index, groups):
    """Rows of the per-class table at prediction index (0 = A, 1 = B)."""
    rows = []
    for label, members in groups:
        regs = [r for res in results for r in res["regions"] if r["class"] in members]
        if not regs:
            continue
        row = [label, len(regs)]
        for tool, _ in TOOLS:
            errs, miss = [], 0
            for r in regs:
                p, t = r["pred"][tool][index], r["true"][index]
                if p is None:
                    miss += 1
                else:
                    errs.append(abs(p - t) / t)
            row += [miss, pct(statistics.median(errs)) if errs else "—", pct(quantile(errs, 0.9))]
        rows.append(row)
    return rows


def error_header(where):
    h = [f"class ({where})", "regions"]
    for _, name in TOOLS:
        h += [f"{name} miss", f"{name} median", f"{name} p90"]
    return h


def dominant_table(results):
    rows, right = [], {(tool, i): 0 for tool, _ in TOOLS for i in (0, 1)}
    for res in results:
        byname = {r["callpath"]: r["class"] for r in res["regions"]}
        row = [res["experiment"], res["scenario"]]
        for i, d in enumerate(res["dominant"]):
            where = ", ".join(f"{k}={v}" for k, v in d["point"].items())
            row.append(f"{where}: {short(d['true'])} ({byname[d['true']]}, lead {d['lead']:.2f}x)")
            for tool, _ in TOOLS:
                ok = d[tool] == d["true"]
                right[(tool, i)] += ok
                row.append("✓" if ok else ("✗ none" if d[tool] is None else f"✗ {short(d[tool])}"))
        rows.append(row)
    n = len(results)
    total = ["**right**", ""]
    for i in (0, 1):
        total.append("")
        total += [f"**{right[(tool, i)]}/{n}**" for tool, _ in TOOLS]
    rows.append(total)
    header = ["experiment", "scenario", "truth at A"] + [f"{name} A" for _, name in TOOLS] + \
             ["truth at B"] + [f"{name} B" for _, name in TOOLS]
    return table(header, rows)


def summary_rows(results):
    rows = []
    for tool, name in TOOLS:
        for i, where in enumerate(("A", "B")):
            preds = [(r["pred"][tool][i], r["true"][i]) for res in results for r in res["regions"]]
            have = [(p, t) for p, t in preds if p is not None]
            errs = [abs(p - t) / t for p, t in have]
            rows.append([name, where, len(preds), len(preds) - len(have), sum(p <= 0 for p, _ in have),
                         sum(e <= 0.1 for e in errs), pct(statistics.median(errs)) if errs else "—",
                         pct(quantile(errs, 0.9))])
    return table(["tool", "at", "regions", "miss", "<=0", "within 10 %", "median", "p90"], rows)


# ------------------------------------------------------------------------------- ranges

def read_range_q():
    """RANGE_Q of src/model/fit/search.rs: the factor scalewise's ranges use now."""
    try:
        with open(os.path.join(ROOT, "src", "model", "fit", "search.rs")) as f:
            m = re.search(r"const\s+RANGE_Q\s*:\s*f64\s*=\s*([0-9.eE+-]+)\s*;", f.read())
    except OSError:
        m = None
    return float(m.group(1)) if m else None


RANGE_Q = read_range_q() or 2.5


def range_check(pred, rng, true):
    """(inside, width high/low, q) of one scalewise prediction, or None when it has no range.
    q = |ln(true/pred)| / (ln(high/pred) / RANGE_Q): the RANGE_Q at which the range would
    just reach the truth (0 for a range 0 wide around an exact prediction, infinite for one
    0 wide around a wrong one, or for a time at or below 0)."""
    if pred is None or rng is None:
        return None
    lo, hi = rng
    inside = lo <= true <= hi
    width = hi / lo if lo > 0 else math.inf
    if pred <= 0 or true <= 0 or hi <= 0:
        return inside, width, math.inf
    miss = abs(math.log(true / pred))
    w = math.log(hi / pred)
    if w <= 0:
        return inside, width, (0.0 if miss <= 1e-12 else math.inf)
    return inside, width, miss / (w / RANGE_Q)


def times(x):
    if x is None or math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞"
    return f"{x:.2f}×" if x < 10 else (f"{x:.1f}×" if x < 1000 else f"{x:.2g}×")


def qfmt(x):
    if x is None or math.isnan(x):
        return "—"
    return "∞" if math.isinf(x) else f"{x:.2f}"


def coverage(checks):
    """Summary of range_check results (None entries: predictions without a range)."""
    have = [c for c in checks if c is not None]
    qs = [c[2] for c in have]
    return {"predictions": len(checks), "with_range": len(have),
            "inside": sum(c[0] for c in have),
            "share": sum(c[0] for c in have) / len(have) if have else math.nan,
            "median_width": statistics.median(c[1] for c in have) if have else math.nan,
            "q50": quantile(qs, 0.5), "q90": quantile(qs, 0.9)}


def share_cell(c):
    if not c["with_range"]:
        return "—"
    cell = f"{pct(c['share'])} ({c['inside']}/{c['with_range']})"
    if c["with_range"] < c["predictions"]:
        cell += f", {c['predictions'] - c['with_range']} without"
    return cell


def generated_checks(results, index, members=None):
    return [range_check(r["pred"]["scalewise"][index], r["range"][index], r["true"][index])
            for res in results for r in res["regions"] if members is None or r["class"] in members]


def coverage_table(results, groups):
    rows = []
    for label, members in groups:
        n = sum(1 for res in results for r in res["regions"] if r["class"] in members)
        if not n:
            continue
        row = [label, n]
        for i in (0, 1):
            c = coverage(generated_checks(results, i, members))
            row += [share_cell(c), times(c["median_width"]), qfmt(c["q90"])]
        rows.append(row)
    return table(["class", "regions", "in range at A", "median width at A", "q p90 at A",
                  "in range at B", "median width at B", "q p90 at B"], rows)


def coverage_sources(single, multi, held):
    """Rows (source, coverage) for the per-source table."""
    out = []
    for label, results in (("generated, one parameter", single), ("generated, two parameters", multi)):
        for i, where in enumerate(("A", "B")):
            if results:
                out.append((f"{label}, at {where}", coverage(generated_checks(results, i))))
    for label, key in (("Extra-P's files, one parameter, held out", "single"),
                       ("Extra-P's files, 2–4 parameters, held out", "multi")):
        rows = [r for r in held["rows"] if r["group"] == key]
        if rows:
            out.append((label, coverage([range_check(r["pred"]["scalewise"], r["range"], r["true"])
                                         for r in rows])))
    return out


def equal_weight_quantile(groups, level):
    """The level-quantile of the q values of several groups, each group weighing the same."""
    pts = sorted((q, 1.0 / len(qs) / len(groups)) for qs in groups for q in qs)
    acc = 0.0
    for q, w in pts:
        acc += w
        if acc >= level - 1e-12:
            return q
    return pts[-1][0] if pts else math.nan


def calibration_groups(single, multi, held):
    """The q values of the four sources the ranges are calibrated on."""
    gen = lambda results: [c[2] for i in (0, 1) for c in generated_checks(results, i) if c is not None]
    up = lambda key: [c[2] for c in (range_check(r["pred"]["scalewise"], r["range"], r["true"])
                                     for r in (held or {"rows": []})["rows"] if r["group"] == key) if c is not None]
    groups = [("generated, one parameter (A and B)", gen(single)), ("generated, two parameters (A and B)", gen(multi)),
              ("Extra-P's files, one parameter, held out", up("single")), ("Extra-P's files, 2–4 parameters, held out", up("multi"))]
    return [(label, qs) for label, qs in groups if qs]


def calibration_table(groups):
    """Each source held out: RANGE_Q from the other sources (equal weight each, 90th
    percentile of q), and the share of this source's truths that RANGE_Q would cover."""
    rows = []
    for i, (label, qs) in enumerate(groups):
        others = [g[1] for j, g in enumerate(groups) if j != i]
        q = equal_weight_quantile(others, 0.9)
        rows.append([label, len(qs), qfmt(q), pct(sum(1 for x in qs if x <= q) / len(qs))])
    every = equal_weight_quantile([g[1] for g in groups], 0.9)
    rows.append(["**all four, equal weight**", sum(len(g[1]) for g in groups), qfmt(every), "—"])
    return table(["source held out", "predictions", "RANGE_Q from the other sources", "its truths covered"], rows)


def coverage_source_table(sources):
    rows = [[label, c["predictions"], c["with_range"], share_cell(c), times(c["median_width"]),
             qfmt(c["q50"]), qfmt(c["q90"])] for label, c in sources]
    return table(["source", "predictions", "with a range", "truth in range", "median width (high/low)",
                  "q median", f"q p90 (RANGE_Q for 90 %; now {RANGE_Q:g})"], rows)


# --------------------------------------------------------------------------------- census

def census(exe):
    with open(os.path.join(UPSTREAM, "loads.json")) as f:
        loads = json.load(f)
    rows, n_read, n_both, reg_total, reg_fit = [], 0, 0, 0, 0
    for r in loads["results"]:
        path = os.path.join(UPSTREAM, r["file"])
        rc, out, msg = run_scalewise(exe, ["bottlenecks", path, "--compact"])
        ep = "yes" if r["loads"] else ("no (neg. example)" if r.get("negative_example") else "no")
        ep_shape = f"{r['parameters']}/{r['callpaths']}/{r['metrics']}" if r["loads"] else "—"
        if rc == 0 and out is not None:
            regs = out.get("regions", [])
            fit = sum(1 for g in regs if not g.get("error"))
            n_read += 1
            n_both += bool(r["loads"])
            reg_total += len(regs)
            reg_fit += fit
            errs = sorted({g["error"] for g in regs if g.get("error")})
            note = "; ".join(errs)[:90].replace("|", "\\|")
            rows.append([r["file"], r["reader"], ep, ep_shape, "0", f"{fit}/{len(regs)}", note])
        else:
            rows.append([r["file"], r["reader"], ep, ep_shape, str(rc), "—", msg[:90].replace("|", "\\|")])
    head = (f"scalewise reads {n_read} of {len(rows)} files (Extra-P 4.2.5: {loads['loaded']}); "
            f"{n_both} files are read by both; {reg_fit} of {reg_total} regions in the files it reads "
            f"get a model.")
    return head, table(["file", "format", "Extra-P loads", "Extra-P params/callpaths/metrics",
                        "scalewise exit", "regions modelled", "scalewise message"], rows)


# --------------------------------------------------- Extra-P's files, largest count held out

# The process parameter as scalewise picks it (src/model/bottlenecks/ranking.rs, PROCESS_NAMES):
# the first parameter with one of these names, case-insensitively, else the first.
PROCESS_NAMES = ("p", "np", "n", "procs", "nprocs", "processes", "process", "ranks", "nranks",
                 "mpi", "cores", "nodes", "num_procs")
MIN_DISTINCT = 4    # values of the process parameter a file needs: 3 left after holding one out


def process_index(names):
    return next((i for i, n in enumerate(names) if n.lower() in PROCESS_NAMES), 0)


def pick_metric(names):
    """The metric scalewise ranks by default: "time" (any case) if there is one, else the first."""
    return next((m for m in names if m.lower() == "time"), names[0] if names else None)


@contextlib.contextmanager
def jsonlines_keep_values():
    """Extra-P's JSON Lines reader drops the repetitions even with keep_values=True (it does
    not pass the flag on to io_helper.repetition_dict_to_experiment); this passes it on."""
    from extrap.fileio import io_helper
    original = io_helper.repetition_dict_to_experiment

    def keeping(*args, **kwargs):
        kwargs["keep_values"] = True
        return original(*args, **kwargs)
    io_helper.repetition_dict_to_experiment = keeping
    try:
        yield
    finally:
        io_helper.repetition_dict_to_experiment = original


def read_upstream(rel, reader):
    """The file read by Extra-P's own reader (as scripts/extrap-upstream-loads.py chooses it),
    keeping every repetition."""
    from extrap.fileio.file_reader.json_file_reader import JsonFileReader
    from extrap.fileio.file_reader.jsonlines_file_reader import read_jsonlines_file
    from extrap.fileio.file_reader.talpas_file_reader import TalpasFileReader
    from extrap.fileio.file_reader.text_file_reader import TextFileReader
    path = os.path.join(UPSTREAM, rel)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if reader == "jsonlines":
            with jsonlines_keep_values():
                return read_jsonlines_file(path, keep_values=True)
        if reader == "cube":
            from extrap.fileio.file_reader.cube_file_reader2 import CubeFileReader2
            return CubeFileReader2().read_experiment(path)
        cls = {"talpas": TalpasFileReader, "json": JsonFileReader, "text": TextFileReader}[reader]
        r = cls()
        r.keep_values = True
        return r.read_experiment(path)


def repetitions(measurement):
    import numpy as np
    if measurement.values is None:
        return [float(measurement.median)]
    values = np.ma.compressed(np.ma.asarray(measurement.values, dtype=float))
    return [float(v) for v in values if math.isfinite(v)]


def json_number(v):
    v = float(v)
    return int(v) if v.is_integer() and abs(v) < 2 ** 53 else v


def prepare_held_out(rel, reader, work_dir):
    """Reads one of Extra-P's files, removes the points at the largest value of the process
    parameter and writes the rest (one metric) as JSON Lines. Returns a dict with the
    reduced file's path and the truth {point: {callpath: median of the removed repetitions}},
    or with "skip" saying why the file is not used."""
    exp = read_upstream(rel, reader)
    names = [str(p.name) for p in exp.parameters]
    pi = process_index(names)
    values = sorted({float(c[pi]) for c in exp.coordinates})
    info = {"file": rel, "reader": reader, "parameters": names, "process_parameter": names[pi],
            "distinct": len(values)}
    if len(values) < MIN_DISTINCT:
        info["skip"] = f"{len(values)} distinct values of {names[pi]}"
        return info
    metric = pick_metric([str(m.name) for m in exp.metrics])
    top = values[-1]
    path = os.path.join(work_dir, rel.replace("/", "__") + ".held-out.jsonl")
    truth, lines = write_held_out(exp, metric, lambda coord: coord[pi] == top, path)
    info.update(metric=metric, held_value=top, reduced=path, truth=truth, lines=len(lines))
    return info


def write_held_out(exp, metric, held, path):
    """Writes the measurements of `metric` at the coordinates not `held` (a predicate on a
    coordinate tuple) as JSON Lines to `path`. Returns the truth at the held coordinates
    ({coordinate: {callpath: median}}) and the lines written."""
    names = [str(p.name) for p in exp.parameters]
    lines, truth = [], {}
    for (callpath, m_), measurements in exp.measurements.items():
        if str(m_.name) != metric:
            continue
        for m in measurements:
            coord = tuple(float(x) for x in m.coordinate)
            if held(coord):
                truth.setdefault(coord, {})[callpath.name] = float(m.median)
                continue
            reps = repetitions(m)
            if reps:
                lines.append({"params": {n: json_number(v) for n, v in zip(names, coord)},
                              "callpath": callpath.name, "metric": metric, "value": reps})
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    return truth, lines


def extrap_held_out(path, metric, names, keys, negative_exponents):
    """({callpath: {point key: value}}, error or None): Extra-P on the reduced file."""
    from extrap.fileio.file_reader.jsonlines_file_reader import read_jsonlines_file
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = read_jsonlines_file(path)
        order = [str(p.name) for p in exp.parameters]
        functions = extrap_model_experiment(exp, metric, negative_exponents)
    except Exception as err:    # Extra-P raises many kinds; the region counts as missing
        return {}, f"{type(err).__name__}: {str(err).strip()[:120]}"
    preds = {}
    for cp, fn in functions.items():
        for key in keys:
            v = extrap_evaluate(fn, order, dict(zip(names, key)))
            if v is not None:
                preds.setdefault(cp, {})[key] = v
    return preds, None


def held_out_upstream(exe, work_dir):
    """Every file Extra-P loads (loads.json: loads, not a negative example), its largest
    process count held out and predicted by both tools."""
    with open(os.path.join(UPSTREAM, "loads.json")) as f:
        loads = json.load(f)
    os.makedirs(work_dir, exist_ok=True)
    files, rows, skipped = [], [], []
    for entry in loads["results"]:
        if not entry["loads"] or entry.get("negative_example"):
            continue
        info = prepare_held_out(entry["file"], entry["reader"], work_dir)
        if "skip" in info:
            skipped.append(info)
            continue
        names = info["parameters"]
        keys = sorted(info["truth"])
        points = [dict(zip(names, k)) for k in keys]
        # scalewise's own parameter order (its JSON Lines reader may not keep the file's order),
        # with the process parameter chosen above
        extra = ("--parameter", info["process_parameter"])
        rc, out, msg = run_scalewise(exe, ["bottlenecks", info["reduced"], "--compact", *extra])
        if rc == 0 and out is not None:
            info["scalewise_parameters"] = list(out.get("parameters") or names)
            sw, sw_rng, sw_err, refusal, _ = scalewise_predictions(
                exe, info["reduced"], names, points, info["scalewise_parameters"], extra)
        else:
            info["scalewise_parameters"] = None
            sw, sw_rng, sw_err, refusal = {}, {}, {}, f"exit {rc}: {msg}"
        ep, ep_err = extrap_held_out(info["reduced"], info["metric"], names, keys, False)
        en, en_err = extrap_held_out(info["reduced"], info["metric"], names, keys, True)
        preds = {"scalewise": sw, "extrap": ep, "extrap_neg": en}
        group = "single" if len(names) == 1 else "multi"
        nonpositive, own = 0, []
        for key in keys:
            for cp, t in info["truth"][key].items():
                if t <= 0:
                    nonpositive += 1
                    continue
                own.append({"file": info["file"], "group": group, "point": dict(zip(names, key)),
                            "callpath": cp, "true": t,
                            "pred": {tool: preds[tool].get(cp, {}).get(key) for tool, _ in TOOLS},
                            "range": sw_rng.get(cp, {}).get(key),
                            "scalewise_error": sw_err.get(cp)})
        rows += own
        info.update(group=group, held_points=len(keys), nonpositive=nonpositive, predicted=len(own),
                    scalewise_refusal=refusal, extrap_error=ep_err, extrap_neg_error=en_err,
                    regions=len({cp for k in keys for cp in info["truth"][k]}))
        info["truth"] = {":".join(fmt_value(v) for v in k): t for k, t in info["truth"].items()}
        files.append(info)
    return {"files": files, "rows": rows, "skipped": skipped}


def held_out_table(rows):
    out = []
    for tool, name in TOOLS:
        have = [(r["pred"][tool], r["true"]) for r in rows if r["pred"][tool] is not None]
        errs = [abs(p - t) / t for p, t in have]
        row = [name, len(rows), len(have), len(rows) - len(have), sum(p <= 0 for p, _ in have),
               pct(statistics.median(errs)) if errs else "—", pct(quantile(errs, 0.9)),
               f"{sum(e <= 0.1 for e in errs)} ({pct(sum(e <= 0.1 for e in errs) / len(errs)) if errs else '—'})"]
        if tool == "scalewise":
            c = coverage([range_check(r["pred"][tool], r["range"], r["true"]) for r in rows])
            row += [share_cell(c), times(c["median_width"]), qfmt(c["q90"])]
        else:
            row += ["—", "—", "—"]
        out.append(row)
    return table(["tool", "regions×points", "predicted", "missing", "<=0", "median error", "p90 error",
                  "within 10 %", "truth in range", "median width", "q p90"], out)


def held_out_head(held, group):
    files = [f for f in held["files"] if f["group"] == group]
    nonpos = sum(f["nonpositive"] for f in files)
    n_params = sorted({len(f["parameters"]) for f in files})
    kinds = "" if n_params == [1] else f" ({', '.join(str(k) for k in n_params)} parameters)"
    text = (f"{len(files)} files{kinds}, {sum(f['held_points'] for f in files)} held-out points, "
            f"{sum(f['predicted'] for f in files)} region×point pairs")
    if nonpos:
        text += f"; {nonpos} pairs whose held-out truth is 0 or below are left out"
    return text + "."


def skipped_line(held):
    sk = held["skipped"]
    if not sk:
        return "No file was skipped."
    from collections import Counter
    why = Counter(s["distinct"] for s in sk)
    counts = ", ".join(f"{n} with {d}" for d, n in sorted(why.items()))
    return (f"{len(sk)} files are skipped because their process parameter has fewer than {MIN_DISTINCT} "
            f"distinct values ({counts}): " + ", ".join(f"`{s['file']}`" for s in sk) + ".")


def order_line(held):
    """How many reduced files scalewise reads with the parameters in another order."""
    used = [f for f in held["files"] if len(f["parameters"]) > 1]
    other = [f for f in used if f["scalewise_parameters"] and f["scalewise_parameters"] != f["parameters"]]
    if not other:
        return f"scalewise reads the parameters of all {len(used)} multi-parameter files in Extra-P's order."
    by_name = all(f["scalewise_parameters"] == sorted(f["parameters"]) for f in other)
    how = "by name" if by_name else "in another order"
    return (f"scalewise orders the parameters of {len(other)} of the {len(used)} reduced multi-parameter "
            f"files (JSON Lines) {how}, where Extra-P keeps the order of the first line; the points "
            f"are passed in scalewise's order, and `--parameter` names the held-out parameter.")


def held_out_detail(held):
    rows = []
    for f in held["files"]:
        mine = [r for r in held["rows"] if r["file"] == f["file"]]
        cells = []
        for tool, _ in TOOLS:
            errs = [abs(r["pred"][tool] - r["true"]) / r["true"] for r in mine if r["pred"][tool] is not None]
            miss = len(mine) - len(errs)
            cells.append((pct(statistics.median(errs)) if errs else "—") + (f" ({miss} miss)" if miss else ""))
        c = coverage([range_check(r["pred"]["scalewise"], r["range"], r["true"]) for r in mine])
        notes = [x for x in (f["scalewise_refusal"] and f"scalewise: {f['scalewise_refusal']}",
                             f["extrap_error"] and f"Extra-P: {f['extrap_error']}",
                             f["extrap_neg_error"] and f"Extra-P -exp: {f['extrap_neg_error']}") if x]
        if f["scalewise_parameters"] and f["scalewise_parameters"] != f["parameters"]:
            notes.append(f"scalewise's order: {','.join(f['scalewise_parameters'])}")
        errs_sw = sorted({r["scalewise_error"] for r in mine if r["scalewise_error"]})
        notes += [f"scalewise region error: {e}" for e in errs_sw]
        rows.append([f["file"], ",".join(f["parameters"]),
                     f"{f['process_parameter']}={fmt_value(f['held_value'])} ({f['distinct']} values)",
                     f"{f['held_points']}×{f['regions']}", *cells, share_cell(c),
                     "; ".join(notes)[:160].replace("|", "\\|")])
    return table(["file", "parameters", "held out", "points×regions", "scalewise median",
                  "Extra-P median", "Extra-P -exp median", "scalewise in range", "notes"], rows)


# --------------------------------------------------------------------------------- timing

def extrap_command():
    """Extra-P's command-line tool from the venv this script runs in."""
    for cand in (os.path.join(os.path.dirname(sys.executable), "extrap"),
                 os.path.join(ROOT, ".venv-extrap", "bin", "extrap")):
        if os.access(cand, os.X_OK):
            return cand
    return shutil.which("extrap")


def clock(cmd, repeats):
    """Median wall time of cmd (output discarded), after one warm-up run."""
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def timing(exe, repeats=5):
    sw = clock([exe, "bottlenecks", TIMING_FILE, "--predict", "256,1024", "--compact"], repeats)
    extrap_model(TIMING_FILE)  # warm-up (lazy imports inside Extra-P)
    ep = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        _, fns = extrap_model(TIMING_FILE)
        ep.append(time.perf_counter() - t0)
    cmd = extrap_command()
    cli = clock([cmd, "--text", TIMING_FILE], repeats) if cmd else None
    return {"regions": len(fns), "scalewise": sw, "extrap": statistics.median(ep),
            "extrap_command": cli, "command": cmd, "repeats": repeats}


def timing_table(t, version):
    rows = [["scalewise", "one `scalewise bottlenecks app.txt --predict 256,1024 --compact` process",
             f"{t['scalewise']:.4f}", "1×"],
            [f"Extra-P {version}", f"read + `ModelGenerator.model_all()` of {t['regions']} call paths, "
             "in-process (import not counted)", f"{t['extrap']:.4f}", f"{t['extrap'] / t['scalewise']:.0f}×"]]
    if t["extrap_command"] is not None:
        rows.append([f"Extra-P {version}", "one `extrap --text app.txt` process (its command-line tool, "
                     "output discarded)", f"{t['extrap_command']:.4f}",
                     f"{t['extrap_command'] / t['scalewise']:.0f}×"])
    return table(["tool", "what", "median seconds", "time / scalewise"], rows)


# ------------------------------------------------------------------------ Markdown section

def span(values):
    """'5' or '1–5' for the smallest and largest of values."""
    values = list(values)
    lo, hi = min(values), max(values)
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def compact_error_table(results, groups):
    """Per class: median / p90 of the relative error of each tool at A and at B."""
    rows = []
    for label, members in groups:
        regs = [r for res in results for r in res["regions"] if r["class"] in members]
        if not regs:
            continue
        row = [label, len(regs)]
        for i in (0, 1):
            for tool, _ in TOOLS:
                errs = [abs(r["pred"][tool][i] - r["true"][i]) / r["true"][i] for r in regs
                        if r["pred"][tool][i] is not None]
                miss = len(regs) - len(errs)
                cell = f"{pct(statistics.median(errs))} / {pct(quantile(errs, 0.9))}" if errs else "—"
                rows_miss = f" ({miss} miss)" if miss else ""
                row.append(cell + rows_miss)
        rows.append(row)
    header = ["class", "regions"] + [f"{name} at {w}" for w in ("A", "B") for _, name in TOOLS]
    return table(header, rows)


def dominant_counts(results):
    right = {(tool, i): 0 for tool, _ in TOOLS for i in (0, 1)}
    for res in results:
        for i, d in enumerate(res["dominant"]):
            for tool, _ in TOOLS:
                right[(tool, i)] += d[tool] == d["true"]
    return right


def dominant_summary(single, multi):
    rs, rm = dominant_counts(single), dominant_counts(multi)
    rows = [[name, f"{rs[(tool, 0)]}/{len(single)}", f"{rs[(tool, 1)]}/{len(single)}",
             f"{rm[(tool, 0)]}/{len(multi)}", f"{rm[(tool, 1)]}/{len(multi)}"] for tool, name in TOOLS]
    return table(["tool", "one parameter, at A", "one parameter, at B", "two parameters, at A",
                  "two parameters, at B"], rows)


def markdown_section(ctx):
    gen, single, multi, held, t = ctx["gen"], ctx["single"], ctx["multi"], ctx["held"], ctx["timing"]
    version, seed = ctx["version"], ctx["seed"]
    noises = [res["noise"] for res in single + multi]
    n_sp_reg = sum(len(r["regions"]) for r in single)
    n_mp_reg = sum(len(r["regions"]) for r in multi)
    out = [f"## Bottlenecks at scale: scalewise against Extra-P {version}", ""]
    out.append(
        f"Appended by `make validate` (`make validate-extrap`: `scripts/extrap-compare.py "
        f"--markdown-section`). "
        f"**Generated experiments with known truth** (`scripts/extrap-generate.py --seed {seed}`): "
        f"{len(single)} experiments with one parameter p ({n_sp_reg} regions, {len(gen.CLASSES)} classes: "
        f"{', '.join(gen.CLASSES)}) and {len(multi)} with two, p and n ({n_mp_reg} regions); every "
        f"region's time is a closed form, measured at {span(len(r['points']) for r in single)} process "
        f"counts (two parameters: {span(len(r['points']) for r in multi)} points), "
        f"{span(ctx['repetitions'])} repetitions each with {span(round(100 * x) for x in noises)} % "
        f"normal noise, so the truth anywhere is exact. Both tools "
        f"read the same file and predict every region's time at A = 4× and B = 16× the largest "
        f"measured p (two parameters: A = (4× p, 2× n), B = (16× p, 4× n)). scalewise: "
        f"`scalewise bottlenecks FILE --predict A,B --compact`. Extra-P {version}: its reader and "
        f"`ModelGenerator` with the Default modeler (mean of the repetitions); *Extra-P -exp* is the "
        f"same with `allow_negative_exponents`, Extra-P's option for times that fall. Error = "
        f"|predicted − true| / true; cells give the median / 90th percentile.")
    out.append("")
    out.append("### Error by class, one parameter")
    out.append("")
    groups = [(c, (c,)) for c in gen.CLASSES] + [
        ("**falling**", gen.FALLING), ("**flat**", ("flat",)), ("**growing**", gen.GROWING),
        ("**all**", gen.CLASSES)]
    out.append(compact_error_table(single, groups))
    out.append("")
    out.append("### Error by class, two parameters")
    out.append("")
    refused = [r for r in multi if r["scalewise_refusal"]]
    if refused:
        out.append(f"scalewise refused the points of {len(refused)} of {len(multi)} experiments "
                   f"(their regions count as missing): `{refused[0]['scalewise_refusal']}`")
        out.append("")
    out.append(compact_error_table(multi, ctx["mgroups"]))
    out.append("")
    out.append("### Dominant region")
    out.append("")
    out.append("Experiments where the region with the largest predicted time is the one with the "
               "largest true time (every generated experiment has one leading the runner-up by at "
               f"least {round(100 * (gen.MARGIN - 1))} % at A and at B).")
    out.append("")
    out.append(dominant_summary(single, multi))
    out.append("")
    out.append("### scalewise's 90 % ranges")
    out.append("")
    out.append(
        f"*In range*: share of true times inside [time_low_s, time_high_s]; *width*: high/low. "
        f"*q* = |ln(true/predicted)| / (ln(high/predicted) / RANGE_Q), the RANGE_Q at which a "
        f"prediction's range would just reach the truth (RANGE_Q is {RANGE_Q:g} now, "
        f"src/model/fit/search.rs); its 90th percentile is the RANGE_Q that would cover 90 %.")
    out.append("")
    out.append("**Generated, one parameter**")
    out.append("")
    out.append(coverage_table(single, groups))
    out.append("")
    out.append("**Generated, two parameters**")
    out.append("")
    out.append(coverage_table(multi, ctx["mgroups"]))
    out.append("")
    out.append("**By source** (the held-out rows are from the next section)")
    out.append("")
    out.append(coverage_source_table(ctx["sources"]))
    out.append("")
    out.append("**Calibration, each source held out.** RANGE_Q is the 90th percentile of q over the "
               "four sources, each weighing the same (the last row); each source's coverage below is "
               "that of the RANGE_Q the other three alone would give.")
    out.append("")
    out.append(calibration_table(calibration_groups(single, multi, held)))
    out.append("")
    if held is not None:
        used = len(held["files"])
        out.append("### Extra-P's own test files, largest process count held out")
        out.append("")
        out.append(
            f"Every file of `tests/data/extrap-upstream/` that Extra-P {version} loads (not a negative "
            f"example) is read with Extra-P's own reader; the process parameter is picked as scalewise "
            f"picks it (the first named {', '.join(PROCESS_NAMES)}, in any case, else the first), and "
            f"so is the metric (time, else the first). The points at its largest value are removed and the rest is written as JSON Lines; "
            f"both tools model that file and predict the removed points, whose truth is the median of "
            f"their repetitions in the full file. {used} files are used. {skipped_line(held)} "
            f"{order_line(held)}")
        out.append("")
        for group, title in (("single", "One parameter"), ("multi", "Two to four parameters")):
            rows = [r for r in held["rows"] if r["group"] == group]
            if not rows:
                continue
            out.append(f"**{title}**: {held_out_head(held, group)}")
            out.append("")
            out.append(held_out_table(rows))
            out.append("")
    out.append("### Speed")
    out.append("")
    out.append(f"`tests/data/extrap/app.txt` ({t['regions']} regions); median of {t['repeats']} runs "
               f"after one warm-up, on the machine that ran this.")
    out.append("")
    out.append(timing_table(t, version))
    return "\n".join(out)


# ----------------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scalewise", default=os.path.join(ROOT, "target", "release", "scalewise"),
                    help="the scalewise binary (default: %(default)s)")
    ap.add_argument("--out-dir", help="where to write the generated experiments (default: a new temp dir)")
    ap.add_argument("--seed", type=int, default=2024, help="generator seed (default: %(default)s)")
    ap.add_argument("--json", metavar="FILE", help="also write every per-region result as JSON")
    ap.add_argument("--no-census", action="store_true", help="skip the census of tests/data/extrap-upstream")
    ap.add_argument("--no-held-out", action="store_true",
                    help="skip Extra-P's test files with the largest process count held out")
    ap.add_argument("--markdown-section", action="store_true",
                    help="print only one Markdown section for VALIDATION.md (no census)")
    args = ap.parse_args()

    exe = args.scalewise if os.path.isabs(args.scalewise) else os.path.abspath(args.scalewise)
    if not os.path.exists(exe):
        found = shutil.which(args.scalewise)
        if not found:
            sys.exit(f"extrap-compare: no scalewise at {exe}; run cargo build --release --locked")
        exe = found
    ensure_extrap()
    import extrap
    logging.disable(logging.WARNING)
    warnings.simplefilter("ignore")
    if read_range_q() is None:
        # The q columns are in units of the calculator's RANGE_Q: a stand-in would write a
        # report that looks right and is not.
        sys.exit("extrap-compare: RANGE_Q not found in src/model/fit/search.rs")

    started = time.perf_counter()
    out_dir = args.out_dir or tempfile.mkdtemp(prefix="extrap-compare-")
    gen = load_generator()
    index = gen.generate(out_dir, args.seed)
    results = [compare_experiment(exe, out_dir, e) for e in index]
    repetitions_seen = []
    for e in index:
        with open(os.path.join(out_dir, e["truth"])) as f:
            tr = json.load(f)
        repetitions_seen.append(tr["repetitions"])
        for res in results:
            if res["experiment"] == e["experiment"]:
                res["noise"] = tr["noise"]
    single = [r for r in results if len(r["parameters"]) == 1]
    multi = [r for r in results if len(r["parameters"]) > 1]
    held = None if args.no_held_out else held_out_upstream(exe, os.path.join(out_dir, "held-out"))

    groups = [(c, (c,)) for c in gen.CLASSES] + [
        ("**falling**", gen.FALLING), ("**flat**", ("flat",)), ("**growing**", gen.GROWING),
        ("**all**", gen.CLASSES)]
    mp_classes = []
    for r in multi:
        for g in r["regions"]:
            if g["class"] not in mp_classes:
                mp_classes.append(g["class"])
    mgroups = [(c, (c,)) for c in mp_classes] + [("**all**", tuple(mp_classes))]
    sources = coverage_sources(single, multi, held or {"rows": []})

    if args.markdown_section:
        t = timing(exe)
        print(markdown_section({"gen": gen, "single": single, "multi": multi, "held": held,
                                "timing": t, "version": extrap.__version__, "seed": args.seed,
                                "mgroups": mgroups, "sources": sources,
                                "repetitions": repetitions_seen}))
        print(f"extrap-compare: the whole comparison took {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
        write_json(args, out_dir, results, held, t)
        return

    p = print
    p(f"# scalewise vs Extra-P {extrap.__version__} on generated experiments\n")
    p(f"Seed {args.seed}; {len(single)} single-parameter experiments "
      f"({sum(len(r['regions']) for r in single)} regions) and {len(multi)} two-parameter ones "
      f"({sum(len(r['regions']) for r in multi)} regions) in `{out_dir}`. scalewise: `{exe}`. "
      "Relative error = |predicted − true| / true. *miss*: region without a prediction. "
      "*Extra-P*: its Default modeler; *Extra-P -exp*: the same with allow_negative_exponents.\n")

    for i, where in enumerate(("A = 4× largest measured p", "B = 16× largest measured p")):
        p(f"## Single parameter: error at {where}\n")
        p(table(error_header("A" if i == 0 else "B"), error_rows(single, i, groups)))
        p()
    p("## Single parameter: all regions\n")
    p(summary_rows(single))
    p()
    p("## Single parameter: dominant region (largest predicted time vs largest true time)\n")
    p(dominant_table(single))
    p()

    p("## Two parameters (p, n): A = (4× p, 2× n), B = (16× p, 4× n)\n")
    refused = [r for r in multi if r["scalewise_refusal"]]
    if refused:
        p(f"scalewise refused the two-parameter prediction points of {len(refused)} of {len(multi)} "
          f"experiments (their regions count as missing), e.g. `{refused[0]['scalewise_refusal']}`\n")
    for i, where in enumerate(("A", "B")):
        p(f"### Error at {where}\n")
        p(table(error_header(where), error_rows(multi, i, mgroups)))
        p()
    p("### All regions\n")
    p(summary_rows(multi))
    p()
    p("### Dominant region\n")
    p(dominant_table(multi))
    p()

    p(f"## scalewise's 90 % ranges (RANGE_Q = {RANGE_Q:g})\n")
    p("*in range*: share of true times inside [time_low_s, time_high_s]; *width*: high/low; "
      "q = |ln(true/pred)| / (ln(high/pred) / RANGE_Q), the RANGE_Q that would just cover it.\n")
    p("### One parameter\n")
    p(coverage_table(single, groups))
    p()
    p("### Two parameters\n")
    p(coverage_table(multi, mgroups))
    p()
    p("### By source\n")
    p(coverage_source_table(sources))
    p()

    if held is not None:
        p("## Extra-P's test files, largest process count held out\n")
        p(f"{len(held['files'])} files used; {skipped_line(held)} {order_line(held)} "
          f"Reduced files in `{out_dir}/held-out`.\n")
        for group, title in (("single", "One parameter"), ("multi", "Two to four parameters")):
            rows = [r for r in held["rows"] if r["group"] == group]
            if rows:
                p(f"### {title}\n")
                p(held_out_head(held, group) + "\n")
                p(held_out_table(rows))
                p()
        p("### Per file (median relative error)\n")
        p(held_out_detail(held))
        p()

    if not args.no_census:
        p("## Census of tests/data/extrap-upstream (Extra-P's test data)\n")
        head, tab = census(exe)
        p(head + "\n")
        p(tab)
        p()

    t = timing(exe)
    p(f"## Timing on tests/data/extrap/app.txt ({t['regions']} regions)\n")
    p(timing_table(t, extrap.__version__))
    line = f"\nExtra-P / scalewise = **{t['extrap'] / t['scalewise']:.1f}×** (in-process)"
    if t["extrap_command"] is not None:
        line += f", **{t['extrap_command'] / t['scalewise']:.1f}×** (its command)"
    p(line + f". Whole comparison took {time.perf_counter() - started:.0f} s.")
    write_json(args, out_dir, results, held, t)


def write_json(args, out_dir, results, held, t):
    if not args.json:
        return
    with open(args.json, "w") as f:
        json.dump({"seed": args.seed, "out_dir": out_dir, "range_q": RANGE_Q, "results": results,
                   "held_out": held, "timing": t}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
