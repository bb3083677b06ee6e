"""Reference harness for a kforecast CUDA job: the same two kernels, compiled by CuPy's
NVRTC and timed with triton.testing.do_bench (median, its own L2 flush).

    python3 reference_do_bench.py job.json     # job.json from `kforecast verify --emit-job`
"""
import json
import sys

import cupy as cp
import numpy as np
import triton.testing

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "u8": np.uint8,
          "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64}


def buffers(job, seed):
    rng = cp.random.default_rng(seed)
    args = []
    for a in job["args"]:
        dt = DTYPES[a["dtype"]]
        if a["kind"] == "scalar":
            args.append(dt(a["value"]))
            continue
        kind = a["init"]["kind"]
        n = a["len"]
        if kind == "zeros":
            args.append(cp.zeros(n, dtype=dt))
        elif kind == "ones":
            args.append(cp.ones(n, dtype=dt))
        elif kind == "randint":
            args.append(rng.integers(a["init"]["lo"], a["init"]["hi"], n).astype(dt))
        else:
            args.append(rng.standard_normal(n, dtype=np.float32).astype(dt))
    return args


def main():
    job = json.load(open(sys.argv[1]))["job"]
    result = {}
    for role in ("base", "candidate"):
        v = job[role]
        grid, block, smem = tuple(v["grid"]), tuple(v["block"]), v["shared_mem"]
        mod = cp.RawModule(code=v["source"], options=("-std=c++17",), name_expressions=[v["name_expression"]])
        fn = mod.get_function(v["name_expression"])
        args = tuple(buffers(job, 0))
        call = lambda fn=fn, args=args, grid=grid, block=block, smem=smem: fn(grid, block, args, shared_mem=smem)
        call()
        cp.cuda.Device().synchronize()
        result[role + "_ms"] = triton.testing.do_bench(call, warmup=25, rep=200, return_mode="median")
    result["speedup"] = result["base_ms"] / result["candidate_ms"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
