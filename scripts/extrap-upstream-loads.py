#!/usr/bin/env python3
"""Writes tests/data/extrap-upstream/loads.json: for every experiment file copied from
Extra-P's tests/data/, whether Extra-P itself loads it, with which reader, and how many
parameters, call paths, metrics and points it has. Needs Extra-P in a venv:

    scripts/setup-extrap.sh
    .venv-extrap/bin/python scripts/extrap-upstream-loads.py          # rewrites loads.json
    .venv-extrap/bin/python scripts/extrap-upstream-loads.py --check  # compares, writes nothing

The reader follows the file's folder and extension, as Extra-P's own tests do:
talpas/*            extrap.fileio.file_reader.talpas_file_reader.TalpasFileReader().read_experiment
*.jsonl             extrap.fileio.file_reader.jsonlines_file_reader.read_jsonlines_file
*.json, *.JSON      extrap.fileio.file_reader.json_file_reader.JsonFileReader().read_experiment
everything else     extrap.fileio.file_reader.text_file_reader.TextFileReader().read_experiment
Six files are Extra-P's negative examples (NEGATIVE_EXAMPLES below): its tests expect them
to be refused, and loads.json marks them "negative_example": true.
"""
import argparse
import json
import os
import sys
import warnings

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
UPSTREAM = os.path.join(ROOT, "tests", "data", "extrap-upstream")


# Files that Extra-P's own tests expect to be refused (assertRaises in its tests/ folder).
NEGATIVE_EXAMPLES = {
    "input/experiments_MP/experiment_MP_neg1.txt": "tests/test_load_text_file.py",
    "input/experiments_MP/experiment_MP_neg2.txt": "tests/test_load_text_file.py",
    "input/experiments_SP/experiment3_neg.txt": "tests/test_load_text_file.py",
    "input/experiments_SP/experiment_neg.txt": "tests/test_load_text_file.py",
    "json/input_11.JSON": "tests/test_load_json_file.py",
    "talpas/talpas_10_neg.txt": "tests/test_load_talpas_file.py",
}


def experiment_files(base):
    out = []
    for d, _dirs, files in os.walk(base):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), base).replace(os.sep, "/")
            if rel in ("README.md", "loads.json"):
                continue
            out.append(rel)
    return sorted(out)


def reader_for(rel):
    """(reader name, function path -> Experiment)."""
    from extrap.fileio.file_reader.json_file_reader import JsonFileReader
    from extrap.fileio.file_reader.jsonlines_file_reader import read_jsonlines_file
    from extrap.fileio.file_reader.talpas_file_reader import TalpasFileReader
    from extrap.fileio.file_reader.text_file_reader import TextFileReader
    low = rel.lower()
    if low.startswith("talpas/"):
        return "talpas", lambda p: TalpasFileReader().read_experiment(p)
    if low.endswith(".jsonl"):
        return "jsonlines", read_jsonlines_file
    if low.endswith(".json"):
        return "json", lambda p: JsonFileReader().read_experiment(p)
    return "text", lambda p: TextFileReader().read_experiment(p)


def load_one(base, rel):
    name, read = reader_for(rel)
    row = {"file": rel, "reader": name, "negative_example": rel in NEGATIVE_EXAMPLES}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = read(os.path.join(base, rel))
    except Exception as err:  # Extra-P raises FileFormatError, InvalidExperimentError, KeyError, ...
        row.update(loads=False, error=f"{type(err).__name__}: {str(err).strip()[:300]}")
        return row
    row.update(loads=True, error=None,
               parameters=len(exp.parameters),
               parameter_names=[str(p.name) for p in exp.parameters],
               callpaths=len(exp.callpaths),
               metrics=len(exp.metrics),
               points=len(exp.coordinates))
    return row


def compute(base=UPSTREAM):
    import extrap
    rows = [load_one(base, rel) for rel in experiment_files(base)]
    return {
        "extrap_version": extrap.__version__,
        "written_by": "scripts/extrap-upstream-loads.py",
        "files": len(rows),
        "loaded": sum(r["loads"] for r in rows),
        "results": rows,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare with loads.json instead of writing it")
    ap.add_argument("--dir", default=UPSTREAM, help="folder of the copied files (default: %(default)s)")
    args = ap.parse_args()
    data = compute(args.dir)
    path = os.path.join(args.dir, "loads.json")
    text = json.dumps(data, indent=1) + "\n"
    if args.check:
        with open(path) as f:
            same = f.read() == text
        print(f"loads.json {'matches' if same else 'DIFFERS from'} Extra-P {data['extrap_version']}")
        sys.exit(0 if same else 1)
    with open(path, "w") as f:
        f.write(text)
    print(f"Extra-P {data['extrap_version']} loads {data['loaded']} of {data['files']} files; wrote {path}")
    for r in data["results"]:
        if not r["loads"]:
            neg = " [a negative example in Extra-P's tests]" if r["negative_example"] else ""
            print(f"  refused: {r['file']} ({r['reader']}): {r['error']}{neg}")


if __name__ == "__main__":
    main()
