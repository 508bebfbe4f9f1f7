#!/usr/bin/env python3
"""Prints what Hatchet (PyPI llnl-hatchet, GraphFrame.from_hpctoolkit) reads of the HPCToolkit
databases in tests/data/hpctoolkit/, reduced the way src/model/hpctoolkit/ reduces them: one
line per call path of procedure frames (the names of Hatchet's "function" nodes from the root,
without the "line:" prefix Hatchet puts before a callee's name), callees after their caller,
written as its last name after one space per caller (the path is the names of the nearest
lines above with fewer spaces, joined with '->'), then a tab and the inclusive
total, inclusive max, exclusive total and exclusive max of the CPUTIME metric in seconds.
Total: the sum over the database's rank-threads; max: the largest rank-thread's.

A path's inclusive value on a rank-thread is the sum of "time (inc)" over its function nodes.
Its exclusive value is the sum, over its function nodes, of the node's "time" and the "time"
of the node's statement children: Hatchet moves a statement's exclusive time out of the
statement's parent into the statement node, and this puts it back. A loop's time stays in its
procedure's value where HPCToolkit put it (adding Hatchet's loop nodes too would count it
twice: HPCToolkit's exclusive value of a procedure frame holds its loops').

The tests of src/model/hpctoolkit/ (tests.rs) hold this output. Run it with Hatchet installed:

    python3 -m venv /tmp/hvenv && /tmp/hvenv/bin/pip install llnl-hatchet
    /tmp/hvenv/bin/python scripts/hpctoolkit-reference.py
"""
import os
import re
import sys

import hatchet

ROOT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "hpctoolkit")
DATABASES = ["hpctoolkit-cpi-database", "hpctoolkit-allgather-database"]


def location_values(df, node, column):
    """The node's values of one column, per location (rank or (rank, thread))."""
    rows = df.xs(node, level="node")[column]
    return {loc: float(v) for loc, v in rows.items()}


def reduce(gf):
    df = gf.dataframe
    per_path = {}  # path -> (inclusive per location, exclusive per location)

    def add(into, values):
        for loc, v in values.items():
            into[loc] = into.get(loc, 0.0) + v

    def visit(node, path):
        if node.frame["type"] == "function":
            path = path + [re.sub(r"^\d+:", "", node.frame["name"])]
            inc, exc = per_path.setdefault("->".join(path), ({}, {}))
            add(inc, location_values(df, node, "time (inc)"))
            add(exc, location_values(df, node, "time"))
            for child in node.children:
                if child.frame["type"] == "statement":
                    add(exc, location_values(df, child, "time"))
        for child in node.children:
            visit(child, path)

    for root in gf.graph.roots:
        visit(root, [])
    return per_path


def main():
    for name in DATABASES:
        gf = hatchet.GraphFrame.from_hpctoolkit(os.path.join(ROOT, name))
        print(f"database {name}")
        per_path = reduce(gf)
        # The paths as a tree, callees in the order first met: each line follows its caller's.
        callees = {}
        for path in per_path:
            callees.setdefault(path.rpartition("->")[0] if "->" in path else None, []).append(path)

        def show(path, depth):
            inc, exc = per_path[path]
            figures = [sum(inc.values()), max(inc.values()), sum(exc.values()), max(exc.values())]
            last = path.split("->")[-1]
            print(" " * depth + last + "\t" + " ".join(repr(f * 1e-6) for f in figures))
            for callee in callees.get(path, []):
                show(callee, depth + 1)

        for root in callees.get(None, []):
            show(root, 0)


if __name__ == "__main__":
    sys.exit(main())
