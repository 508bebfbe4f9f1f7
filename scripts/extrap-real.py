#!/usr/bin/env python3
"""scalewise against Extra-P 4.2.5 on real multi-parameter experiments, the largest value of
every parameter held out (issue 61, item 4). Prints one Markdown section.

    scripts/setup-extrap.sh && cargo build --release --locked
    scripts/extrap-real.py [--scalewise PATH] [--work-dir DIR] [--json FILE] [--detail]

For each set in SETS (real measurements only: no generated or hand-made test file):
1. The file is read with Extra-P's own reader, keeping every repetition.
2. Every point at which some parameter takes its largest value is held out; the rest (the
   points where no parameter is at its maximum: 4 x 4 of a 5 x 5 grid) is written as JSON
   Lines, one metric (time, else the first).
3. Both tools model the reduced file and predict the held-out points: scalewise with
   `scalewise bottlenecks FILE --predict P:N,... --compact` (scripts/extrap-compare.py's
   scalewise_predictions, inclusive values put back where scalewise fits own times);
   Extra-P with its Default modeler (and, as "Extra-P -exp", with negative exponents allowed).
4. The truth is the median of the removed repetitions in the full file. The error of a
   prediction is |pred - truth| / truth. Call paths whose truth is under 0.1 % of the largest
   call path's truth at that point (the run's time when the file is a tree with its root) are
   left out, as are truths at or below zero; a missing or non-finite prediction counts as an
   infinite error.
Per set and tool: the median and p90 of the errors (linear interpolation), and how many
predictions are within 10 %.
"""
import argparse
import importlib.util
import json
import math
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
UPSTREAM = os.path.join(ROOT, "tests", "data", "extrap-upstream")

# (name, file under tests/data/extrap-upstream, reader, what it is)
SETS = [
    ("RELeARN", "text/mpa/relearn_data.txt", "text",
     "measurements of the RELeARN code as Extra-P 4.2.5 ships them: p = 32 .. 512 processes x "
     "n = 5000 .. 9000 (its second parameter), 25 points, 2 repetitions each, 14 call paths"),
    ("mm", "cubeset/multi_parameter", "cube",
     "Score-P profiles of a small matrix-multiplication program as Extra-P 4.2.5 ships them "
     "(27 Cube runs, x, y, z each 1, 10 and 25, one repetition, 4 call paths timed in "
     "microseconds): holding out each parameter's largest value leaves 2 x 2 x 2 points to fit"),
]
MIN_SHARE = 0.001
TOOLS = [("scalewise", "scalewise"), ("extrap", "Extra-P"), ("extrap_neg", "Extra-P -exp")]


def compare_module():
    sys.dont_write_bytecode = True
    path = os.path.join(ROOT, "scripts", "extrap-compare.py")
    spec = importlib.util.spec_from_file_location("extrap_compare", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def held_out(cmp, rel, reader, work_dir):
    """The reduced JSON Lines file and the truth {point: {callpath: median}} at every point
    where some parameter is at its largest value."""
    exp = cmp.read_upstream(rel, reader)
    names = [str(p.name) for p in exp.parameters]
    tops = [max(float(c[i]) for c in exp.coordinates) for i in range(len(names))]
    metric = cmp.pick_metric([str(m.name) for m in exp.metrics])
    path = os.path.join(work_dir, rel.replace("/", "__") + ".held-max.jsonl")
    truth, lines = cmp.write_held_out(exp, metric, lambda coord: any(v == t for v, t in zip(coord, tops)), path)
    return names, metric, path, truth, len({tuple(line["params"].values()) for line in lines})


def evaluate(cmp, exe, name, rel, reader, work_dir):
    names, metric, path, truth, fitted = held_out(cmp, rel, reader, work_dir)
    keys = sorted(truth)
    points = [dict(zip(names, k)) for k in keys]
    process = names[cmp.process_index(names)]
    extra = ("--parameter", process)
    rc, out, msg = cmp.run_scalewise(exe, ["bottlenecks", path, "--compact", *extra])
    if rc != 0 or out is None:
        sys.exit(f"extrap-real: scalewise refused {path}: {msg}")
    order = list(out.get("parameters") or names)
    sw, _, _, refusal, _ = cmp.scalewise_predictions(exe, path, names, points, order, extra)
    if refusal:
        sys.exit(f"extrap-real: scalewise refused a prediction: {refusal}")
    ep, ep_err = cmp.extrap_held_out(path, metric, names, keys, False)
    en, en_err = cmp.extrap_held_out(path, metric, names, keys, True)
    preds = {"scalewise": sw, "extrap": ep, "extrap_neg": en}
    rows = []
    for key in keys:
        top = max(truth[key].values())
        for cp, t in truth[key].items():
            if t <= 0 or t < MIN_SHARE * top:
                continue
            row = {"point": dict(zip(names, key)), "callpath": cp, "true": t}
            for tool, _ in TOOLS:
                p = preds[tool].get(cp, {}).get(key)
                row[tool] = p
                row[tool + "_error"] = abs(p - t) / t if p is not None and math.isfinite(p) else math.inf
            rows.append(row)
    return {"set": name, "file": rel, "parameters": names, "metric": metric, "fitted_points": fitted,
            "held_points": len(keys), "rows": rows, "extrap_error": ep_err, "extrap_neg_error": en_err}


def pct(x):
    if math.isinf(x):
        return "∞"
    v = 100 * x
    return f"{v:.1f} %" if v < 10 else f"{v:.0f} %"


def markdown(results, detail, quantile):
    out = ["", "### Real multi-parameter experiments, the largest value of every parameter held out", "",
           "`scripts/extrap-real.py` (method in its docstring): every point at which some parameter "
           "is at its largest value is held out and predicted from the others; errors over the "
           f"call paths holding at least {100 * MIN_SHARE:g} % of the largest call path's time there.", ""]
    for r in results:
        set_line = next(s[3] for s in SETS if s[0] == r["set"])
        out += [f"**{r['set']}** (`tests/data/extrap-upstream/{r['file']}`): {set_line}. "
                f"Fitted on {r['fitted_points']} points, {r['held_points']} held out, "
                f"{len(r['rows'])} call path × point pairs.", "",
                "| tool | median error | p90 error | within 10 % |", "| --- | --- | --- | --- |"]
        for tool, label in TOOLS:
            errs = [row[tool + "_error"] for row in r["rows"]]
            within = sum(e <= 0.1 for e in errs)
            out.append(f"| {label} | {pct(quantile(errs, 0.5))} | {pct(quantile(errs, 0.9))} | "
                       f"{within} ({100 * within / len(errs):.0f} %) |")
        out.append("")
        if detail:
            out += ["| call path | point | truth | " + " | ".join(l for _, l in TOOLS) + " |",
                    "| --- | --- | --- | " + " | ".join("---" for _ in TOOLS) + " |"]
            for row in sorted(r["rows"], key=lambda x: (x["callpath"], tuple(x["point"].values()))):
                pt = ":".join(f"{v:g}" for v in row["point"].values())
                cells = [f"{row[t]:.4g} ({pct(row[t + '_error'])})" if row[t] is not None else "—"
                         for t, _ in TOOLS]
                out.append(f"| {row['callpath'].strip()} | {pt} | {row['true']:.4g} | " + " | ".join(cells) + " |")
            out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scalewise", default=os.path.join(ROOT, "target", "release", "scalewise"))
    ap.add_argument("--work-dir", default=os.path.join(ROOT, "target", "extrap-real"))
    ap.add_argument("--json", help="write every row here")
    ap.add_argument("--detail", action="store_true", help="print every prediction")
    args = ap.parse_args()
    try:
        import extrap  # noqa: F401
    except ImportError:
        venv = os.path.join(ROOT, ".venv-extrap", "bin", "python")
        if os.path.exists(venv) and not os.environ.get("EXTRAP_REAL_REEXEC"):
            os.environ["EXTRAP_REAL_REEXEC"] = "1"
            os.execv(venv, [venv, os.path.abspath(__file__)] + sys.argv[1:])
        sys.exit("extrap-real: Extra-P is not importable; run scripts/setup-extrap.sh first")
    cmp = compare_module()
    os.makedirs(args.work_dir, exist_ok=True)
    results = [evaluate(cmp, args.scalewise, *s[:3], args.work_dir) for s in SETS]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)
    print(markdown(results, args.detail, cmp.quantile))


if __name__ == "__main__":
    main()
