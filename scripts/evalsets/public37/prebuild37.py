"""Warms the nvcc build cache of set 37's CUDA families on the GPU machine (kforecast's own
code, copied into the set by pub37.py): each .cu version of the p37-rw-* families compiled by
progbuild.nvcc_library with its adapter's FLAGS, several at once, while another group measures.

    python3 SET/prebuild37.py SET [--jobs 8]
"""
import argparse
import glob
import importlib.util
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "evalsets")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set")
    ap.add_argument("--jobs", type=int, default=8)
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(HARNESS))
    sys.path.insert(0, os.path.join(os.getcwd(), "scripts", "evalsets"))
    from progbuild import nvcc_library
    work = []
    for fam in sorted(glob.glob(os.path.join(args.set, "p37-rw-*"))):
        spec = importlib.util.spec_from_file_location("pb_" + os.path.basename(fam).replace("-", "_"),
                                                      os.path.join(fam, "bench.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        work += [(p, mod.FLAGS) for p in sorted(glob.glob(os.path.join(fam, "*.cu")))]

    def one(item):
        t0 = time.time()
        try:
            nvcc_library(*item)
            return f"ok   {time.time() - t0:6.1f}s {item[0]}"
        except Exception as e:  # noqa: BLE001
            return f"FAIL {time.time() - t0:6.1f}s {item[0]}: {str(e)[-1500:]}"
    with ThreadPoolExecutor(args.jobs) as ex:
        for line in ex.map(one, work):
            print(line, flush=True)


if __name__ == "__main__":
    main()
