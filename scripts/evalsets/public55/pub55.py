"""Builds public evaluation set 55 ("p55-" families, split "public55", kept unseen) from local
copies of two public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public55/pub55.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public55

Sources (fetched with the session's `fetch` tool first), all Triton:
- JonasGeiping/linear_cross_entropy_loss: one author's fused linear + cross-entropy loss; its
  `variants/` folder keeps the "graveyard" of earlier designs he tried (README, "Final Notes"),
  one standalone script each: mgmalek's chunked kernel he started from, the "malek-like"
  chunked versions with his own forward, the "double recomputation" versions that never store
  the logits, a chunked high-memory one and a split-parallel fusion. Each script has the same
  entry point, `linear_cross_entropy(x, y, At)` (mgmalek's: `(x, y, A)`), which its __main__
  calls forward and backward.
- l1351868270/ld_triton: one author's Triton ops, each beside a torch "naive" version: the
  linear layer as a grouped tile GEMM, then a persistent and a stream-K kernel (commits of
  April 2025), the softmax and the RMSNorm (whose kernels the commits of January 2025 rewrite).

A version is the source file at one commit, verbatim, plus a `kf_run` entry point marked
KFORECAST that calls the file's own entry function the way its __main__ or benchmark does
(forward, then `.backward` for the training families) and returns the outputs and gradients.
Versions are chosen by what the repository says of them (file names, README, commit
messages), never by speed. Adapters (`adapters/bench_p55_*.py`) are ours. The builder replaces
the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public55", "scripts/evalsets/public55/pub55.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public55"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-27"

# Versions built only with --with-unmeasured: the H100 measurement of MEASURED_DAY has no
# timing of them for reasons of ours, not of the source (path -> why), so the default set
# holds only measured versions.
UNMEASURED = {
    "p55-lce-variants/malek_like_with_my_fwd2.py": "autotuning still compiling after 72 s",
    "p55-lce-variants/malek_like_with_my_fwd2b.py": "autotuning still compiling after 72 s",
    "p55-lce-variants/double_recomp1.py": "autotuning still compiling after 72 s",
    "p55-lce-variants/double_recomp2.py": "autotuning still compiling after 72 s",
    "p55-lce-variants/manyway_recomp.py": "autotuning still compiling after 72 s",
    "p55-lce-variants/chunked_highmem.py": "autotuning still compiling after 72 s",
    "p55-ld-rmsnorm/triton_rms_norm_78911a5.py": (
        "one of 3584 dweight elements 0.022 off the naive version's, just outside our tolerance "
        "(0.02 + 2%), with one input draw; 3622172, the same arithmetic, passed with others"),
}

LCE = "JonasGeiping/linear_cross_entropy_loss"
LD = "l1351868270/ld_triton"


def version(out, fam, repo, path, commit, what, body, how, stem=None):
    full = repo.git("rev-parse", commit or repo.commit).strip()
    src = repo.show(path, full)
    stem = stem or os.path.splitext(os.path.basename(path))[0] + (f"_{commit}" if commit else "")
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(repo.name, full, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): " + how + "\n" + body)
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(mirror, out, fam, repo_name, steps, adapter, notes, how, everything=False):
    repo = setkit.Repo(mirror, repo_name)
    files = [version(out, fam, repo, p, c, w, b, how) for p, c, w, b in steps]
    left = [f for f in files if f in UNMEASURED]
    if left and not everything:
        for f in left:
            os.remove(os.path.join(out, f))
        keep = [i for i, f in enumerate(files) if f not in UNMEASURED]
        files = [files[i] for i in keep]
        steps = [steps[i] for i in keep]
        notes += (" Built but not measured (left out of this set; --with-unmeasured builds them): "
                  + "; ".join(f"{f.split('/', 1)[1]} ({UNMEASURED[f]})" for f in left) + ".")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: " + "; ".join(
                     f"{os.path.basename(p)}{'@' + c if c else ''} {w}" for p, c, w, _b in steps) + ".")
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


# ---------------------------------------------------------------- fused linear + cross-entropy
LCE_AT = ("def kf_run(x, y, A, At):\n"
          "    x = x.detach().requires_grad_()\n"
          "    At = At.detach().requires_grad_()\n"
          "    loss = linear_cross_entropy(x, y, At)\n"
          "    loss.backward()\n"
          "    return loss.detach(), x.grad, At.grad.T\n")
LCE_A = ("def kf_run(x, y, A, At):\n"
         "    x = x.detach().requires_grad_()\n"
         "    A = A.detach().requires_grad_()\n"
         "    loss = linear_cross_entropy(x, y, A)\n"
         "    loss.backward()\n"
         "    return loss.detach(), x.grad, A.grad\n")
V = "variants/"
LCE_STEPS = [
    (V + "malek_xent.py", None, "mgmalek's efficient_cross_entropy as the author kept it (README: "
     "'This solution owes a lot to the implementation of mgmalek'): 16 chunks of tokens, each "
     "chunk's logits by a torch matmul, one Triton program a row for the loss and the logit "
     "gradient (written over the logits), the gradients by torch matmuls", LCE_A),
    (V + "malek_like_with_my_fwd2.py", None, "'a compromise': his own forward kernel (online "
     "logsumexp over V tiles) also writes each 4096-token chunk's logits to an fp32 buffer made "
     "per chunk; still in the forward, dx by a Triton epilogue kernel on the chunk and dA by "
     "torch.addmm; the backward returns the stored gradients", LCE_AT),
    (V + "malek_like_with_my_fwd2b.py", None, "the compromise with the chunk buffer made once and "
     "dA also by a Triton epilogue kernel reading the chunk", LCE_AT),
    (V + "malek_like_with_my_fwdNV4.py", None, "the NV line: the forward kernel over an N x V grid "
     "(per-tile losses), a mini backward prologue kernel turning the chunk into logit gradients, "
     "dx and dA by torch matmuls on them", LCE_AT),
    (V + "double_recomp1.py", None, "'double recomp 1': no logits stored; the forward keeps the "
     "logsumexp, the backward recomputes the logits twice, in a dA kernel over V blocks and in a "
     "dx kernel over N blocks (fp32 gradient buffers)", LCE_AT),
    (V + "double_recomp2.py", None, "'double recomp 2': the two recomputing backward kernels "
     "retuned (static-asserted tile divisibility, gradients in fp16 buffers)", LCE_AT),
    (V + "manyway_recomp.py", None, "'double recomp - parallelize in H no matter the cost': the "
     "recomputing backward kernels on 2-D grids over V x H and N x H blocks", LCE_AT),
    (V + "chunked_highmem.py", None, "'high mem chunked': the forward with an atomically added "
     "loss; the backward loops on the host over H x H tiles of N x V, a prologue kernel writing "
     "each tile's fp16 logit gradients, one epilogue kernel for the dx and dA tiles, added into "
     "fp32 gradients by torch", LCE_AT),
]
LCE_LEFT_OUT = (
    "Left out: double_recomp2_final_story and double_recomp_thinboy (their backward launches "
    "only the dx kernel: dA stays zero), malek_like_with_my_fwdNV_atomics (its loss adds a "
    "constant 40), lock_city and "
    "double_recomp3 (spin locks across programs: may never finish), highmem "
    "(torch.compile(mode='max-autotune') in its backward), final_fusion_parallel_split (its "
    "autotuning compiled for over 70 s on the H100, past the measurement's limit), and the scripts with 45-273 autotune "
    "configurations (final_fusion*, malek_like_with_my_fwd/NV/NV2/NV3/NV5, compile_tests_NV5: "
    "minutes of compiling per process), including the deployed module "
    "(linear_cross_entropy/ops.py, 45 + 228 configs).")

# ---------------------------------------------------------------- ld_triton linear
LIN = "ld_triton/ops/linear/"


def lin_fwd(fn):
    return (f"def kf_run(x, w):\n"
            f"    return {fn}(x, w, None)\n")


NAIVE_WHAT = "'add support linear': torch.matmul with the weight transposed, bias added in place"
TRITON_WHAT = ("'add persistent backward': the grouped tile GEMM (tutorial-style, 16 autotune "
               "configs) with the bias in its epilogue, views for 3-D inputs")
LINEAR_FWD_STEPS = [
    (LIN + "naive_linear.py", "228bbd2", NAIVE_WHAT, lin_fwd("naive_linear")),
    (LIN + "triton_linear.py", "8a88f81", TRITON_WHAT, lin_fwd("triton_linear")),
    (LIN + "persistent_linear.py", "14c124b", "'persistent linear': one program an SM looping over "
     "(tile, k) steps of grouped output tiles, no bias in the kernel, forward only",
     lin_fwd("persistent_linear")),
    (LIN + "persistent_linear.py", "8a88f81", "'add persistent backward': the persistent kernel "
     "with the bias in its epilogue and the weight read through swapped strides, a persistent "
     "column-sum bias-gradient kernel", lin_fwd("persistent_linear")),
    (LIN + "streamk_linear.py", "19a30ce", "'add streamk': a stream-K kernel over NUM_SMS programs "
     "splitting the K loop of the tiles across SMs, partial tiles added into a zeroed output",
     lin_fwd("streamk_linear")),
    (LIN + "streamk_linear.py", "4956a40", "'update stream': the stream-K kernel rewritten (bias "
     "in the epilogue, full tiles first, then the stream-K remainder) with a backward",
     lin_fwd("streamk_linear")),
]

# ---------------------------------------------------------------- ld_triton softmax
SM = "ld_triton/ops/softmax/"


def train1(fn):
    return (f"def kf_run(x, dp):\n"
            f"    x = x.detach().requires_grad_()\n"
            f"    p = {fn}(x)\n"
            f"    p.backward(dp)\n"
            f"    return p.detach(), x.grad\n")


SOFTMAX_STEPS = [
    (SM + "naive_softmax.py", "8fc92ba", "'add support softmax': torch ops, max, exp, sum, divide; "
     "backward p * (dp - sum(p * dp))", train1("naive_softmax")),
    (SM + "triton_softmax.py", "8fc92ba", "'add support softmax': one Triton program a row for the "
     "forward and one for the backward, whole row in one block", train1("triton_softmax")),
]

# ---------------------------------------------------------------- ld_triton rms norm
RMS = "ld_triton/ops/rms_norm/"


def rms(fn):
    return (f"def kf_run(x, w, dy):\n"
            f"    x = x.detach().requires_grad_()\n"
            f"    w = w.detach().requires_grad_()\n"
            f"    y = {fn}(x, w, 1e-5)\n"
            f"    y.backward(dy)\n"
            f"    return y.detach(), x.grad, w.grad\n")


RMS_STEPS = [
    (RMS + "naive_rms_norm.py", "78911a5", "torch ops (fixed at this commit): rsqrt of the mean "
     "square, the backward in closed form", rms("naive_rms_norm")),
    (RMS + "triton_rms_norm.py", "78911a5", "'update rms_norm': a row kernel storing y and 1/rms, a "
     "dx row kernel, and a dweight kernel of one program a column reading the stored 1/rms",
     rms("triton_rms_norm")),
    (RMS + "triton_rms_norm.py", "3622172", "'update rms_norm' (3 commits on): the dweight store "
     "made write-through (cache_modifier='.wt'; the comment 'it is very poor of performance to "
     "store the dweight in this way'), the dx view moved inside its branch", rms("triton_rms_norm")),
]


def main():
    args = setkit.builder_args(
        __doc__, "/work/main/target/evalsets/public55",
        more=lambda ap: ap.add_argument("--with-unmeasured", action="store_true",
                                        help="also the versions listed in UNMEASURED"))
    setkit.clear_set(args.out)
    fams = [
        family(args.mirror, args.out, "p55-lce-variants", LCE, LCE_STEPS, "bench_p55_lce.py",
               "Jonas Geiping's fused linear + cross-entropy designs (variants/ at the initial "
               "commit), forward then backward at his f = 1 size V, N, H = 32768, 4096, 1024, fp16 "
               "operands as his __main__ draws them; outputs the mean loss, dL/dx, dL/dA. Each "
               "script sets CUDA_VISIBLE_DEVICES to his card when imported (the adapter imports "
               "it with CUDA already initialised and restores the variable) and prints its "
               "autotuned configs on every call. " + LCE_LEFT_OUT,
               "the variant's linear_cross_entropy as its __main__ calls it, then .backward()",
               everything=args.with_unmeasured),
        family(args.mirror, args.out, "p55-ld-linear", LD, LINEAR_FWD_STEPS,
               "bench_p55_ld_linear.py",
               "ld_triton's linear layers, forward only, bias None (persistent_linear at 14c124b "
               "takes no bias), fp16 input (16, 1, 8192) and weight (29696, 8192): the shape of "
               "persistent_linear's __main__ at 79e4200 (16 decode tokens, Qwen2.5-72B's MLP). "
               "Left out: triton_linear at 228bbd2 (the same kernel, without 3-D views), "
               "persistent_linear at 79e4200 (adds launch metadata only), streamk_linear at "
               "79e4200 (its 'import triton.profiler as import triton.profiler as proton' is a "
               "syntax error) and at 8a88f81 (its __main__ only changes).",
               "the file's linear function on (x, w, None)",
               everything=args.with_unmeasured),
        family(args.mirror, args.out, "p55-ld-softmax", LD, SOFTMAX_STEPS,
               "bench_p55_ld_softmax.py",
               "ld_triton's softmax over the last dimension, forward then backward, fp32 (4096, "
               "1024) (M of the author's benchmark, N inside his sweep).",
               "the file's softmax function on x, then .backward(dp)",
               everything=args.with_unmeasured),
        family(args.mirror, args.out, "p55-ld-rmsnorm", LD, RMS_STEPS, "bench_p55_ld_rmsnorm.py",
               "ld_triton's RMSNorm with weight, forward then backward, fp16 (4096, 3584) with the "
               "author's benchmark inputs. Left out: triton_rms_norm at 7d84143 (its dx lacks the "
               "weight factor: wrong), cf71328 and bd6001c (argument lists and a comment only).",
               "the file's rms_norm function on (x, w, 1e-5), then .backward(dy)",
               everything=args.with_unmeasured),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
