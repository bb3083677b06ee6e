"""The Triton runner's constants, errors and the check for a fatal CUDA error (see
triton_runner.py)."""

import traceback


RUNNER_NAME = "kforecast-triton-runner"
RUNNER_VERSION = "1"
PROTOCOL_VERSION = 1

CI_CONFIDENCE = 0.95
FLUSH_BYTES = 256 * 1024 * 1024

DTYPE_NAMES = (
    "float32", "float16", "bfloat16", "float64",
    "int32", "int64", "int8", "uint8", "bool",
)
FLOAT_DTYPES = ("float32", "float16", "bfloat16", "float64")
INIT_KINDS = ("randn", "rand", "zeros", "ones", "arange")

DEFAULTS = {
    "seed": 0,
    "rtol": 1e-4,
    "atol": 1e-5,
    "warmup": 3,
    "min_reps": 10,
    "max_reps": 200,
    "target_rel_ci": 0.01,
    "max_time_ms": 3000.0,
    "flush_l2": True,
    # do_bench only
    "rounds": 3,
    "bench_warmup_ms": 25,
    "bench_rep_ms": 100,
}

FATAL_MARKERS = (
    "illegal memory access",
    "device-side assert",
    "unspecified launch failure",
    "misaligned address",
    "illegal instruction",
    "CUDA error: an illegal",
    "cudaErrorIllegalAddress",
    "CUDA_ERROR_ILLEGAL_ADDRESS",
    "CUDA_ERROR_LAUNCH_FAILED",
    "uncorrectable ECC",
)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class RequestError(Exception):
    """The request itself is malformed (status: error, no version)."""


class NoGpu(Exception):
    """torch/triton missing or no CUDA device (status: no_gpu)."""


class VersionError(Exception):
    """Something failed in one version's code (status: error)."""

    def __init__(self, version, stage, message):
        super().__init__(message)
        self.version = version
        self.stage = stage
        self.message = message


def traceback_tail(max_lines=12, max_chars=4000):
    """The last lines of the current exception's traceback, as one string."""
    text = traceback.format_exc().rstrip()
    lines = text.splitlines()
    tail = "\n".join(lines[-max_lines:])
    if len(tail) > max_chars:
        tail = tail[-max_chars:]
    return tail


def is_fatal_cuda_error(message):
    low = (message or "").lower()
    return any(m.lower() in low for m in FATAL_MARKERS)
