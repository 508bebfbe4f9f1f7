#!/usr/bin/env python3
"""Prints, for each Caliper json-split profile in tests/data/caliper-json, per call path the
sum over ranks and the largest rank's value of its time metric, in seconds: the exclusive
time, the inclusive time where the file has an inclusive column, and the inclusive time
summed up the tree (each row counting for its node and every ancestor).

It reads the files with Python's json module from the format alone (the facts in
src/model/cali/json.rs's module doc), not with the Rust reader's code. Where the installed
Hatchet (llnl-hatchet) reads a file, it also checks that Hatchet's per-node exclusive time,
summed over ranks, agrees (Hatchet's per-source-line "statement" children added to their
node).

The tests of src/model/cali/json.rs (json_tests.rs) hold this output:

    python3 -m venv /tmp/hvenv && /tmp/hvenv/bin/pip install llnl-hatchet
    /tmp/hvenv/bin/python scripts/cali-json-reference.py
"""
import json
import os
import sys

FOLDER = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "caliper-json")
FILES = ["cpi-callpath-profile.json", "lulesh-annotation-profile.json", "caliper-region-node-order.json"]
UNITS = {"sec": 1.0, "s": 1.0, "msec": 1e-3, "ms": 1e-3, "usec": 1e-6, "us": 1e-6, "nsec": 1e-9, "ns": 1e-9}


def factor(name, meta):
    unit = meta.get("attribute.unit")
    if unit is not None:
        return UNITS[unit.lower()]
    if "time.duration.ns" in name:
        return 1e-9
    if "time.duration" in name:
        return 1e-6  # Caliper's timer before time.duration.ns
    return 1.0


def reduce(doc, column, up):
    cols = doc["columns"]
    pathcol = "source.function#callpath.address" if "source.function#callpath.address" in cols else "path"
    p, v = cols.index(pathcol), cols.index(column)
    r = cols.index("mpi.rank") if "mpi.rank" in cols else None
    f = factor(column, doc["column_metadata"][v])
    nodes = doc["nodes"]

    def path(i):
        labels = []
        while i is not None:
            labels.append(nodes[i]["label"] or "(no label)")
            i = nodes[i].get("parent")
        return "->".join(reversed(labels))

    order, total, per_rank = [], {}, {}
    for row in doc["data"]:
        if row[p] is None or row[v] is None:
            continue
        chain = [row[p]]
        while up and nodes[chain[-1]].get("parent") is not None:
            chain.append(nodes[chain[-1]]["parent"])
        rank = row[r] if r is not None else 0
        for n in reversed(chain):
            k = path(n)
            if k not in total:
                order.append(k)
                total[k] = 0.0
            total[k] += row[v] * f
            per_rank[(k, rank)] = per_rank.get((k, rank), 0.0) + row[v] * f
    largest = {}
    for (k, _), t in per_rank.items():
        largest[k] = max(largest.get(k, 0.0), t)
    return [(k, total[k], largest[k]) for k in order]


def hatchet_check(filename, doc, column, expected):
    try:
        import hatchet
        # Hatchet 2026's node_ordering (default on) fails on a file without "Node order".
        gf = hatchet.GraphFrame.from_caliper(filename, node_ordering="Node order" in doc["columns"])
    except Exception as e:  # the installed Hatchet may not read every file
        return f"hatchet: does not read it ({type(e).__name__}: {str(e)[:60]})"
    df = gf.dataframe.reset_index()
    f = factor(column, doc["column_metadata"][doc["columns"].index(column)])
    # Paths from the roots down the children (statement nodes named as their node).
    paths, todo = {}, [(r, []) for r in gf.graph.roots]
    while todo:
        node, above = todo.pop()
        here = above if node.frame.get("type") == "statement" else above + [str(node.frame.get("name"))]
        paths[node] = "->".join(here)
        todo.extend((c, here) for c in node.children)
    sums = {}
    for _, row in df.iterrows():
        k = paths[row["node"]]
        sums[k] = sums.get(k, 0.0) + row["time"] * f
    bad = [k for k, t, _ in expected if abs(sums.get(k, 0.0) - t) > 1e-9 * max(abs(t), 1e-300)]
    extra = [k for k, t in sums.items() if t != 0.0 and k not in {e[0] for e in expected}]
    return f"hatchet {hatchet.__version__}: {'agrees' if not bad and not extra else f'differs on {bad + extra}'}"


def main():
    for name in FILES:
        filename = os.path.join(FOLDER, name)
        with open(filename) as fh:
            doc = json.load(fh)
        cols = doc["columns"]
        exc = next(c for c in ["time", "sum#time.duration"] if c in cols)
        runs = [("exclusive", exc, False), ("summed", exc, True)]
        inc = [c for c in cols if "inclusive#" in c or c.endswith(" (inc)")]
        if inc:
            runs.insert(1, ("inclusive", inc[0], False))
        for kind, column, up in runs:
            rows = reduce(doc, column, up)
            print(f"# {name} {kind} {column}")
            for k, t, m in rows:
                print(f"{k}\t{t!r}\t{m!r}")
            if kind == "exclusive":
                print("#", hatchet_check(filename, doc, column, rows))


if __name__ == "__main__":
    sys.exit(main())
