#!/usr/bin/env python3
"""Prints what caliper-reader (PyPI, Caliper's own Python reader) reads of the Caliper profiles
in tests/data/cali/mpi_scaling_cali: per file its globals mpi.world.size, jobsize and
problem_size, then per record with a region path the path (joined with '->') and its
sum#, max#, min# and avg#inclusive#sum#time.duration, as written.

The tests of src/model/cali/ (tests.rs, CALIPER_READER) hold this output. Run it with
caliper-reader installed:

    python3 -m venv /tmp/calivenv && /tmp/calivenv/bin/pip install caliper-reader
    /tmp/calivenv/bin/python scripts/cali-reference.py
"""
import os
import sys

import caliperreader

FOLDER = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "cali", "mpi_scaling_cali")
STATS = ["sum", "max", "min", "avg"]
METRIC = "inclusive#sum#time.duration"


def main():
    names = sorted(os.listdir(FOLDER), key=lambda n: int(n.split("_")[0]))
    for name in names:
        records, globals_ = caliperreader.read_caliper_contents(os.path.join(FOLDER, name))
        print(f"file {name} {globals_['mpi.world.size']} {globals_['jobsize']} {globals_['problem_size']}")
        for r in records:
            if "path" not in r:
                continue
            path = r["path"] if isinstance(r["path"], list) else [r["path"]]
            values = " ".join(r[f"{s}#{METRIC}"] for s in STATS)
            print(f"{'->'.join(path)} {values}")


if __name__ == "__main__":
    sys.exit(main())
