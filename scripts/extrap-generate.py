#!/usr/bin/env python3
"""Generates Extra-P experiments whose truth is known (standard library only, seeded: the
same seed gives byte-identical files on every machine), for scripts/extrap-compare.py.

    scripts/extrap-generate.py [--out-dir DIR] [--seed 2024]     # default DIR: target/extrap-generated

Writes, in Extra-P's text format (PARAMETER, POINTS, REGION, METRIC, DATA; as
tests/data/extrap/app.txt), metric "time", 5 points x 5 repetitions each:

- sp01.txt .. sp12.txt: one parameter p (the process count), 5 to 12 regions each (90 in
  all). The process counts vary by experiment: doublings from 1..16 up to 64..1024, one
  ladder 16, 32, 48, 64, 80 and one 6..96 (SP_PLAN below). Every region is one class:
      amdahl    c0 + c1/p                      (falling; strong scaling with a serial part)
      power     c * p^-e, e in [0.6, 0.95]     (falling; imperfect strong scaling)
      flat      c                              (constant)
      log       c0 + c1*log2(p)                (growing)
      sqrt      c0 + c1*p^(1/2)                (growing)
      cbrt_log  c0 + c1*p^(1/3)*log2(p)        (growing)
      linear    c0 + c1*p                      (growing)
      p_log     c0 + c1*p*log2(p)              (growing)
  Each experiment has a scenario that fixes which region dominates at A = 4x and B = 16x
  the largest measured p, with at least a 15 % lead over the runner-up there:
      falling        a falling region dominates at A and at B
      flat           a constant region dominates at A and at B
      overtake_16x   a falling region dominates at A, a growing one at B
      overtake_4x    a growing region dominates at A and B (but not at the measured points)
  In every overtake scenario the growing region is at most 80 % of the largest region at
  the largest measured p, so the measurements alone do not show it on top.
- mp01.txt .. mp04.txt: two parameters p and n (problem size), 5 x 5 points, 6 to 8 regions
  with terms such as c*n/p, c*n*log2(p), c*p^(1/2), c*n^(1/2), c*(n/p)^(2/3), c*log2(p);
  truth evaluated at A = (4x p, 2x n) and B = (16x p, 4x n), again with a 15 % lead.

Next to each experiment, NAME.truth.json holds the exact function of every region:
    time = constant + sum(coefficient * p^a * log2(p)^b * n^c * log2(n)^d)
with terms [{"coefficient", "p": [a, b], "n": [c, d]}] (n only in two-parameter files), its
class, whether it grows, the prediction points, the true times there and the dominant region
at each. index.json lists all experiments. The repetitions are true time x (1 + s*g), g a
standard normal draw (clipped to +-3), s the experiment's noise level (1 to 5 %).
"""
import argparse
import json
import math
import os
import random

FALLING = ("amdahl", "power")
GROWING = ("log", "sqrt", "cbrt_log", "linear", "p_log")
CLASSES = FALLING + ("flat",) + GROWING
MARGIN = 1.15          # the dominant region leads the runner-up by at least this factor
HIDDEN = 0.8           # an overtaking region is at most this share of the top one at max p

# Call paths to draw from (names only: a name says nothing about the region's class).
NAMES = [
    "main->init->read_input", "main->init->partition", "main->init->setup_comm",
    "main->solve->assemble", "main->solve->spmv", "main->solve->precond",
    "main->solve->precond->smooth", "main->solve->precond->restrict",
    "main->solve->precond->coarse", "main->solve->dot", "main->solve->allreduce",
    "main->solve->halo_exchange", "main->solve->halo_exchange->pack",
    "main->solve->halo_exchange->wait", "main->solve->update", "main->solve->check",
    "main->solve->fft", "main->solve->fft->transpose", "main->solve->alltoall",
    "main->balance", "main->balance->migrate", "main->output->gather",
    "main->output->write", "main->output->checkpoint", "main->finalize",
    "main->particles->push", "main->particles->sort", "main->particles->exchange",
    "main->io->metadata", "main->timestep->barrier",
]

# (process counts, regions, scenario, noise) of the single-parameter experiments.
SP_PLAN = [
    ([2, 4, 8, 16, 32], 6, "overtake_16x", 0.01),
    ([4, 8, 16, 32, 64], 8, "falling", 0.02),
    ([8, 16, 32, 64, 128], 10, "overtake_16x", 0.03),
    ([16, 32, 64, 128, 256], 12, "overtake_4x", 0.02),
    ([32, 64, 128, 256, 512], 5, "falling", 0.05),
    ([64, 128, 256, 512, 1024], 9, "overtake_16x", 0.04),
    ([4, 8, 16, 32, 64], 7, "flat", 0.03),
    ([2, 4, 8, 16, 32], 11, "overtake_4x", 0.05),
    ([1, 2, 4, 8, 16], 5, "overtake_16x", 0.02),
    ([16, 32, 48, 64, 80], 6, "falling", 0.01),
    ([6, 12, 24, 48, 96], 5, "overtake_16x", 0.04),
    ([8, 16, 32, 64, 128], 6, "falling", 0.03),
]

# Two-parameter classes: (name, [(a, b, c, d), ...] exponents of p, log2 p, n, log2 n, growing in p).
MP_CLASSES = [
    ("n/p", [(-1, 0, 1, 0)], False),
    ("n*log2(n)/p", [(-1, 0, 1, 1)], False),
    ("(n/p)^(2/3)", [(-2 / 3, 0, 2 / 3, 0)], False),
    ("n/p+log2(p)", [(-1, 0, 1, 0), (0, 1, 0, 0)], True),
    ("n*log2(p)", [(0, 1, 1, 0)], True),
    ("sqrt(p)", [(0.5, 0, 0, 0)], True),
    ("sqrt(n)", [(0, 0, 0.5, 0)], False),
    ("log2(p)", [(0, 1, 0, 0)], True),
    ("p", [(1, 0, 0, 0)], True),
    ("flat", [], False),
]

MP_PLAN = [
    ([4, 8, 16, 32, 64], [1000, 2000, 4000, 8000, 16000], 6, 0.02),
    ([2, 4, 8, 16, 32], [64, 128, 256, 512, 1024], 7, 0.03),
    ([8, 16, 32, 64, 128], [100000, 200000, 300000, 400000, 500000], 8, 0.01),
    ([16, 32, 64, 128, 256], [4096, 8192, 16384, 32768, 65536], 7, 0.04),
]


# ---------------------------------------------------------------------------------- truth

def log2(x):
    return math.log2(x) if x > 0 else float("-inf")


def term_value(term, point):
    """coefficient * p^a * log2(p)^b * n^c * log2(n)^d at point {"p": .., "n": ..}."""
    v = term["coefficient"]
    for name in ("p", "n"):
        if name not in term:
            continue
        poly, lg = term[name]
        x = point[name]
        if poly:
            v *= x ** poly
        if lg:
            v *= log2(x) ** lg
    return v


def true_time(region, point):
    """The exact time of a region (its truth entry) at a point, e.g. {"p": 256}."""
    return region["constant"] + sum(term_value(t, point) for t in region["terms"])


def fmt_num(x):
    return f"{x:.6g}"


def formula(region, params):
    parts = [fmt_num(region["constant"])] if region["constant"] or not region["terms"] else []
    for t in region["terms"]:
        f = fmt_num(t["coefficient"])
        for name in params:
            if name not in t:
                continue
            a, b = t[name]
            if a == 1:
                f += f"*{name}"
            elif a:
                f += f"*{name}^{fmt_num(a)}"
            if b == 1:
                f += f"*log2({name})"
            elif b:
                f += f"*log2({name})^{fmt_num(b)}"
        parts.append(f)
    return " + ".join(parts)


# ------------------------------------------------------------------ single-parameter laws

def growth_shape(cls, p):
    return {"log": log2(p), "sqrt": math.sqrt(p), "cbrt_log": p ** (1 / 3) * log2(p),
            "linear": float(p), "p_log": p * log2(p)}[cls]


GROWTH_EXPONENTS = {"log": (0, 1), "sqrt": (0.5, 0), "cbrt_log": (1 / 3, 1), "linear": (1, 0),
                    "p_log": (1, 1)}


def loguniform(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def draw_law(rng, cls, pmin, pmax):
    """(constant, [terms]) of one single-parameter region."""
    if cls == "amdahl":
        t0, s = loguniform(rng, 5, 200), rng.uniform(0.02, 0.25)
        return s * t0, [{"coefficient": (1 - s) * t0 * pmin, "p": [-1, 0]}]
    if cls == "power":
        t0, e = loguniform(rng, 5, 200), round(rng.uniform(0.6, 0.95), 3)
        return 0.0, [{"coefficient": t0 * pmin ** e, "p": [-e, 0]}]
    if cls == "flat":
        return loguniform(rng, 0.2, 5), []
    tm, g = loguniform(rng, 0.2, 5), rng.uniform(0.5, 0.95)
    # the growing term must not vanish at the largest p (log2(1) = 0 is only at p = 1)
    return tm * (1 - g), [{"coefficient": tm * g / growth_shape(cls, pmax), "p": list(GROWTH_EXPONENTS[cls])}]


def scale_region(region, k):
    region["constant"] *= k
    for t in region["terms"]:
        t["coefficient"] *= k


def ranking(regions, point):
    return sorted(((true_time(r, point), r["callpath"]) for r in regions), reverse=True)


def lead(regions, point):
    """(dominant callpath, its time, runner-up callpath, lead factor)."""
    rk = ranking(regions, point)
    return rk[0][1], rk[0][0], rk[1][1], rk[0][0] / rk[1][0]


def check_scenario(regions, scenario, pmax, a, b):
    by_name = {r["callpath"]: r for r in regions}
    dom = {}
    for p in (a, b):
        name, _, _, margin = lead(regions, {"p": p})
        if margin < MARGIN:
            return False
        dom[p] = by_name[name]["class"]
    top_measured = by_name[ranking(regions, {"p": pmax})[0][1]]
    if scenario == "falling":
        return dom[a] in FALLING and dom[b] in FALLING
    if scenario == "flat":
        return dom[a] == "flat" and dom[b] == "flat"
    star_share = max(true_time(r, {"p": pmax}) for r in regions if r["class"] in GROWING) / \
        true_time(top_measured, {"p": pmax})
    if scenario == "overtake_16x":
        return dom[a] in FALLING and dom[b] in GROWING and star_share <= HIDDEN
    if scenario == "overtake_4x":
        return dom[a] in GROWING and dom[b] in GROWING and star_share <= HIDDEN
    raise ValueError(scenario)


def class_list(rng, pool, count, scenario):
    """Takes count classes from the shared pool, then makes sure the scenario can happen."""
    classes = [pool.pop() for _ in range(count)]
    need = [FALLING]
    if scenario.startswith("overtake"):
        need.append(GROWING)
    if scenario == "flat":
        need.append(("flat",))
    for group in need:
        if not any(c in group for c in classes):
            # replace the most common class with one of the group, to keep the mix
            common = max(set(classes), key=lambda c: (classes.count(c), c))
            classes[classes.index(common)] = rng.choice(sorted(group))
    return classes


def make_sp(rng, idx, ps, count, scenario, noise, pool):
    pmin, pmax = ps[0], ps[-1]
    a, b = 4 * pmax, 16 * pmax
    classes = class_list(rng, pool, count, scenario)
    names = rng.sample(NAMES, count)
    for _attempt in range(5000):
        regions = []
        for name, cls in zip(names, classes):
            c0, terms = draw_law(rng, cls, pmin, pmax)
            regions.append({"callpath": name, "class": cls, "constant": c0, "terms": terms})
        # steer the scenario: pick a star of the right class and size it against the rest
        if scenario in ("overtake_16x", "overtake_4x", "flat"):
            group = ("flat",) if scenario == "flat" else GROWING
            star = rng.choice([r for r in regions if r["class"] in group])
            others = [r for r in regions if r is not star]
            at = b if scenario != "overtake_4x" else a
            target = max(true_time(r, {"p": at}) for r in others) * rng.uniform(1.25, 2.0)
            scale_region(star, target / true_time(star, {"p": at}))
        else:  # falling: keep the growing regions well below the falling ones at B
            for r in regions:
                if r["class"] in GROWING and rng.random() < 0.8:
                    scale_region(r, rng.uniform(0.05, 0.3))
        if check_scenario(regions, scenario, pmax, a, b):
            break
    else:
        raise RuntimeError(f"sp{idx:02d}: no draw met the scenario {scenario}")
    return {"name": f"sp{idx:02d}", "parameters": ["p"], "points": [{"p": p} for p in ps],
            "predict": [{"p": a}, {"p": b}], "scenario": scenario, "noise": noise, "regions": regions}


# ------------------------------------------------------------------- two-parameter laws

def make_mp(rng, idx, ps, ns, count, noise):
    mid = {"p": ps[2], "n": ns[2]}
    a = {"p": 4 * ps[-1], "n": 2 * ns[-1]}
    b = {"p": 16 * ps[-1], "n": 4 * ns[-1]}
    for _attempt in range(5000):
        picks = rng.sample(MP_CLASSES, count)
        names = rng.sample(NAMES, count)
        regions = []
        for name, (cls, shape, grows) in zip(names, picks):
            terms = []
            for (pa, pb, nc, nd) in shape:
                unit = {"coefficient": 1.0, "p": [pa, pb], "n": [nc, nd]}
                value = loguniform(rng, 0.5, 50)     # this term's time at the grid's middle
                unit["coefficient"] = value / term_value(unit, mid)
                terms.append(unit)
            c0 = loguniform(rng, 0.5, 20) if not terms else loguniform(rng, 0.01, 0.5)
            regions.append({"callpath": name, "class": cls, "grows_in_p": grows,
                            "constant": c0, "terms": terms})
        if all(lead(regions, pt)[3] >= MARGIN for pt in (a, b)):
            break
    else:
        raise RuntimeError(f"mp{idx:02d}: no draw had a clear dominant region")
    points = [{"p": p, "n": n} for p in ps for n in ns]
    return {"name": f"mp{idx:02d}", "parameters": ["p", "n"], "points": points,
            "predict": [a, b], "scenario": "two-parameter", "noise": noise, "regions": regions}


# ------------------------------------------------------------------------------ writing

def noisy(rng, t, noise):
    g = max(-3.0, min(3.0, rng.gauss(0.0, 1.0)))
    return t * (1 + noise * g)


def write_experiment(rng, exp, out_dir, seed, repetitions=5):
    params = exp["parameters"]
    path = os.path.join(out_dir, exp["name"] + ".txt")
    with open(path, "w") as f:
        f.write(f"# Generated by scripts/extrap-generate.py --seed {seed}: {exp['name']}, "
                f"scenario {exp['scenario']}, noise {exp['noise']:.0%}; truth in {exp['name']}.truth.json\n")
        for name in params:
            f.write(f"PARAMETER {name}\n")
        f.write("\n")
        for pt in exp["points"]:
            f.write("POINTS ( " + " ".join(str(pt[n]) for n in params) + " )\n")
        f.write("\n")
        for r in exp["regions"]:
            f.write(f"REGION {r['callpath']}\nMETRIC time\n")
            for pt in exp["points"]:
                t = true_time(r, pt)
                f.write("DATA " + " ".join(fmt_num(noisy(rng, t, exp["noise"])) for _ in range(repetitions)) + "\n")
            f.write("\n")

    truth_regions = []
    for r in exp["regions"]:
        entry = {"callpath": r["callpath"], "class": r["class"]}
        if "grows_in_p" in r:
            entry["growing"] = r["grows_in_p"]
        else:
            entry["growing"] = r["class"] in GROWING
        entry["formula"] = formula(r, params)
        entry["constant"] = r["constant"]
        entry["terms"] = r["terms"]
        truth_regions.append(entry)
    predictions = []
    for pt in exp["predict"]:
        rk = ranking(exp["regions"], pt)
        total = sum(t for t, _ in rk)
        predictions.append({
            "point": pt,
            "dominant": rk[0][1], "dominant_time_s": rk[0][0], "dominant_share": rk[0][0] / total,
            "runner_up": rk[1][1], "lead": rk[0][0] / rk[1][0],
            "times": {name: t for t, name in rk},
        })
    measured_top = ranking(exp["regions"], exp["points"][-1])[0][1]
    truth = {
        "generator": "scripts/extrap-generate.py", "seed": seed, "experiment": exp["name"],
        "file": exp["name"] + ".txt", "parameters": params, "metric": "time",
        "points": exp["points"], "repetitions": repetitions, "noise": exp["noise"],
        "scenario": exp["scenario"],
        "model": "time = constant + sum(coefficient * p^a * log2(p)^b * n^c * log2(n)^d); "
                 "terms[i].p = [a, b], terms[i].n = [c, d]",
        "dominant_at_largest_measured_point": measured_top,
        "predict": predictions, "regions": truth_regions,
    }
    with open(os.path.join(out_dir, exp["name"] + ".truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
        f.write("\n")
    return truth


def generate(out_dir, seed=2024):
    """Writes every experiment and index.json into out_dir; returns the index."""
    os.makedirs(out_dir, exist_ok=True)
    rng = random.Random(seed)
    total = sum(count for _, count, _, _ in SP_PLAN)
    pool = []
    while len(pool) < total:       # every class about equally often, in a shuffled order
        block = list(CLASSES)
        rng.shuffle(block)
        pool.extend(block)
    pool = pool[:total][::-1]
    experiments = [make_sp(rng, i + 1, *plan, pool) for i, plan in enumerate(SP_PLAN)]
    experiments += [make_mp(rng, i + 1, *plan) for i, plan in enumerate(MP_PLAN)]
    index = []
    for exp in experiments:
        truth = write_experiment(rng, exp, out_dir, seed)
        index.append({"experiment": exp["name"], "file": truth["file"],
                      "truth": exp["name"] + ".truth.json", "parameters": exp["parameters"],
                      "regions": len(exp["regions"]), "scenario": exp["scenario"],
                      "predict": [p["point"] for p in truth["predict"]],
                      "dominant": [p["dominant"] for p in truth["predict"]]})
    with open(os.path.join(out_dir, "index.json"), "w") as f:
        json.dump({"generator": "scripts/extrap-generate.py", "seed": seed, "experiments": index}, f, indent=1)
        f.write("\n")
    return index


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", default=os.path.join(root, "target", "extrap-generated"),
                    help="where to write (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=2024, help="random seed (default: %(default)s)")
    args = ap.parse_args()
    index = generate(args.out_dir, args.seed)
    from collections import Counter
    classes = Counter()
    for e in index:
        with open(os.path.join(args.out_dir, e["truth"])) as f:
            classes.update(r["class"] for r in json.load(f)["regions"])
    sp = [e for e in index if len(e["parameters"]) == 1]
    print(f"wrote {len(index)} experiments ({len(sp)} single-parameter, "
          f"{sum(e['regions'] for e in sp)} regions; {len(index) - len(sp)} two-parameter) to {args.out_dir}")
    print("classes: " + ", ".join(f"{c} {n}" for c, n in sorted(classes.items())))


if __name__ == "__main__":
    main()
