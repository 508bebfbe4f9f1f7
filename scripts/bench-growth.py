#!/usr/bin/env python3
"""How each input path of the command grows: every path is run at 1x, 10x and 100x a base
size, and the wall time and peak memory (median of RUNS runs, /usr/bin/time) are printed with
the growth exponent between 10x and 100x, log10(t(100x) / t(10x)): 1 is linear, 2 quadratic.
Startup (a few ms, and the time of reading the input) is in every time, so a path whose work
is small at 10x reads flatter than it is.

Usage: scripts/bench-growth.py [--scalewise target/release/scalewise] [--runs 3] [--only TEXT]
Called by `make bench`; prints a Markdown table.
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import tempfile
import time

POINTS3 = [{"n": 1, "speedup": 1}, {"n": 2, "speedup": 1.9}, {"n": 4, "speedup": 3.5}]
COMM3 = [{"size_bytes": 1, "time_us": 50.01}, {"size_bytes": 1024, "time_us": 60.24}, {"size_bytes": 65536, "time_us": 705.4}]
RUNS = [{"work_mb": 2048, "time_s": 1500}, {"work_mb": 1024, "time_s": 740}]
PAR = [{"np": 4, "work_mb": 2048, "time_s": 1580}, {"np": 4, "work_mb": 1024, "time_s": 800},
       {"np": 8, "work_mb": 2048, "time_s": 1610}, {"np": 8, "work_mb": 1024, "time_s": 825}]


def planner(k):
    fabric = {"fabric": "Fast Ethernet", "sequential": RUNS, "parallel": PAR}
    cluster = {"name": "A", "free_procs": 1 << 20, "procs_per_node": 1, "memory_per_node_mb": 2048.0,
               "price_per_cpu_hour": 1.0, "fabrics": [fabric]}
    return {"planner": {"n": 65536, "bytes_per_point": 32, "clusters": [cluster], "candidate_np": list(range(2, 2 + k))}}


def extrap(k):
    lines = ["PARAMETER p", "POINTS 4 8 16 32 64", ""]
    for r in range(k):
        lines += [f"REGION r{r}", "METRIC time"]
        for p in [4, 8, 16, 32, 64]:
            lines.append(f"DATA {10 + r % 7 + 100 / p:.4f} {10.1 + r % 7 + 100 / p:.4f}")
    return "\n".join(lines) + "\n"


# (path, base size, command, input maker): the input of size k.
PATHS = [
    ("speedup: predict list", 40, ["speedup"], lambda k: json.dumps({"points": POINTS3, "predict": [64] * k})),
    ("speedup: batch of data sets", 200, ["speedup"], lambda k: json.dumps([{"points": POINTS3}] * k)),
    ("comm: measured points", 40, ["comm"],
     lambda k: json.dumps({"points": [{"size_bytes": i, "time_us": 50 + 0.01 * i} for i in range(k)]})),
    ("comm: predict list", 40, ["comm"], lambda k: json.dumps({"points": COMM3, "predict": [131072] * k})),
    ("multigrid: predict list", 40, ["multigrid"],
     lambda k: json.dumps({"sequential": RUNS, "parallel": PAR, "predict": [{"np": 64, "work_mb": 2048}] * k})),
    ("multigrid: planner candidates", 40, ["multigrid"], lambda k: json.dumps(planner(k))),
    ("bottlenecks: regions", 100, ["bottlenecks"], extrap),
    ("simulate: loop iterations", 10_000, ["simulate"],
     lambda k: json.dumps({"skeleton": f"Loop iterations = {k} {{\n Message type = MPI_Send, size = 1024, to = 1 - procnum\n"
                                        " Message type = MPI_Recv, from = 1 - procnum\n Serial time = 1\n}",
                           "numprocs": [2], "replications": 4, "machine": {"latency_us": 100, "bandwidth_mbit_s": 80}})),
    # Process counts: an all-to-all (every process sends to every other, p (p - 1) messages) and
    # a nearest-neighbour exchange on a ring (2p messages an iteration), each of 100, 1,000 and
    # 10,000 processes (runs take up to 16,384), one replication. An all-to-all of p processes
    # holds its p (p - 1) messages and posted receives at once (up to 56 p² bytes, told before
    # the start): 10,000 need the limit raised from its 512 MB, and its 2 x 10^8 steps the
    # run's from 1e8.
    ("simulate: processes, all-to-all", 100, ["simulate"],
     lambda k: json.dumps({"skeleton": "Message type = MPI_Alltoall, size = 8", "numprocs": [k], "replications": 1,
                           "max_run_mb": 5600, "max_steps": 1e9})),
    ("simulate: processes, nearest-neighbour ring", 100, ["simulate"],
     lambda k: json.dumps({"skeleton": "Loop iterations = 100 {\n"
                                       " Message type = MPI_Isend, size = 1024, to = (procnum + 1) % numprocs\n"
                                       " Message type = MPI_Isend, size = 1024, to = (procnum + numprocs - 1) % numprocs\n"
                                       " Message type = MPI_Irecv, from = (procnum + numprocs - 1) % numprocs\n"
                                       " Message type = MPI_Irecv, from = (procnum + 1) % numprocs\n"
                                       " Message type = MPI_Wait\n Serial time = 1\n}",
                           "numprocs": [k], "replications": 1})),
]


def measure(binary, args, path, runs):
    times, mems = [], []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("w+") as out:
            start = time.perf_counter()
            r = subprocess.run(["/usr/bin/time", "-f", "%e %M", binary, *args, path, "--compact"],
                               stdout=subprocess.DEVNULL, stderr=out, check=False)
            wall = time.perf_counter() - start
            out.seek(0)
            last = out.read().strip().splitlines()[-1].split()
            if r.returncode != 0:
                raise SystemExit(f"{args} {path}: exit {r.returncode}")
            times.append(wall)
            mems.append(int(last[1]) / 1024)
    return statistics.median(times), statistics.median(mems)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scalewise", default="target/release/scalewise")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="", help="only the paths whose name contains this")
    a = ap.parse_args()
    print("| input path | 1× | 10× | 100× | time exponent (10× → 100×) | memory exponent |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as d:
        for name, base, args, make in PATHS:
            if a.only not in name:
                continue
            cells, res = [], []
            for f in (1, 10, 100):
                k = base * f
                p = os.path.join(d, "input")
                with open(p, "w") as fh:
                    fh.write(make(k))
                t, m = measure(a.scalewise, args, p, a.runs)
                res.append((t, m))
                cells.append(f"{k}: {t * 1000:.0f} ms, {m:.0f} MB")
            exp = lambda x, y: math.log10(y / x)
            print(f"| {name} | {' | '.join(cells)} | {exp(res[1][0], res[2][0]):.2f} | {exp(res[1][1], res[2][1]):.2f} |")


if __name__ == "__main__":
    main()
