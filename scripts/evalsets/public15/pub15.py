#!/usr/bin/env python3
"""Builds public set 15 ("p15-" families): LeetGPU challenge solutions by several authors.

    pub15.py --mirror /work/.mirror --out /work/main/target/evalsets/public15

Reads local bare copies (made with the session's `fetch` tool) of the official LeetGPU
challenge repository (AlphaGPU/leetgpu-challenges: every challenge's `challenge.py`, whose
`reference_impl` is the torch baseline) and of public repositories of solutions to those
challenges (Triton programs with their `solve(...)` host wrapper), and writes, OUTSIDE the
repository, one family per challenge: the challenge module (reference version) and each
author's solution module, verbatim under a provenance header. All versions of a family
share the challenge's `solve` interface (same arguments in the same order; an output
tensor written in place), so the family's adapter calls them alike.

Versions are every Triton solution to the challenge found in the listed repositories
(none chosen or dropped by speed); left out by content only: files that are copies of
another kept file (lzyrapx's transpose is oraluben's native transpose less its comments),
solutions without a `solve` entry point (jandan138's 1-D convolution). Where the official
reference is a per-row Python loop (categorical cross-entropy: 10,000 `.item()` calls a
call), a torch solution (bluecoffee8's) is the reference instead.

The adapters (adapters/, kforecast's own code) and `_vendor/core/challenge_base.py` (the
official module the challenge files import) are written beside. Split "public15":
report-only, never tuned on, never run through kforecast by its builder.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))

from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SET15 = SetText("Evaluation set public15", "scripts/evalsets/public15/pub15.py", os.path.join(HERE, "adapters"))

REPOS = {
    "official": "AlphaGPU/leetgpu-challenges",
    "oraluben": "oraluben/LeetGPU",
    "devgdovg": "devgdovg/leetgpu_solutions",
    "mocusez": "mocusez/leetgpu-triton-solve",
    "bluecoffee8": "bluecoffee8/leetgpu_soln",
    "jandan138": "jandan138/leetgpu-pytorch",
    "jiangdongzi": "jiangdongzi/leetgpu",
    "lzyrapx": "lzyrapx/LeetGPU",
}

CH = "challenges/{}/challenge.py"

# family -> (challenge folder, op, reference (repo key, path), [(file name, repo key, path)], notes)
FAMILIES = [
    ("p15-softmax", "medium/5_softmax", "softmax", ("official", CH.format("medium/5_softmax")), [
        ("oraluben_three_kernel.py", "oraluben", "13-softmax/Triton/three_kernel.py"),
        ("oraluben_three_kernel_with_atomic.py", "oraluben", "13-softmax/Triton/three_kernel_with_atomic.py"),
        ("oraluben_reduce_in_one_block.py", "oraluben", "13-softmax/Triton/reduce_in_one_block.py"),
        ("oraluben_log_sum_exp.py", "oraluben", "13-softmax/Triton/log_sum_exp.py"),
        ("devgdovg_solve.py", "devgdovg", "leetgpu_softmax/solve.py"),
        ("mocusez_softmax.py", "mocusez", "medium-softmax.py"),
        ("bluecoffee8_softmax.py", "bluecoffee8", "triton/softmax.py"),
    ], "1-D softmax over N = 500,000 floats (the challenge's maximum and performance size); "
       "oraluben's four files are one author's ladder (raw-pointer solve interface)."),
    ("p15-prefix-sum", "medium/16_prefix_sum", "scan", ("official", CH.format("medium/16_prefix_sum")), [
        ("mocusez_prefix_sum.py", "mocusez", "medium-prefix_sum.py"),
        ("bluecoffee8_prefix_sum.py", "bluecoffee8", "triton/prefix_sum.py"),
        ("jiangdongzi_prefix_sum.py", "jiangdongzi", "triton_impl/prefix_sum.py"),
        ("devgdovg_solve.py", "devgdovg", "leetgpu_prefix_sum/solve.py"),
        ("devgdovg_solve_2.py", "devgdovg", "leetgpu_prefix_sum/solve_2.py"),
    ], "inclusive scan of N = 2^24 floats (the challenge allows 10^8; its performance size "
       "250,000 is below an H100's fill)."),
    ("p15-conv1d", "easy/9_1d_convolution", "convolution", ("official", CH.format("easy/9_1d_convolution")), [
        ("mocusez_conv1d.py", "mocusez", "easy-1D_convolution.py"),
        ("bluecoffee8_conv1d.py", "bluecoffee8", "triton/conv1d.py"),
        ("lzyrapx_conv1d.py", "lzyrapx", "triton/1D Convolution/1D Convolution.py"),
        ("devgdovg_solve.py", "devgdovg", "leetgpu_1d_convolution/solve.py"),
    ], "valid 1-D cross-correlation, input 1,500,000, kernel 2,047 (the challenge's performance size)."),
    ("p15-rope", "medium/61_rope_embedding", "rope", ("official", CH.format("medium/61_rope_embedding")), [
        ("mocusez_rope.py", "mocusez", "medium-rotary-positional-embedding.py"),
        ("bluecoffee8_rope.py", "bluecoffee8", "triton/rope.py"),
        ("jiangdongzi_rope.py", "jiangdongzi", "triton_impl/RotaryPositionalEmbedding.py"),
        ("devgdovg_solve.py", "devgdovg", "leetgpu_rotary_positional_embedding/solve.py"),
    ], "rotary embedding of a 1M x 128 float matrix (the challenge's performance size)."),
    ("p15-cross-entropy", "medium/25_categorical_cross_entropy_loss", "cross-entropy",
     ("bluecoffee8", "torch/categorical_ce_loss.py"), [
        ("oraluben_native.py", "oraluben", "22-categorical-cross-entropy-loss/Triton/native.py"),
        ("mocusez_ce.py", "mocusez", "medium-categorical_cross_entropy_loss.py"),
        ("bluecoffee8_cat_ce_loss.py", "bluecoffee8", "triton/cat_ce_loss.py"),
        ("devgdovg_solve.py", "devgdovg", "leetgpu_categorical_cross_entropy_loss/solve.py"),
    ], "mean cross-entropy of 10,000 x 1,000 logits (the challenge's performance size); the "
       "reference is bluecoffee8's torch solution (the official reference loops over rows in Python)."),
    ("p15-histogram", "medium/13_histogramming", "histogram", ("official", CH.format("medium/13_histogramming")), [
        ("mocusez_histogram.py", "mocusez", "medium-histograming.py"),
        ("bluecoffee8_histogram.py", "bluecoffee8", "triton/histogram.py"),
        ("devgdovg_solve.py", "devgdovg", "leetgpu_histogramming/solve.py"),
    ], "256-bin histogram of 50,000,000 int32 (the challenge's performance size)."),
    ("p15-transpose", "easy/3_matrix_transpose", "transpose", ("official", CH.format("easy/3_matrix_transpose")), [
        ("oraluben_native.py", "oraluben", "03-matrix-transpose/Triton/native.py"),
        ("oraluben_peak_performance.py", "oraluben", "03-matrix-transpose/Triton/peak_performance.py"),
        ("mocusez_transpose.py", "mocusez", "easy-matrix_transpose.py"),
        ("bluecoffee8_transpose.py", "bluecoffee8", "triton/matrix_transpose.py"),
        ("jandan138_solution_triton.py", "jandan138", "01_leetgpu_problems/easy/03_matrix_transpose/solution_triton.py"),
        ("devgdovg_solve.py", "devgdovg", "leetgpu_matrix_transpose/solve.py"),
    ], "transpose of a 7,000 x 6,000 float matrix (the challenge's performance size); lzyrapx's "
       "transpose left out (oraluben's native.py less its comments)."),
    ("p15-dot", "medium/17_dot_product", "dot", ("official", CH.format("medium/17_dot_product")), [
        ("mocusez_dot.py", "mocusez", "medium-dot_prodict.py"),
        ("bluecoffee8_dot.py", "bluecoffee8", "triton/dot_product.py"),
        ("devgdovg_solve.py", "devgdovg", "leetgpu_dot_product/solve.py"),
    ], "dot product of two 2^24-float vectors (the challenge allows 10^8; its performance size is 5)."),
]


def version_text(repo, path, what):
    return SET15.py_header(repo, path, what + " " + "Verbatim below this header.") + repo.show(path)


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public15")
    repos = {k: Repo(args.mirror, v) for k, v in REPOS.items()}
    out = args.out
    clear_set(out)
    official = repos["official"]
    write(os.path.join(out, "_vendor", "core", "challenge_base.py"),
          SET15.py_header(official, "challenges/core/challenge_base.py",
                          "The module every challenge.py imports (`from core.challenge_base import ...`).")
          + official.show("challenges/core/challenge_base.py"))
    write(os.path.join(out, "_p15common.py"), SET15.adapter("_p15common.py"))
    families, sources = [], {}
    for fam, chal, op, (rkey, rpath), versions, notes in FAMILIES:
        ref_repo = repos[rkey]
        ref_name = "ref_challenge.py" if rkey == "official" else f"ref_{rkey}_{os.path.basename(rpath)}"
        files = [f"{fam}/{ref_name}"]
        write(os.path.join(out, fam, ref_name),
              version_text(ref_repo, rpath, f"Reference version of LeetGPU challenge {chal}."))
        srcs = [{"file": files[0], "repo": ref_repo.name, "commit": ref_repo.commit, "path": rpath}]
        for name, key, path in versions:
            repo = repos[key]
            files.append(f"{fam}/{name}")
            write(os.path.join(out, fam, name),
                  version_text(repo, path, f"A solution to LeetGPU challenge {chal} by {repo.name.split('/')[0]}."))
            srcs.append({"file": files[-1], "repo": repo.name, "commit": repo.commit, "path": path})
        write(os.path.join(out, fam, "bench.py"), SET15.adapter(f"bench_{fam[4:].replace('-', '_')}.py"))
        authors = sorted({s["repo"] for s in srcs})
        families.append({"family": fam, "files": files, "split": "public15",
                         "source": f"LeetGPU challenge {chal}: " + ", ".join(authors),
                         "style": "leetgpu-triton-solve", "op": op, "notes": notes})
        sources[fam] = {"challenge": f"{official.name}@{official.commit}:{CH.format(chal)}", "versions": srcs}
    write_index(out, families, sources)
    n_files, n_pairs = pair_counts(families)
    print(f"pub15.py: {len(families)} families, {n_files} programs, {n_pairs} ordered pairs -> {out}")


if __name__ == "__main__":
    main()
