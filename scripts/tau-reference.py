#!/usr/bin/env python3
"""Prints what Hatchet (PyPI llnl-hatchet, LLNL's reader of TAU profile folders) reads of the TAU
profiles in tests/data/tau-cpi-mpi: per call path (region names joined with '->', from the root),
the sum over ranks and the largest rank of the exclusive and the inclusive time, in seconds
(TAU writes microseconds), tab-separated, in the order of Hatchet's tree.

The tests of src/model/tau/ (tests.rs, HATCHET) hold this output. Run it with Hatchet installed:

    python3 -m venv /work/venv && /work/venv/bin/pip install llnl-hatchet
    /work/venv/bin/python scripts/tau-reference.py
"""
import os
import sys

import hatchet as ht

FOLDER = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "tau-cpi-mpi")


def main():
    gf = ht.GraphFrame.from_tau(FOLDER)
    df = gf.dataframe
    for node in gf.graph.traverse():
        path = "->".join(str(n.frame["name"]) for n in node.path())
        rows = df.xs(node, level="node")
        exc, inc = rows["time"] * 1e-6, rows["time (inc)"] * 1e-6
        print(f"{path}\t{float(exc.sum())!r}\t{float(exc.max())!r}\t{float(inc.sum())!r}\t{float(inc.max())!r}")


if __name__ == "__main__":
    sys.exit(main())
