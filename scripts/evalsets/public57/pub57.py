"""Builds evaluation set public57 ("p57-" families, unseen) from a local copy of a public
repository no other set uses, outside the repository:

    python3 scripts/evalsets/public57/pub57.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public57

Source (fetch it first with the session's `fetch` tool):
- kaiming-cheng/kernelagent-optimization-artifacts (HEAD 56cf918, "Initial commit: KernelAgent
  optimization artifacts"): the artifacts of Meta's KernelAgent beam-search optimisation loop
  (profile -> LLM bottleneck analysis -> LLM rewrite, 8 rounds, 4 workers) on five KernelBench
  level-1 problems, run on an H100. Per problem: `problem.py` (the KernelBench PyTorch `Model`),
  `input_kernel.py` (the Triton kernel an earlier KernelAgent run wrote, fed into the loop),
  `optimization_trace/round_N/kernel.py` (the round's best kernel, each an LLM rewrite: new kernel
  names, kernel counts, tiling and launch code) and `optimized_kernel_beam_search.py` (the final).
  Every kernel file defines `kernel_function(...)`, which the repository's benchmark.py calls with
  the problem's inputs in bf16 and the Model's parameters that the signature names (_bind_kernel).

One family per problem. Versions: problem.py (reference), input_kernel.py, and the kernels of rounds
2, 4, 6 and 8; where the final kernel equals none of those, it replaces round 2 (it is then either
its own file or the round it equals). A version is the source file verbatim plus only a KFORECAST
`kf_run(*inputs, **params)` entry point that calls `kernel_function` as benchmark.py does (the
adapter binds the parameters as _bind_kernel does). Nothing is chosen by speed. Adapters
(adapters/, ours) are copied in as `<family>/bench.py`, with the shared helper `_p57ka.py` at the
set's root. The builder replaces the whole folder but `measurements/`. Split "public57":
report-only, never tuned on, never run through kforecast by its builder.
"""

import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))

import setkit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = setkit.SetText("Evaluation set public57", "scripts/evalsets/public57/pub57.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public57"
KA = "kaiming-cheng/kernelagent-optimization-artifacts"
KA_HEAD = "56cf9183b527307538ccbe8f554a88502918d2d1"
ROUNDS = (2, 4, 6, 8)
MEASURED_DAY = "2026-11-27"
# Filled in from the H100 measurement: family -> status line; "family/file" -> why it failed.
STATUS_H100 = {
    "p57-ka-matvec": "every version passed, 30 ordered pairs (round 8 and the problem's torch.matmul equal: both "
                     "at the memory bound, 0.107 ms)",
    "p57-ka-rmsnorm": "every version passed, 30 ordered pairs (rounds 4 and 6 equal within 0.2%)",
    "p57-ka-maxpool3d": "every version passed, 30 ordered pairs",
    "p57-ka-convt3d": "every version passed, 30 ordered pairs (every kernel slower than the problem's cuDNN "
                      "ConvTranspose3d, 0.12x-0.39x)",
    "p57-ka-dwconv2d": "every version passed, 30 ordered pairs",
}
FAILING_H100 = {}

# (family, problem folder, adapter, what the adapter's size is)
FAMILIES = [
    ("p57-ka-matvec", "04_Matrix_vector_multiplication", "bench_p57_ka_matvec.py",
     "KernelBench level 1 problem 4, matrix-vector product C = A @ B, A (M, K), B (K, 1); bf16 as the "
     "artifacts' benchmark.py runs it, M = 2048, K = 65536 (the problem's K = 1048576 cut 16 times; A is 256 MB)"),
    ("p57-ka-rmsnorm", "36_RMSNorm", "bench_p57_ka_rmsnorm.py",
     "KernelBench level 1 problem 36, RMSNorm over the channel dimension of an NCHW tensor, x / sqrt(mean(x^2, "
     "dim=1) + eps), eps 1e-5; bf16, x 4 x 64 x 512 x 512 (the problem's batch 112 cut to 4, 128 MB). "
     "Most kernels write the result into x in place when no output is given (as benchmark.py calls them); the "
     "checks run on copies of the inputs, the timing on one draw that the in-place versions normalise again each "
     "call (the values stay at RMS 1)"),
    ("p57-ka-maxpool3d", "43_Max_Pooling_3D", "bench_p57_ka_maxpool3d.py",
     "KernelBench level 1 problem 43, MaxPool3d kernel 3, stride 2, padding 1, dilation 3; bf16, x 2 x 32 x "
     "128^3 (the problem's batch 16 cut to 2, 256 MB)"),
    ("p57-ka-convt3d", "77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__",
     "bench_p57_ka_convt3d.py",
     "KernelBench level 1 problem 77, ConvTranspose3d 32 -> 64 channels, kernel 3, stride 2, padding 1, "
     "dilation 2, no bias; bf16 input and weight (drawn under a fixed seed), x 4 x 32 x 16 x 32 x 32 (the "
     "problem's batch 16 cut to 4; output 4 x 64 x 31 x 65 x 65)"),
    ("p57-ka-dwconv2d", "82_conv_depthwise_2D_square_input_square_kernel", "bench_p57_ka_dwconv2d.py",
     "KernelBench level 1 problem 82, depthwise Conv2d, 64 channels, kernel 3, stride 1, padding 0, no bias; "
     "bf16 input and weight (drawn under a fixed seed), x 4 x 64 x 512 x 512 (the problem's batch 16 cut to 4, "
     "128 MB). Every family's size is cut from the problem's so that the float64 copies of 14 check processes "
     "fit the GPU at once, while a call stays near or above 0.1 ms"),
]

ENTRY = ("\n\n# KFORECAST entry point (ours): the artifacts' benchmark.py (_bind_kernel) calls kernel_function with "
         "the problem's\n# inputs (bf16) and the problem Model's parameters that its signature names (all of them, "
         "as keywords,\n# where it takes **kwargs); the adapter passes those parameters here.\n"
         "def kf_run(*inputs, **params):\n    return kernel_function(*inputs, **params)\n")


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


def pick_versions(ka, folder):
    """[(file name, source path, what)] after problem.py: the input kernel, rounds 2/4/6/8, the final."""
    final_path = f"{folder}/optimized_kernel_beam_search.py"
    final = md5(ka.show(final_path))
    rounds = {}
    for n in range(1, 9):
        p = f"{folder}/optimization_trace/round_{n}/kernel.py"
        if ka.has(KA_HEAD, p):
            rounds[n] = (p, md5(ka.show(p)))
    final_round = [n for n, (_, h) in sorted(rounds.items()) if h == final]
    chosen = [n for n in ROUNDS if n in rounds]
    final_name = None
    if not any(rounds[n][1] == final for n in chosen):
        chosen = chosen[1:]
        if final_round:
            chosen = sorted(chosen + [final_round[0]])
            final_name = final_round[0]
        else:
            final_name = "own"
    out = [("v1_input_kernel.py", f"{folder}/input_kernel.py",
            "The input kernel: the Triton kernel an earlier KernelAgent run wrote, fed into the optimisation loop.")]
    i = 2
    for n in chosen:
        p, h = rounds[n]
        is_final = h == final
        what = f"Round {n}'s best kernel of the beam search (an LLM rewrite of the previous round's best)"
        what += "; the loop's final kernel (optimized_kernel_beam_search.py is the same text)." if is_final else "."
        out.append((f"v{i}_round{n}.py", p, what))
        i += 1
    if final_name == "own":
        out.append((f"v{i}_final.py", final_path,
                    "The loop's final kernel, optimized_kernel_beam_search.py (a text no round's kernel.py has)."))
    return out, sorted(rounds), final_round


def family_entry(out, family, files, source, adapter, notes):
    setkit.write(os.path.join(out, family, "bench.py"), TEXT.adapter(adapter))
    fam = dict(family=family, files=files, split=SPLIT, source=source, style="agent-kernelbench-triton",
               notes=notes)
    if family in STATUS_H100:
        fam["notes"] += f" H100 measurement of {MEASURED_DAY}: {STATUS_H100[family]}."
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING_H100.items() if f in files]
    if bad:
        fam["notes"] += " Failing: " + "; ".join(bad) + "."
    return fam


def build_family(out, ka, family, folder, adapter, size):
    files, vers = [], []
    p = f"{folder}/problem.py"
    hdr = TEXT.header(ka, [p], "The reference version: the KernelBench problem's PyTorch Model (run in bf16 by the "
                      "adapter, as the artifacts' benchmark.py runs its eager baseline).", comment="#",
                      note=setkit.VERBATIM)
    setkit.write(os.path.join(out, family, "v0_problem.py"), hdr + ka.show(p))
    files.append(f"{family}/v0_problem.py")
    vers.append({"file": files[-1], "path": p})
    picked, rounds, final_round = pick_versions(ka, folder)
    for name, path, what in picked:
        text = ka.show(path)
        if "def kernel_function" not in text:
            raise SystemExit(f"pub57.py: {path} has no kernel_function")
        hdr = TEXT.header(ka, [path], what, comment="#", note=setkit.VERBATIM)
        setkit.write(os.path.join(out, family, name), hdr + text.rstrip("\n") + "\n" + ENTRY)
        files.append(f"{family}/{name}")
        vers.append({"file": files[-1], "path": path, "md5": md5(text)})
    fin = (f"round {final_round[0]}'s kernel" if final_round else "a text of its own")
    notes = (f"{size}. Versions: the problem's Model (reference), the input kernel and the best kernels of beam-search "
             f"rounds {', '.join(n.split('round')[1].split('.')[0] for n, _, _ in picked if 'round' in n)}"
             f"{' and the final kernel' if any('final' in n for n, _, _ in picked) else ''} of one KernelAgent run "
             f"(rounds with a kernel.py: {', '.join(map(str, rounds))}; the final kernel is {fin}); each an LLM rewrite "
             "with its own kernel names, kernel count, tiling and launch code, all entered through kernel_function. "
             "Left out: the other rounds (to keep the family's pairs near 30), the per-round prompts, NCU metrics and "
             "replies. Output checked in bf16 against the reference version and a float64 evaluation of the Model "
             "on the same bf16-rounded inputs and weights.")
    fam = family_entry(out, family, files, f"{KA}@{KA_HEAD[:12]} {folder}", adapter, notes)
    return fam, {"repo": KA, "commit": KA_HEAD, "problem": folder, "versions": vers}


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public57")
    ka = setkit.Repo(args.mirror, KA)
    if ka.commit != KA_HEAD:
        raise SystemExit(f"pub57.py: {KA} is at {ka.commit}, not {KA_HEAD}")
    setkit.clear_set(args.out)
    families, sources = [], {}
    for family, folder, adapter, size in FAMILIES:
        fam, src = build_family(args.out, ka, family, folder, adapter, size)
        families.append(fam)
        sources[family] = src
    setkit.write(os.path.join(args.out, "_p57ka.py"), TEXT.adapter("_p57ka.py"))
    setkit.write_index(args.out, families, sources)
    n, pairs = setkit.pair_counts(families)
    print(json.dumps({"families": len(families), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
