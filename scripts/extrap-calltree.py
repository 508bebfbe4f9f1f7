#!/usr/bin/env python3
"""Writes tests/data/extrap/calltree.txt: Extra-P's text format, one parameter p at 2..64, a
call tree of known laws (seconds) whose values are inclusive times, as Extra-P writes a Cube
profile's call paths:

    main->compute = 1200/p
    main->io      = 2 + 0.05·p
    main          = 0.1 (own) + compute + io   (inclusive)

Three repetitions per point, each the law times 0.99, 1.00 and 1.01 (the same factor for
every region of a repetition, so main stays the sum of its parts). At p = 256 the own times
are 0.1, 4.6875 and 14.8 s: main->io takes 14.8/19.5875 = 75.6 % and main->compute 23.9 %;
adding main's inclusive 19.5875 s to them (the old ranking) gives main 50 %, io 37.8 %,
compute 12.0 %.
"""
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "extrap", "calltree.txt")
PS = [2, 4, 8, 16, 32, 64]
FACTORS = [0.99, 1.00, 1.01]


def laws(p):
    compute = 1200.0 / p
    io = 2.0 + 0.05 * p
    return {"main": 0.1 + compute + io, "main->compute": compute, "main->io": io}


def main():
    lines = ["# A call tree of known laws, inclusive times, generated (not a measurement)",
             "PARAMETER p", "", "POINTS " + " ".join(f"( {p} )" for p in PS), "", "METRIC time"]
    for name in ["main", "main->compute", "main->io"]:
        lines.append(f"REGION {name}")
        for p in PS:
            lines.append("DATA " + " ".join(f"{laws(p)[name] * f:.6g}" for f in FACTORS))
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
