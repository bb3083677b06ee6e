"""Builds the versions of a set's families ahead of measuring (kforecast's own code):
`python3 SET/prebuild.py SET REGEX [JOBS]` imports each matching family's bench.py and calls
build(path) for every version, in parallel processes, so that measure_programs.py later finds
the compiled extensions in the cache ($EVALSET_CACHE). Prints one line per version."""
import importlib.util
import json
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def _build(args):
    set_dir, family, path = args
    # the harness folder (progbuild.py): $EVALSET_HARNESS, else scripts/evalsets under the cwd
    harness = os.environ.get("EVALSET_HARNESS") or os.path.abspath(os.path.join("scripts", "evalsets"))
    if harness not in sys.path:
        sys.path.insert(0, harness)
    t0 = time.time()
    try:
        mod_name = "bench_" + re.sub(r"\W", "_", family)
        spec = importlib.util.spec_from_file_location(mod_name, os.path.join(set_dir, family, "bench.py"))
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
        bench.build(os.path.join(set_dir, path))
        return f"{path}: built in {time.time() - t0:.0f} s"
    except Exception as e:  # a failing build is reported by the harness later
        return f"{path}: FAILED after {time.time() - t0:.0f} s: {str(e)[-1500:]}"


def main():
    set_dir, rx = os.path.abspath(sys.argv[1]), re.compile(sys.argv[2])
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    with open(os.path.join(set_dir, "families.json")) as f:
        fams = [fam for fam in json.load(f) if rx.search(fam["family"])]
    work = [(set_dir, fam["family"], p) for fam in fams for p in fam["files"]]
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        for line in ex.map(_build, work):
            print(line, flush=True)


if __name__ == "__main__":
    main()
