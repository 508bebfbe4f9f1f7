#!/usr/bin/env python3
"""Prints the reference numbers of tests/cli_cube.rs: Extra-P 4.2.5's own reading of two of
its test cube sets (tests/data/extrap-upstream/cubeset/single_parameter and simple_threaded),
metric time, per call path and point, as Extra-P's CubeFileReader2 gives them:

  weak         read_cube_file(path, 'weak'): the values of every location of a run; the
               Measurement's mean is their mean (seconds per process)
  strong       read_cube_file(path, 'strong'): the sum over the run's locations
  weak-incl    weak with use_inclusive_measurements = True

Each line is one row for the Rust table: (set, scaling, callpath, first parameter value,
mean, median). Run it with the Python of a venv that holds extrap 4.2.5
(scripts/setup-extrap.sh makes .venv-extrap/):

  .venv-extrap/bin/python scripts/extrap-cube-reference.py
"""
import os
import sys
import warnings

warnings.simplefilter("ignore")

from extrap.entities.metric import Metric  # noqa: E402
from extrap.fileio.file_reader.cube_file_reader2 import CubeFileReader2  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "extrap-upstream", "cubeset")


def read(name, scaling, inclusive):
    reader = CubeFileReader2()
    reader.use_inclusive_measurements = inclusive
    reader.scaling_type = scaling
    return reader.read_experiment(os.path.join(ROOT, name))


def main():
    for name in sys.argv[1:] or ["single_parameter", "simple_threaded"]:
        for label, scaling, inclusive in [("weak", "weak", False), ("strong", "strong", False), ("weak-incl", "weak", True)]:
            e = read(name, scaling, inclusive)
            for cp in e.callpaths:
                # A call path without time at any point (simple_threaded's main->zero) has none.
                for m in e.measurements.get((cp, Metric("time")), []):
                    print(f'("{name}", "{label}", "{cp}", {m.coordinate[0]!r}, {float(m.mean)!r}, {float(m.median)!r}),')


if __name__ == "__main__":
    main()
