"""Builds public evaluation set 72 ("p72-" families, split "public72", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public72/pub72.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public72 [--dry-run]

Source (fetched with the session's `fetch` tool first), all Triton:
- linkedin/Liger-Kernel: LinkedIn's Triton kernel library for LLM training. Its git history keeps
  the successive implementations of each op: a version here is one op file
  (src/liger_kernel/ops/<op>.py) at one commit, from the library's first commit (45055fe) to
  HEAD, picked at the commits that changed the op's forward path (casting, aggregation, block
  kernel for small rows, empty_like instead of zeros_like, int64 program ids, float32 casts inside
  the cross-entropy kernel, a no-grad path that skips the gradient, ...).

A version file is the op file at its commit, verbatim, after a small loader marked KFORECAST
(ours) that puts that commit's copy of the library modules the op file imports
(`liger_kernel.ops.utils`, `liger_kernel.utils`, transitively, verbatim, under
SET/_liger/<commit>/ with empty package __init__ files of ours) first on sys.path, dropping any
liger_kernel module an earlier version loaded; it ends with a `kf_run` entry point marked
KFORECAST calling the op's torch.autograd.Function forward (`.apply`) the way the library's
modules call it, on inputs that do not require grad. Each family's reference version is a torch
eager program of ours. Adapters (`adapters/bench_p72_*.py`) are ours. The builder replaces the
whole set folder but `measurements/`.
"""

import ast
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public72", "scripts/evalsets/public72/pub72.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public72"
CARD = "NVIDIA H200"

# Versions that failed on the NVIDIA H200 (measurement of MEASURED_DAY): path -> why. None did:
# 29 of 29 passed, 140 ordered pairs (g1, 2026-11-28).
FAILING = {}
MEASURED_DAY = "2026-11-28"

REPO = "linkedin/Liger-Kernel"
SRC = "src/"
OPS = "src/liger_kernel/ops/"

LOADER = '''# KFORECAST loader (ours, not the source's): this commit's copy of the library modules the op
# file imports (verbatim, under SET/_liger/{commit}/) goes first on sys.path, and any liger_kernel
# module an earlier version loaded is dropped, so the imports below bind this commit's helpers.
import os as _kf_os
import sys as _kf_sys

for _kf_name in [n for n in _kf_sys.modules if n == "liger_kernel" or n.startswith("liger_kernel.")]:
    del _kf_sys.modules[_kf_name]
_kf_sys.path.insert(0, _kf_os.path.join(_kf_os.path.dirname(_kf_os.path.abspath(__file__)), "..", "_liger", "{commit}"))
# KFORECAST end of loader; the op file follows, verbatim.

'''

REF_HEAD = "import torch\nimport torch.nn.functional as F\n\n\n"

RMS_REF = REF_HEAD + '''def kf_run(x, w):
    # Llama RMSNorm in torch eager: float32 statistics, cast back, times the weight
    xf = x.float()
    y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)
    return w * y.to(x.dtype)
'''
SWIGLU_REF = REF_HEAD + '''def kf_run(a, b):
    # SwiGLU gate in torch eager (the Llama MLP's act_fn(gate) * up)
    return F.silu(a) * b
'''
GEGLU_REF = REF_HEAD + '''def kf_run(a, b):
    # GeGLU gate in torch eager (tanh-approximate GELU, as the library's kernel)
    return F.gelu(a, approximate="tanh") * b
'''
CE_REF = REF_HEAD + '''def kf_run(x, target):
    # mean cross-entropy over the rows in torch eager
    return F.cross_entropy(x, target, ignore_index=-100, reduction="mean")
'''

RMS_CALL = "LigerRMSNormFunction.apply(x, w, 1e-6{extra})"
RMS_RUN = "def kf_run(x, w):\n    return {call}\n"
GLU_RUN = "def kf_run(a, b):\n    return {call}\n"
CE_RUN = "def kf_run(x, target):\n    return {call}\n"

# family, adapter, op file, reference text, notes, kf_run template,
#   [(stem, commit, call in kf_run, what)]
FAMILIES = [
    ("p72-liger-rmsnorm", "bench_p72_liger_rmsnorm.py", "rms_norm.py", RMS_REF,
     "Liger-Kernel's RMSNorm forward over its history: x (32768, 4096) bf16 randn (tokens x hidden), "
     "weight (4096,) bf16 1 + 0.1 randn, eps 1e-6, output y bf16; LigerRMSNormFunction.apply(x, w, "
     "eps) at each commit's defaults (llama casting from d75dfb3 on). Reference: torch eager Llama "
     "RMSNorm (ours).", RMS_RUN,
     [("v1_first", "45055fed", RMS_CALL.format(extra=""),
       "first commit: one program a row, the row loaded once, rsqrt"),
      ("v2_casting", "d75dfb3b", RMS_CALL.format(extra=""),
       "'Update the casting logic of RMSNorm' (#201): llama/gemma casting modes"),
      ("v3_aggregation", "e1e9d2e3", RMS_CALL.format(extra=""),
       "'RMSNorm aggregation' (#255): the forward as of the dW aggregation rewrite"),
      ("v4_block", "e99bbb54", RMS_CALL.format(extra=""),
       "'add block rms_norm for qk norm' (#731): row kernel here (BLOCK_SIZE > 256)"),
      ("v5_head", "ead96b61", RMS_CALL.format(extra=""),
       "HEAD: device_context, fp32-pinned scalars, NPU/XPU paths; row kernel here")]),
    ("p72-liger-qknorm", "bench_p72_liger_qknorm.py", "rms_norm.py", RMS_REF,
     "Liger-Kernel's RMSNorm forward on QK-norm rows: x (1048576, 128) bf16 randn (tokens*heads x "
     "head_dim), weight (128,) bf16 1 + 0.1 randn, eps 1e-6, output bf16; "
     "LigerRMSNormFunction.apply at each commit, with the row_mode argument where named. Reference: "
     "torch eager Llama RMSNorm (ours).", RMS_RUN,
     [("v1_first", "45055fed", RMS_CALL.format(extra=""),
       "first commit: one program a 128-element row"),
      ("v2_casting", "d75dfb3b", RMS_CALL.format(extra=""),
       "#201: llama casting, one program a row"),
      ("v3_rowmode", "e99bbb54", RMS_CALL.format(extra=', 0.0, "llama", True, True'),
       "#731 with row_mode=True: the one-row-a-program kernel"),
      ("v4_blockmode", "e99bbb54", RMS_CALL.format(extra=""),
       "#731 at its defaults: _block_rms_norm_forward_kernel, 16 rows a program (BLOCK_SIZE <= 256)"),
      ("v5_head", "ead96b61", RMS_CALL.format(extra=""),
       "HEAD at its defaults: the block kernel, fp32-pinned scalars")]),
    ("p72-liger-swiglu", "bench_p72_liger_swiglu.py", "swiglu.py", SWIGLU_REF,
     "Liger-Kernel's SwiGLU forward (silu(a) * b) over its history: a, b (16384, 8192) bf16 randn, "
     "output bf16; LigerSiLUMulFunction.apply(a, b). Reference: torch eager F.silu(a) * b (ours).",
     GLU_RUN,
     [("v1_first", "45055fed", "LigerSiLUMulFunction.apply(a, b)",
       "first commit: one program a row, output from torch.zeros_like"),
      ("v2_empty", "07804e43", "LigerSiLUMulFunction.apply(a, b)",
       "'zeros_like -> empty_like' (#217)"),
      ("v3_int64", "58fd2bc8", "LigerSiLUMulFunction.apply(a, b)",
       "'Cast program_id to int64' (#251)"),
      ("v4_head", "ead96b61", "LigerSiLUMulFunction.apply(a, b)",
       "HEAD: gate multiplier argument, Blackwell column tiling (not taken on Hopper), device_context")]),
    ("p72-liger-geglu", "bench_p72_liger_geglu.py", "geglu.py", GEGLU_REF,
     "Liger-Kernel's GeGLU forward (gelu_tanh(a) * b) over its history: a, b (16384, 8192) bf16 randn, "
     "output bf16; LigerGELUMulFunction.apply(a, b). Reference: torch eager F.gelu(a, approximate="
     "'tanh') * b (ours). The first commit's file (tl.math.tanh, gone in Triton 3) is left out for "
     "2dc738d, the library's own Triton 3 fix.", GLU_RUN,
     [("v1_triton3", "2dc738d6", "LigerGELUMulFunction.apply(a, b)",
       "'forward compatibility with triton 3.0.0 for tanh' (#24): libdevice tanh, zeros_like output"),
      ("v2_empty", "07804e43", "LigerGELUMulFunction.apply(a, b)",
       "'zeros_like -> empty_like' (#217)"),
      ("v3_int64", "58fd2bc8", "LigerGELUMulFunction.apply(a, b)",
       "'Cast program_id to int64' (#251)"),
      ("v4_fix", "57848d53", "LigerGELUMulFunction.apply(a, b)",
       "'Fix geglu' (#986)"),
      ("v5_head", "ead96b61", "LigerGELUMulFunction.apply(a, b)",
       "HEAD: device-guarded launch")]),
    ("p72-liger-ce", "bench_p72_liger_ce.py", "cross_entropy.py", CE_REF,
     "Liger-Kernel's cross-entropy forward over its history: logits (8192, 32000) fp32 randn, targets "
     "int64 uniform in [0, 32000), mean loss (a 0-d fp32 tensor); LigerCrossEntropyFunction.apply at "
     "each commit's defaults (ignore_index -100, no smoothing, no z-loss) on logits that do not "
     "require grad (the early kernels write the gradient into the logits in place anyway; later ones "
     "skip it without grad). Reference: torch eager F.cross_entropy (ours).", CE_RUN,
     [("v1_first", "45055fed", "LigerCrossEntropyFunction.apply(x, target, -100)",
       "first commit: online softmax a row, gradient written in place of the logits"),
      ("v2_reduction", "53d5934c", "LigerCrossEntropyFunction.apply(x, target, -100, 0.0, 'mean')",
       "'Reduction support for CrossEntropy' (#153), label smoothing (#198)"),
      ("v3_fp32cast", "90fb5e4a", "LigerCrossEntropyFunction.apply(x, target, -100)[0]",
       "'Optimize CE Loss by casting dtype to float32 inside kernel' (#406), z-loss (#239)"),
      ("v4_nograd", "c856fbab", "LigerCrossEntropyFunction.apply(x, target, None)[0]",
       "'Filter out redundant ops/allocations in no_grad mode' (#906): gradient skipped without grad"),
      ("v5_head", "ead96b61", "LigerCrossEntropyFunction.apply(x, target, None)[0]",
       "HEAD: token accuracy / predicted tokens options, tl.where control flow")]),
]


def _liger_imports(text):
    """liger_kernel modules a file imports (anywhere in it)."""
    mods = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "liger_kernel":
                mods.add(node.module)
                mods.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            mods.update(a.name for a in node.names if a.name.split(".")[0] == "liger_kernel")
    return mods


def write_lib(repo, out, commit, op_text):
    """SET/_liger/<commit>/: the library modules `op_text` needs, transitively, verbatim."""
    root = os.path.join(out, "_liger", commit)
    done, todo = {}, sorted(_liger_imports(op_text))
    while todo:
        mod = todo.pop()
        path = SRC + mod.replace(".", "/") + ".py"
        if mod in done or not repo.has(commit, path):
            continue
        done[mod] = repo.show(path, commit)
        todo.extend(sorted(_liger_imports(done[mod]) - set(done)))
    pkgs = {"liger_kernel", "liger_kernel.ops"}
    for mod in done:
        parts = mod.split(".")
        pkgs.update(".".join(parts[:i]) for i in range(1, len(parts)))
    for pkg in sorted(pkgs):
        setkit.write(os.path.join(root, *pkg.split("."), "__init__.py"),
                     "# KFORECAST: an empty package file of ours (the library's own one imports every op)\n")
    for mod, text in done.items():
        setkit.write(os.path.join(root, *mod.split(".")) + ".py", text)


def family(repo, out, fam, adapter, opfile, ref_text, notes, run, versions):
    files = [f"{fam}/ref_torch.py"]
    setkit.write(os.path.join(out, files[0]), TEXT.ours_py(
        "The family's reference version: the op in torch eager.", ref_text))
    said = []
    for stem, commit, call, what in versions:
        full = repo.git("rev-parse", commit).strip()
        op_text = repo.show(OPS + opfile, full)
        write_lib(repo, out, commit, op_text)
        rel = f"{fam}/{stem}.py"
        src = (TEXT.py_line_header(repo.name, full, OPS + opfile, what)
               + "# " + setkit.VERBATIM + "\n\n" + LOADER.format(commit=commit)
               + op_text.rstrip() + "\n\n\n"
               + "# KFORECAST entry point (ours): the op's autograd Function forward, as the library calls it\n"
               + run.format(call=call))
        setkit.write(os.path.join(out, rel), src)
        files.append(rel)
        said.append(f"{stem} ({commit}: {what})")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: ref_torch (ours); " + "; ".join(said) + ".")
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in files]
    if bad:
        entry["notes"] += f" {CARD} measurement of {MEASURED_DAY}, failing: " + "; ".join(bad) + "."
    else:
        entry["notes"] += f" {CARD} measurement of {MEASURED_DAY}: every version passed."
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public72",
                               more=lambda ap: ap.add_argument("--dry-run", action="store_true",
                                                               help="build, then compile every "
                                                               "version and adapter (no GPU)"))
    setkit.clear_set(args.out)
    repo = setkit.Repo(args.mirror, REPO)
    fams = [family(repo, args.out, *f) for f in FAMILIES]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))
    if args.dry_run:
        paths = [os.path.join(args.out, r) for f in fams for r in f["files"]]
        paths += [os.path.join(args.out, f["family"], "bench.py") for f in fams]
        for p in paths:
            with open(p, encoding="utf-8") as fh:
                compile(fh.read(), p, "exec")
        print("dry run: every version and adapter compiles")


if __name__ == "__main__":
    main()
