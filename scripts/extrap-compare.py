#!/usr/bin/env python3
"""Measures scalewise against Extra-P 4.2.5 on experiments with known truth, and prints
Markdown tables to stdout.

    scripts/setup-extrap.sh                       # once: Extra-P 4.2.5 into .venv-extrap/
    cargo build --release --locked
    scripts/extrap-compare.py [--scalewise PATH] [--out-dir DIR] [--seed N] [--json FILE]

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
4. A census of tests/data/extrap-upstream/: does `scalewise bottlenecks FILE --compact` exit 0,
   and how many of its regions have no `error`, next to Extra-P's loads.json.
5. Timing on tests/data/extrap/app.txt (24 regions): Extra-P reading and modelling the whole
   experiment in-process (median of 5, after one warm-up; the import of Extra-P not counted)
   against one `scalewise bottlenecks app.txt --predict 256,1024 --compact` process (median of 5).
"""
import argparse
import importlib.util
import json
import logging
import math
import os
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


def scalewise_predictions(exe, path, params, points):
    """({callpath: {point key: time}}, {callpath: error}, refusal message or None, seconds)."""
    if len(params) == 1:
        spec = ",".join(str(pt[params[0]]) for pt in points)
    else:
        spec = ",".join(":".join(str(pt[p]) for p in params) for pt in points)
    t0 = time.perf_counter()
    rc, out, msg = run_scalewise(exe, ["bottlenecks", path, "--predict", spec, "--compact"])
    seconds = time.perf_counter() - t0
    if rc != 0 or out is None:
        return {}, {}, f"exit {rc}: {msg}", seconds
    wanted = {point_key(params, pt) for pt in points}
    preds, errors = {}, {}
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
    return preds, errors, None, seconds


# -------------------------------------------------------------------------------- Extra-P

def extrap_model(path, negative_exponents=False):
    """Reads an Extra-P text file and models every call path of METRIC with the default
    model generator. Returns (experiment, {callpath name: Function})."""
    from extrap.fileio.file_reader.text_file_reader import TextFileReader
    from extrap.modelers.model_generator import ModelGenerator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        experiment = TextFileReader().read_experiment(path)
        generator = ModelGenerator(experiment)          # modeler "Default", mean of repetitions
        if negative_exponents:
            modeler = generator.modeler
            target = getattr(modeler, "single_parameter_modeler", None) or modeler
            target.allow_negative_exponents = True
        generator.model_all()
    functions = {}
    for (callpath, metric), model in generator.models.items():
        if metric.name == METRIC:
            functions[callpath.name] = model.hypothesis.function
    return experiment, functions


def extrap_predictions(path, params, points, negative_exponents=False):
    t0 = time.perf_counter()
    experiment, functions = extrap_model(path, negative_exponents)
    order = [str(p.name) for p in experiment.parameters]
    preds = {}
    for cp, fn in functions.items():
        for pt in points:
            if len(order) == 1:
                v = fn.evaluate(float(pt[order[0]]))
            else:
                v = fn.evaluate([float(pt[name]) for name in order])
            v = float(v)
            if math.isfinite(v):
                preds.setdefault(cp, {})[point_key(params, pt)] = v
    return preds, time.perf_counter() - t0


# ------------------------------------------------------------------------------ statistics

def quantile(xs, q):
    xs = sorted(xs)
    if not xs:
        return math.nan
    k = (len(xs) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
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
    sw, sw_err, refusal, sw_s = scalewise_predictions(exe, path, params, points)
    ep, ep_s = extrap_predictions(path, params, points)
    en, en_s = extrap_predictions(path, params, points, negative_exponents=True)
    preds = {"scalewise": sw, "extrap": ep, "extrap_neg": en}
    regions = []
    for r in truth["regions"]:
        row = {"callpath": r["callpath"], "class": r["class"], "growing": r["growing"],
               "formula": r["formula"], "true": [], "pred": {k: [] for k, _ in TOOLS},
               "scalewise_error": sw_err.get(r["callpath"])}
        for pinfo in truth["predict"]:
            key = point_key(params, pinfo["point"])
            row["true"].append(pinfo["times"][r["callpath"]])
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


# --------------------------------------------------------------------------------- timing

def timing(exe, repeats=5):
    args = ["bottlenecks", TIMING_FILE, "--predict", "256,1024", "--compact"]
    sw = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([exe] + args, capture_output=True, check=True)
        sw.append(time.perf_counter() - t0)
    extrap_model(TIMING_FILE)  # warm-up (lazy imports inside Extra-P)
    ep = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        _, fns = extrap_model(TIMING_FILE)
        ep.append(time.perf_counter() - t0)
    return len(fns), statistics.median(sw), statistics.median(ep)


# ----------------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scalewise", default=os.path.join(ROOT, "target", "release", "scalewise"),
                    help="the scalewise binary (default: %(default)s)")
    ap.add_argument("--out-dir", help="where to write the generated experiments (default: a new temp dir)")
    ap.add_argument("--seed", type=int, default=2024, help="generator seed (default: %(default)s)")
    ap.add_argument("--json", metavar="FILE", help="also write every per-region result as JSON")
    ap.add_argument("--no-census", action="store_true", help="skip the census of tests/data/extrap-upstream")
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

    started = time.perf_counter()
    out_dir = args.out_dir or tempfile.mkdtemp(prefix="extrap-compare-")
    gen = load_generator()
    index = gen.generate(out_dir, args.seed)
    results = [compare_experiment(exe, out_dir, e) for e in index]
    single = [r for r in results if len(r["parameters"]) == 1]
    multi = [r for r in results if len(r["parameters"]) > 1]

    p = print
    p(f"# scalewise vs Extra-P {extrap.__version__} on generated experiments\n")
    p(f"Seed {args.seed}; {len(single)} single-parameter experiments "
      f"({sum(len(r['regions']) for r in single)} regions) and {len(multi)} two-parameter ones "
      f"({sum(len(r['regions']) for r in multi)} regions) in `{out_dir}`. scalewise: `{exe}`. "
      "Relative error = |predicted − true| / true. *miss*: region without a prediction. "
      "*Extra-P*: its Default modeler; *Extra-P -exp*: the same with allow_negative_exponents.\n")

    groups = [(c, (c,)) for c in gen.CLASSES] + [
        ("**falling**", gen.FALLING), ("**flat**", ("flat",)), ("**growing**", gen.GROWING),
        ("**all**", gen.CLASSES)]
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
    mp_classes = []
    for r in multi:
        for g in r["regions"]:
            if g["class"] not in mp_classes:
                mp_classes.append(g["class"])
    mgroups = [(c, (c,)) for c in mp_classes] + [("**all**", tuple(mp_classes))]
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

    if not args.no_census:
        p("## Census of tests/data/extrap-upstream (Extra-P's test data)\n")
        head, tab = census(exe)
        p(head + "\n")
        p(tab)
        p()

    n_fns, sw_t, ep_t = timing(exe)
    p("## Timing on tests/data/extrap/app.txt (24 regions)\n")
    p(table(["tool", "what", "median seconds"], [
        ["scalewise", "one `bottlenecks --predict 256,1024 --compact` process", f"{sw_t:.4f}"],
        [f"Extra-P {extrap.__version__}", f"read + ModelGenerator.model_all() of {n_fns} call paths, in-process",
         f"{ep_t:.4f}"]]))
    p(f"\nExtra-P / scalewise = **{ep_t / sw_t:.1f}×**. Whole comparison took "
      f"{time.perf_counter() - started:.0f} s.")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": args.seed, "out_dir": out_dir, "results": results}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
