#!/usr/bin/env python3
"""Writes the Extra-P test experiments under tests/data/extrap/ (standard library only,
seeded, so the files are the same on every run):

- app.txt:   Extra-P's text format, one parameter p (processes) at 2..64, 24 regions of an
             invented solver, metric "time", 5 repetitions per point;
- app.jsonl: Extra-P's JSON Lines format, two parameters p and size (size 1000 and 4000),
             22 regions, metrics "time" and "visits", 3 repetitions per point;
- app.json:  Extra-P's newer JSON format, the first 6 regions of app.txt.

Each region's time follows T(p) = serial + work/p + comm·log2(p) + contention·p (seconds),
with multiplicative noise of a few per cent, so some regions keep scaling, some flatten and
some turn up. Check that Extra-P (pip install extrap) reads them:

    extrap --text tests/data/extrap/app.txt
    extrap --json tests/data/extrap/app.jsonl
    extrap --json tests/data/extrap/app.json
"""
import json
import math
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "extrap")
NAMES = [
    "main", "main->init", "main->init->read_mesh", "main->init->partition", "main->solve",
    "main->solve->assemble", "main->solve->precond", "main->solve->precond->smooth",
    "main->solve->precond->restrict", "main->solve->precond->prolong", "main->solve->spmv",
    "main->solve->dot", "main->solve->allreduce", "main->solve->halo_exchange",
    "main->solve->halo_exchange->pack", "main->solve->halo_exchange->wait",
    "main->solve->coarse_solve", "main->solve->check", "main->output",
    "main->output->gather", "main->output->write", "main->balance", "main->balance->migrate",
    "main->finalize",
]


def region_law(rng, i):
    """(serial, work, comm, contention) in seconds for region i."""
    kind = i % 4
    work = rng.uniform(5.0, 200.0)
    if kind == 0:    # scales well
        return (work * 0.001, work, 0.0, 0.0)
    if kind == 1:    # Amdahl-like
        return (work * rng.uniform(0.02, 0.08), work, 0.0, 0.0)
    if kind == 2:    # communication grows with log p
        return (work * 0.005, work, work * rng.uniform(0.002, 0.01), 0.0)
    return (work * 0.01, work, 0.0, work * rng.uniform(1e-4, 6e-4))  # contention: turns up


def time(law, p, size_factor=1.0):
    serial, work, comm, cont = law
    return size_factor * (serial + work / p) + comm * math.log2(p) + cont * p


def main():
    rng = random.Random(17)
    os.makedirs(OUT, exist_ok=True)
    ps = [2, 4, 8, 16, 32, 64]
    laws = [region_law(rng, i) for i in range(len(NAMES))]

    with open(os.path.join(OUT, "app.txt"), "w") as f:
        f.write("# An invented solver's regions, generated from known laws with noise (not a measurement)\n")
        f.write("PARAMETER p\n\n")
        f.write("POINTS " + " ".join(f"( {p} )" for p in ps) + "\n\n")
        for name, law in zip(NAMES, laws):
            f.write(f"REGION {name}\nMETRIC time\n")
            for p in ps:
                reps = [time(law, p) * rng.gauss(1.0, 0.02) for _ in range(5)]
                f.write("DATA " + " ".join(f"{v:.6g}" for v in reps) + "\n")
            f.write("\n")

    with open(os.path.join(OUT, "app.jsonl"), "w") as f:
        for name, law in zip(NAMES[:22], laws[:22]):
            for size in (1000, 4000):
                for p in ps:
                    t = [time(law, p, size / 1000) * rng.gauss(1.0, 0.03) for _ in range(3)]
                    row = {"params": {"p": p, "size": size}, "callpath": name, "metric": "time",
                           "value": [float(f"{v:.6g}") for v in t]}
                    f.write(json.dumps(row) + "\n")
                    visits = {"params": {"p": p, "size": size}, "callpath": name, "metric": "visits",
                              "value": float(size * 10 // p)}
                    f.write(json.dumps(visits) + "\n")

    measurements = {}
    for name, law in zip(NAMES[:6], laws[:6]):
        measurements[name] = {"time": [
            {"point": [p], "values": [float(f"{time(law, p) * rng.gauss(1.0, 0.02):.6g}") for _ in range(4)]}
            for p in ps]}
    with open(os.path.join(OUT, "app.json"), "w") as f:
        json.dump({"parameters": ["p"], "measurements": measurements}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
