#!/usr/bin/env python3
"""How far can a forecast from 3 or 4 small runs go on the validation corpora?

Issue 31 asks for a pooled median error of at most 15 % and a 90th percentile of at most
60 %, over all horizons. The calculator's forecast (src/model/fit/forecast.rs) gives
17.3 % and 73.4 % (K = 3 and 4 pooled; VALIDATION.md). This script tries three other
families on the same cuts, each judged the way `scalewise validate` judges its candidates
(leave-one-source-out where anything is learned):

  frontier  the forecast made slower the further out, times h^beta: how low the 90th
            percentile goes and what the median pays for it;
  learned   corrections of the forecast learned on the other sources (least squares and
            least absolute deviations of ln(measured/forecast) on the horizon and the runs'
            slopes), applied to the held-out source;
  analogs   the median future of the 5-40 most alike cuts of other sources (by the slopes of
            their measured runs), alone and blended with the forecast.

It re-implements the forecast in Python for speed of trial; `check` (run first by every other
command, and by `make test`) compares its figures with `scalewise validate`'s for the
calculator's rule and stops if they differ. Standard library only. Usage:

    scripts/forecast-limits.py [check|frontier|learned|analogs|all] [--scalewise PATH]
"""

import collections
import csv
import json
import math
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPORA = [
    ROOT / "validation/corpus.csv",
    ROOT / "validation/corpus_wide.csv",
    ROOT / "../shared/validation/strong_scaling_dev.csv",
    ROOT / "../shared/validation/strong_scaling_more.csv",
]
KS = (3, 4)
# The calculator's rule (forecast::RULE, forecast::ACROSS_NODES).
W0, C, GAMMA = 0.6, 1.0, 0.7


def source_of(text, groups):
    """The unit held out: a repository (or the first word), or its group."""
    s = text.strip()
    if s.startswith("github:"):
        rest = s[len("github:"):]
        for sep in "@: ":
            rest = rest.split(sep)[0]
        s = "github:" + rest
    else:
        s = s.split()[0] if s.split() else ""
    return groups.get(s, s)


def load(missing_ok=False):
    groups = {r["repository"]: r["group"] for r in csv.DictReader(open(ROOT / "validation/source_groups.csv"))}
    out = []
    for path in CORPORA:
        if not path.exists():
            if missing_ok:
                print(f"skipped: {path} is not there")
                sys.exit(0)
            sys.exit(f"{path} is not there: the figures need every corpus `make validate` reads")
        series = collections.OrderedDict()
        for r in csv.DictReader(open(path)):
            s = series.setdefault(r["series_id"], {"id": r["series_id"], "source": source_of(r["source"], groups), "runs": {}})
            run = s["runs"].setdefault(int(r["np"]), [0.0, 0, None])
            run[0] += float(r["time_s"])
            run[1] += 1
            if run[2] is None and r["nodes"].strip():
                run[2] = int(r["nodes"])
        for s in series.values():
            counts = sorted(s["runs"])
            s["pts"] = [(n, s["runs"][n][0] / s["runs"][n][1]) for n in counts]
            s["nodes"] = [s["runs"][n][2] for n in counts]
            per = [-(-n // max(d, 1)) for (n, _), d in zip(s["pts"], s["nodes"]) if d is not None]
            s["per_node"] = max(per) if per else None
            out.append(s)
    return out


def cuts(series, k):
    return [
        {"s": s, "fit": s["pts"][:k], "fit_nodes": s["nodes"][:k], "rest": s["pts"][k:]}
        for s in series
        if len(s["pts"]) > k
    ]


def quantile(xs, q):
    """Nearest rank, as `validation::quantile`."""
    xs = sorted(xs)
    if not xs:
        return 0.0
    return xs[min(max(math.ceil(q * len(xs)), 1), len(xs)) - 1]


def slope(a, b):
    return -math.log(b[1] / a[1]) / math.log(b[0] / a[0])


def serial_part(pts):
    """The least-squares a of T = a + b/n, at least 0 and at most T(k)."""
    xs = [(1 / n, t) for n, t in pts]
    mx = sum(x for x, _ in xs) / len(xs)
    my = sum(y for _, y in xs) / len(xs)
    sxx = sum((x - mx) ** 2 for x, _ in xs)
    a = 0.0
    if sxx > 0:
        b = sum((x - mx) * (y - my) for x, y in xs) / sxx
        a = max(my - b * mx, 0.0)
    return min(a, pts[-1][1])


def law(pts):
    k, tk = pts[-1]
    s0, s1 = slope(pts[0], pts[1]), slope(pts[-2], pts[-1])
    a = serial_part(pts)
    b = (tk - a) * k
    w = min(max(W0 - C * (s1 - s0), 0.0), 1.0)
    alpha = min(max(s1, 0.0), 1.0)

    def at(n):
        trend = tk * (k / n) ** alpha
        if w <= 0:
            return trend
        return math.exp(w * math.log(a + b / n) + (1 - w) * math.log(trend))

    return at


def node_layout(cut):
    spread = [-(-n // d) for (n, _), d in zip(cut["fit"], cut["fit_nodes"]) if d is not None and d > 1]
    per = cut["s"]["per_node"] if cut["s"]["per_node"] is not None else (max(spread) if spread else None)
    if per is not None:
        inside = all((n <= per) if d is None else d == 1 for (n, _), d in zip(cut["fit"], cut["fit_nodes"]))
    else:
        inside = all(d == 1 for d in cut["fit_nodes"])
    return per, inside


def forecast(cut, n):
    at = law(cut["fit"])
    per, inside = node_layout(cut)
    if inside and per is not None and per >= 1 and math.ceil(n / per - 1e-9) > 1:
        return at(per) * (per / n) ** GAMMA
    return at(n)


def outcome(cut, n, t, p):
    return {"err": abs(p - t) / t, "src": cut["s"]["source"]}


def headline(outs):
    by = collections.defaultdict(list)
    for o in outs:
        by[o["src"]].append(o["err"])
    errs = [o["err"] for o in outs]
    med, p90 = quantile(errs, 0.5), quantile(errs, 0.9)
    p80 = quantile([quantile(v, 0.5) for v in by.values()], 0.8)
    return {"predictions": len(errs), "median": med, "p90": p90, "source_p80": p80, "score": med + p80}


def show(name, h):
    print(f"| {name} | {h['predictions']} | {100 * h['median']:.1f} % | {100 * h['p90']:.1f} % | {100 * h['source_p80']:.1f} % | {h['score']:.3f} |")


def table_head():
    print("| predictor | predictions | median error | 90th percentile | 80th pct. of source medians | score |")
    print("|---|---|---|---|---|---|")


def predictions(series, predict):
    """predict(cut, n, k_index) -> time, over every cut of K = 3 and 4."""
    outs = []
    for k in KS:
        for c in cuts(series, k):
            for n, t in c["rest"]:
                outs.append(outcome(c, n, t, predict(c, n)))
    return outs


def check(series, scalewise):
    mine = headline(predictions(series, forecast))
    answer = json.loads(subprocess.run([scalewise, "validate"], capture_output=True, check=True, text=True, cwd=ROOT).stdout)
    winner = next(c for c in answer["candidates"] if c["name"] == answer["selection"]["winner"])
    theirs = {"predictions": winner["predictions"], "median": winner["median_rel_error"], "p90": winner["p90_rel_error"], "source_p80": winner["source_p80"]}
    for key, value in theirs.items():
        if abs(mine[key] - value) > 1e-9 * max(1.0, abs(value)):
            sys.exit(f"this script's forecast differs from the calculator's ({key}: {mine[key]} here, {value} in `scalewise validate`): "
                     "bring W0, C, GAMMA and the rule in line with src/model/fit/forecast.rs")
    print(f"check: the script's forecast gives the calculator's figures ({mine['predictions']} predictions, median "
          f"{100 * mine['median']:.1f} %, 90th percentile {100 * mine['p90']:.1f} %)\n")


def frontier(series):
    print("The forecast times h^beta (h: the horizon):\n")
    table_head()
    for beta in (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3):
        outs = predictions(series, lambda c, n, b=beta: forecast(c, n) * (n / c["fit"][-1][0]) ** b)
        show(f"beta = {beta}", headline(outs))
    print()


def solve(a, b):
    """Gaussian elimination with partial pivoting, for the small normal equations below."""
    n = len(a)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        if abs(m[i][i]) < 1e-12:
            m[i][i] = 1e-12
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                for j in range(i, n + 1):
                    m[r][j] -= f * m[i][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def weighted_fit(rows, absolute):
    """Coefficients of ln(measured/forecast) on the features, each source weighted by one over
    the root of its rows (as the ranges are); least absolute deviations by reweighting."""
    count = collections.Counter(r["src"] for r in rows)
    d = len(rows[0]["f"])
    beta = [0.0] * d
    for _ in range(30 if absolute else 1):
        a = [[0.0] * d for _ in range(d)]
        b = [0.0] * d
        for r in rows:
            w = 1 / math.sqrt(count[r["src"]])
            if absolute:
                w /= max(abs(r["y"] - sum(x * y for x, y in zip(beta, r["f"]))), 1e-3)
            for i in range(d):
                b[i] += w * r["f"][i] * r["y"]
                for j in range(d):
                    a[i][j] += w * r["f"][i] * r["f"][j]
        for i in range(d):
            a[i][i] += 1e-6
        beta = solve(a, b)
    return beta


def learned(series):
    features = {
        "ln h": lambda x: [1.0, x["lh"]],
        "ln h, slope": lambda x: [1.0, x["lh"], x["lh"] * x["s1"], x["s1"]],
        "ln h, slope, rise": lambda x: [1.0, x["lh"], x["lh"] * x["s1"], x["lh"] * x["rise"], x["s1"], x["rise"]],
    }
    print("Corrections learned on the other sources, e^(beta . features) times the forecast:\n")
    table_head()
    for name, feat in features.items():
        rows = []
        for k in KS:
            for c in cuts(series, k):
                pts = c["fit"]
                s0, s1 = slope(pts[0], pts[1]), slope(pts[-2], pts[-1])
                for n, t in c["rest"]:
                    p = forecast(c, n)
                    x = {"lh": math.log(n / pts[-1][0]), "s1": s1, "rise": s1 - s0}
                    rows.append({"f": feat(x), "y": math.log(t / p), "p": p, "t": t, "src": c["s"]["source"]})
        for absolute in (False, True):
            outs = []
            for src in sorted({r["src"] for r in rows}):
                beta = weighted_fit([r for r in rows if r["src"] != src], absolute)
                for r in rows:
                    if r["src"] == src:
                        p = r["p"] * math.exp(sum(x * y for x, y in zip(beta, r["f"])))
                        outs.append({"err": abs(p - r["t"]) / r["t"], "src": src})
            show(f"{'least absolute deviations' if absolute else 'least squares'} on {name}", headline(outs))
    print()


def analogs(series):
    print("Analogs: the median future T(n)/T(k) of the most alike cuts of other sources:\n")
    table_head()
    for m in (5, 15, 40):
        for blend in (1.0, 0.5):
            outs = []
            for k in KS:
                cs = cuts(series, k)
                shape = [[slope(c["fit"][i], c["fit"][i + 1]) for i in range(k - 1)] for c in cs]
                future = [[(math.log(n / c["fit"][-1][0]), math.log(t / c["fit"][-1][1])) for n, t in c["rest"]] for c in cs]
                for i, c in enumerate(cs):
                    kk, tk = c["fit"][-1]
                    for n, t in c["rest"]:
                        lh = math.log(n / kk)
                        near = []
                        for j, d in enumerate(cs):
                            if d["s"]["source"] == c["s"]["source"] or future[j][-1][0] < lh:
                                continue
                            prev = (0.0, 0.0)
                            for x, y in future[j]:
                                if lh <= x:
                                    y_at = prev[1] + (lh - prev[0]) / (x - prev[0]) * (y - prev[1]) if x > prev[0] else y
                                    break
                                prev = (x, y)
                            near.append((sum((a - b) ** 2 for a, b in zip(shape[i], shape[j])), y_at))
                        base = forecast(c, n)
                        if len(near) < 3:
                            p = base
                        else:
                            near.sort()
                            ys = sorted(y for _, y in near[:m])
                            p = math.exp(blend * (math.log(tk) + ys[len(ys) // 2]) + (1 - blend) * math.log(base))
                        outs.append(outcome(c, n, t, p))
            show(f"{m} analogs{'' if blend == 1.0 else f', half and half with the forecast'}", headline(outs))
    print()


def main(argv):
    what = "all"
    scalewise = str(ROOT / "target/release/scalewise")
    args = iter(argv)
    for a in args:
        if a == "--scalewise":
            scalewise = next(args)
        elif a in ("check", "frontier", "learned", "analogs", "all"):
            what = a
        else:
            sys.exit(__doc__)
    series = load(missing_ok=what == "check")
    check(series, scalewise)
    if what in ("frontier", "all"):
        frontier(series)
    if what in ("learned", "all"):
        learned(series)
    if what in ("analogs", "all"):
        analogs(series)


if __name__ == "__main__":
    main(sys.argv[1:])
