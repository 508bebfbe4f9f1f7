# Prints what Extra-P itself reads from a saved experiment, as JSON on stdout:
# {"parameters": [..], "series": [{"callpath", "metric", "points": [{"coords", "values" (flattened,
#  or null when the file keeps none), "mean", "median", "values_bits", "median_bits"}]}]}, series
# in Extra-P's measurements order. The *_bits fields are the IEEE-754 bits of the doubles as
# integers, so that a test can compare them without parsing decimal text.
# Usage: python dump_extrap.py FILE.extra-p > FILE.expected.json  (needs `pip install extrap`)
import json, struct, sys
import numpy as np
from extrap.fileio.experiment_io import read_experiment

def bits(x):
    return struct.unpack('<Q', struct.pack('<d', float(x)))[0]

def num(x):
    x = float(x)
    return x if np.isfinite(x) else str(x)

e = read_experiment(sys.argv[1])
out = {"parameters": [p.name for p in e.parameters], "series": []}
for (cp, metric), ms in e.measurements.items():
    pts = []
    for m in ms:
        vals = None if m.values is None else [num(v) for v in np.asarray(m.values).ravel()]
        pts.append({"coords": [float(c) for c in m.coordinate], "values": vals,
                    "mean": num(m.mean), "median": num(m.median),
                    "values_bits": None if m.values is None else [bits(v) for v in np.asarray(m.values).ravel()],
                    "median_bits": bits(m.median)})
    out["series"].append({"callpath": cp.name, "metric": metric.name, "points": pts})
json.dump(out, sys.stdout, indent=None)
print()
