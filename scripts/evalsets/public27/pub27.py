"""Builds public evaluation set 27 ("p27-" families, split "public27", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public27/pub27.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public27

Sources (fetched with the session's `fetch` tool first):
- facebookresearch/xformers: the legacy Triton operators of xformers/triton/ (removed in
  2024), rewritten over the library's history. A version is the op's kernel module
  (xformers/triton/k_<op>.py) and, where the host launcher lives apart, its launcher module
  (xformers/triton/<op>.py) at one commit, verbatim, in one file (kernel module first). The
  launcher's import of the kernel module is commented out (the names are defined above in the
  same file), and any other `from xformers.` import is pointed at that commit's own files,
  vendored under `_vendor/xformers_<commit>/` (all marked KFORECAST). Versions: every commit
  on the development line (branches merged into main included) that changed the op's kernel
  module after the Triton 2 port (2022-03-23), taken by what its message says; commits before
  that port write kernels with the Triton 1 `**meta` signature, which Triton 3 rejects, and are
  left out. Families: fused linear forward (k_fused_matmul_fw.fused_matmul), LayerNorm,
  softmax, RMSNorm (2023) and the strided column sum (k_sum).
- arseniivanov/trimul and davidberard98/gpumode-trimul: GPU MODE TriMul `custom_kernel`
  submissions (the problem's own reference.py `ref_kernel`, as the first repository ships it;
  the author's torch.compile and functional PyTorch submissions; his four Triton submissions,
  one per leaderboard GPU; the second author's Triton submission). The problem files they
  import (task.py, utils.py) are copied beside them from the first repository (marked).

A version is the source's text verbatim but for the lines marked KFORECAST. Two families
(RMSNorm, column sum) start with an eager torch program of ours (marked as ours) as the
reference. Adapters (`adapters/bench_p27_*.py`, each with a float64 `reference`) are ours. The
builder replaces the whole set folder but `measurements/`.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public27", "scripts/evalsets/public27/pub27.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public27"

XF = "facebookresearch/xformers"
TRIMUL = "arseniivanov/trimul"
DB = "davidberard98/gpumode-trimul"

T = "xformers/triton/"
# what the repository says of each commit taken (its subject line; 33a94165's subject is a stray
# commit header, so its author and place in the Triton 2 port are given instead)
XF_SUBJECTS = {
    "a22ceded": "triton 2.0 fixes",
    "33a94165": "Kashif Rasul's Triton 2 port step inside PR #272 (its subject line is a stray commit header)",
    "c4c7b5f0": "faster layernorm (the state merged as '[backend] 3/3 Triton 2 update (#272)')",
    "3f168e11": "small cleanup and much better perfs ('[perf] Fused linear : small FW cleanup and much better perfs (#283)')",
    "e465564a": "moving all the matmuls to the triton model",
    "d78c1dae": "Updating the curves, small improvements ('[fix] Updating the fused linear curves, small improvements (#304)')",
    "6a0b82ca": "updating triton to a recent release ... switching all the asserts in triton fused linear layer to triton's",
    "6a294d6e": "Adding the StarReLU activation option",
    "99e4a866": "small cleanup, dumping the 4 tiles dropout option ('[chore] Update compatibility to a recent Triton (#483)')",
    "16f67e89": "[fix] support ndims > 3 in fused matmul (#840)",
    "c1b63176": "removing the fp16 blocksparse crutch ('[triton] bfloat16 aware blocksparse & softmax (#528)')",
    "9b1eba31": "rmsnorm",
    "e1cee444": "minor",
}

# (family, module paths (kernel first), commits oldest first, adapter, ours (file, body) or None, notes)
XF_FAMILIES = [
    ("p27-xf-fused-linear", [T + "k_fused_matmul_fw.py"],
     ["a22ceded", "33a94165", "c4c7b5f0", "3f168e11", "e465564a", "d78c1dae", "6a0b82ca", "6a294d6e",
      "99e4a866", "16f67e89"],
     "bench_p27_xf_fused_linear.py", None,
     "xformers' fused linear forward, fused_matmul(x, weight, bias) of xformers/triton/k_fused_matmul_fw.py "
     "(an autotuned Triton GEMM + bias + optional activation; the module holds the kernel and its host "
     "wrapper) at every commit that changed it after the Triton 2 port, by message: triton 2.0 fixes; "
     "Kashif Rasul's port step; the merged Triton 2 update; 'much better perfs' (#283); moving the "
     "matmuls; 'small improvements' (#304); a newer Triton (activation by index); StarReLU; Triton "
     "compatibility (#483); ndims > 3 (#840). Left out before measuring: d8e0d2d3 ('WIP') and "
     "288c7031 ('align with triton', imports triton.ops, gone from Triton 3). x fp16 4 x 1024 x 4096, "
     "weight fp16 4096 x 4096, bias fp16 4096 (M = N = K = 4096), no activation (each version's "
     "default). The reference is v2 (33a94165), the oldest that builds with Triton 3.6: v1 (a22ceded) "
     "stays in the family, after it, as a failing version (its kernel takes BLOCK_M from a tuple "
     "assignment, `BLOCK_M, GROUP_M = BLOCK_ROW, GROUP_ROW`, and Triton 3.6 rejects tl.arange(0, BLOCK_M): "
     "'arange's arguments must be of type tl.constexpr')."),
    ("p27-xf-layernorm", [T + "k_layer_norm.py", T + "layer_norm.py"],
     ["a22ceded", "33a94165", "c4c7b5f0"],
     "bench_p27_xf_layernorm.py", None,
     "xformers' Triton LayerNorm forward (kernel module k_layer_norm.py + its autograd launcher "
     "layer_norm.py, called as _LayerNorm.apply(x, weight, bias, eps), the Triton path that "
     "layer_norm() takes for float32) at the commits that changed the kernel module after the Triton 2 "
     "port, by message: triton 2.0 fixes; Kashif Rasul's port step; 'faster layernorm' (merged as the "
     "Triton 2 update, #272). Later commits changed only the launcher's logging, device argument and "
     "except clause. x float32 16384 x 4096 (2^26), weight and bias float32 4096, eps 1e-5."),
    ("p27-xf-softmax", [T + "k_softmax.py", T + "softmax.py"],
     ["a22ceded", "33a94165", "c1b63176"],
     "bench_p27_xf_softmax.py", None,
     "xformers' Triton softmax forward over the last dim (k_softmax.py + launcher softmax.py, called "
     "as _softmax_triton.apply(x, None, False, False): no mask, not log, not causal) at the commits "
     "that changed the kernel module after the Triton 2 port, by message: triton 2.0 fixes; Kashif "
     "Rasul's port step; 'removing the fp16 blocksparse crutch' (#528). x float32 16 x 1024 x 4096 (2^26)."),
    ("p27-xf-rmsnorm", [T + "k_rms_norm.py", T + "rms_norm.py"],
     ["9b1eba31", "e1cee444"],
     "bench_p27_xf_rmsnorm.py",
     ("v1_torch_eager.py", """import torch


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6):
    # eager PyTorch RMSNorm over the last dim (float32 statistics)
    rstd = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)
    return (x.float() * rstd * weight.float()).to(x.dtype)
"""),
     "xformers' Triton RMSNorm forward (k_rms_norm.py + launcher rms_norm.py, called as "
     "_RMSNorm.apply(x, weight, eps)) at both commits that wrote it (by message: 'rmsnorm', 'minor'), "
     "after an eager torch RMSNorm of ours (the reference). x float32 16384 x 4096 (2^26), weight "
     "float32 4096, eps 1e-6."),
    ("p27-xf-sum-strided", [T + "k_sum.py", T + "sum_strided.py"],
     ["a22ceded", "e465564a"],
     "bench_p27_xf_sum_strided.py",
     ("v1_torch_eager.py", """import torch


def sum_2d_dim_0(x: torch.Tensor):
    # eager PyTorch sum of a 2-D tensor over its first (strided) dim
    return x.sum(dim=0)
"""),
     "xformers' Triton strided column sum sum_2d_dim_0(x) (k_sum.py + sum_strided.py: a 2-D tensor "
     "summed over dim 0, used for bias gradients) at both commits after the Triton 2 port that changed "
     "kernel or launch (by message: triton 2.0 fixes; 'moving all the matmuls to the triton model', "
     "which changed the tile sizes), after an eager x.sum(dim=0) of ours (the reference). Earlier "
     "commits ('larger tiles and better speed', ...) use the Triton 1 **meta signature: left out. x "
     "float32 2048 x 32768 (2^26; the launcher falls back to torch above 2048 rows)."),
]

# a package import whose name the package's __init__ re-exports from one module
XF_REEXPORTS = {("xformers.components", "Activation"): "xformers.components.activations"}

# families whose oldest taken commit does not build with the GPU machine's Triton (3.6): the oldest
# one that does is the family's reference (listed first), the others follow oldest first
REFERENCE_COMMIT = {"p27-xf-fused-linear": "33a94165"}

IMPORT_RE = re.compile(r"^(\s*)from (xformers(?:\.\w+)*) import (.*)$")


def _statement_end(lines, i):
    """Index of the last line of the import statement starting at lines[i]."""
    if "(" not in lines[i] or ")" in lines[i]:
        return i
    j = i
    while ")" not in lines[j]:
        j += 1
    return j


class XfVendor:
    """Rewrites `from xformers.` imports of one commit's files and vendors what they name."""

    def __init__(self, repo, commit, out):
        self.repo, self.commit, self.out = repo, commit, out
        self.pkg = f"xformers_{commit[:8]}"
        self.done = set()

    def module_file(self, mod):
        p = mod.replace(".", "/") + ".py"
        return p if self.repo.has(self.commit, p) else None

    def rewrite(self, text, defined=()):
        lines = text.split("\n")
        out, needed, i = [], [], 0
        while i < len(lines):
            m = IMPORT_RE.match(lines[i])
            if not m:
                out.append(lines[i])
                i += 1
                continue
            j = _statement_end(lines, i)
            indent, mod, names = m.groups()
            if mod in defined:
                out += [f"# KFORECAST (defined above in this file): {l}" for l in lines[i:j + 1]]
            else:
                target = mod
                if self.module_file(mod) is None:
                    target = XF_REEXPORTS.get((mod, names.strip()))
                    if target is None:
                        raise SystemExit(f"pub27.py: cannot resolve `from {mod} import {names}` at {self.commit}")
                needed.append(self.module_file(target))
                new = f"{indent}from {self.pkg}{target[len('xformers'):]} import {names}"
                out.append(new + f"  # KFORECAST: was `from {mod} import`, this commit's file vendored")
                out += lines[i + 1:j + 1]
            i = j + 1
        for line in out:
            if re.match(r"^\s*import xformers", line):
                raise SystemExit(f"pub27.py: unhandled `{line.strip()}` at {self.commit}")
        for p in needed:
            self.vendor(p)
        return "\n".join(out), needed

    def vendor(self, path):
        if path in self.done:
            return
        self.done.add(path)
        root = os.path.join(self.out, "_vendor", self.pkg)
        parts = path.split("/")[1:]
        stub = (f"# KFORECAST: a stand-in package for {self.repo.name}@{self.commit} files vendored "
                "below (no code of ours).\n")
        for k in range(len(parts)):
            init = os.path.join(root, *parts[:k], "__init__.py")
            if not os.path.exists(init):
                setkit.write(init, stub)
        body, _ = self.rewrite(self.repo.show(path, self.commit))
        setkit.write(os.path.join(root, *parts),
                     f"# KFORECAST: vendored from {self.repo.name}@{self.commit}:{path} (verbatim but for "
                     "lines marked KFORECAST)\n" + body)


def xf_families(repo, out):
    fams, sources = [], {}
    for family, paths, commits, adapter, ours, notes in XF_FAMILIES:
        files, srcs = [], []
        if ours is not None:
            name, body = ours
            setkit.write(os.path.join(out, family, name),
                         TEXT.ours_py("An eager PyTorch program of the op, the family's reference.", body))
            files.append(f"{family}/{name}")
            srcs.append({"file": f"{family}/{name}", "ours": True})
        for short in commits:
            commit = repo.git("rev-parse", short).strip()
            vend = XfVendor(repo, commit, out)
            defined = {p[:-3].replace("/", ".") for p in paths}
            parts, vendored = [], []
            for p in paths:
                body, needed = vend.rewrite(repo.show(p, commit), defined - {p[:-3].replace("/", ".")})
                vendored += needed
                parts.append(f"# ======== {p} at {commit[:12]} ========\n" + body)
            i = len(files) + 1
            hdr = (TEXT.built_by("#") + f"\n# {repo.name} at commit {commit}:\n"
                   + "".join(f"#   {p}\n" for p in paths)
                   + f"# Version {i} of {family}: the op at commit {commit[:12]} ({XF_SUBJECTS[short]}).\n"
                   + "# " + ("The modules below, kernel module first, are the source's, verbatim, except the "
                             "lines marked KFORECAST\n# (imports of the package's own files).\n"))
            name = f"v{i}_{commit[:8]}.py"
            setkit.write(os.path.join(out, family, name), hdr + "\n\n".join(parts))
            files.append(f"{family}/{name}")
            srcs.append({"file": f"{family}/{name}", "commit": commit, "paths": paths,
                         "subject": XF_SUBJECTS[short], "vendored": sorted(set(vendored))})
        if family in REFERENCE_COMMIT:
            ref = next(f for f in files if f.endswith(f"_{REFERENCE_COMMIT[family]}.py"))
            files = [ref] + [f for f in files if f != ref]
        setkit.write(os.path.join(out, family, "bench.py"), TEXT.adapter(adapter))
        fams.append({"family": family, "files": files, "split": SPLIT,
                     "source": f"{repo.at()} {', '.join(paths)} (versions from the git history)",
                     "style": "triton-library-history", "notes": notes})
        sources[family] = {"repo": repo.name, "head": repo.commit, "versions": srcs}
    return fams, sources


# (file, repo key, path, what the repository says of it)
TRIMUL_VERSIONS = [
    ("v1_reference.py", "ai", "reference.py", "the problem's reference ref_kernel (eager PyTorch), as the repository ships it"),
    ("v2_submission_compile.py", "ai", "submission.py", "the author's torch.compile'd PyTorch submission (submission.py)"),
    ("v3_functional_pt.py", "ai", "functional_pt.py", "the author's functional PyTorch submission (functional_pt.py)"),
    ("v4_triton_a100.py", "ai", "triton_a100.py", "the author's Triton submission for A100"),
    ("v5_triton_b200.py", "ai", "triton_b200.py", "the author's Triton submission for B200"),
    ("v6_triton_h100.py", "ai", "triton_h100.py", "the author's Triton submission for H100"),
    ("v7_triton_mi300.py", "ai", "triton_mi300.py", "the author's Triton submission for MI300 (no AMD-only options)"),
    ("v8_berard_impl.py", "db", "impl.py", "davidberard98's Triton submission (impl.py; his post index.md describes it)"),
]
TRIMUL_COMPANIONS = ["task.py", "utils.py"]


def trimul_family(ai, db, out):
    family = "p27-gm-trimul"
    repos = {"ai": ai, "db": db}
    files, srcs = [], []
    for name, key, path, what in TRIMUL_VERSIONS:
        repo = repos[key]
        text = (TEXT.built_by("#") + f"\n# {repo.name} at commit {repo.commit}:\n#   {path}\n"
                f"# GPU MODE TriMul: {what}.\n# Code below is the source's, verbatim.\n" + repo.show(path))
        setkit.write(os.path.join(out, family, name), text)
        files.append(f"{family}/{name}")
        srcs.append({"file": f"{family}/{name}", "repo": repo.name, "commit": repo.commit, "path": path})
    for path in TRIMUL_COMPANIONS:
        hdr = (f"# KFORECAST: copied verbatim from {ai.name}@{ai.commit}:{path} (a problem file the "
               f"submissions import, not a version).\n")
        setkit.write(os.path.join(out, family, path), hdr + ai.show(path))
    setkit.write(os.path.join(out, family, "bench.py"), TEXT.adapter("bench_p27_gm_trimul.py"))
    fam = {"family": family, "files": files, "split": SPLIT,
           "source": f"{ai.at()} reference.py, submission.py, functional_pt.py, triton_*.py; {db.at()} impl.py",
           "style": "gpumode-custom_kernel",
           "notes": "GPU MODE TriMul (AlphaFold3 outgoing triangle multiplicative update, forward): the "
                    "problem's reference ref_kernel (reference; the module as arseniivanov/trimul ships "
                    "it), Arseni Ivanov's torch.compile and functional PyTorch submissions and his four "
                    "Triton submissions (one per leaderboard GPU: A100, B200, H100, MI300), and David "
                    "Berard's Triton submission (fused two-matmul kernel + Triton LayerNorms). Input from "
                    "the problem's own generate_input at its benchmark {seqlen 768, bs 1, dim 384, "
                    "hiddendim 128, nomask False, normal} (as p25-gm-trimul); tolerance the problem's (rtol = atol = "
                    "2e-2). Several versions set torch.backends matmul flags (TF32, reduced-precision fp16) "
                    "when imported; the adapter runs each version under the flags its own import set and "
                    "the reference under torch's defaults."}
    return [fam], {family: {"versions": srcs, "companions": {p: ai.ref(p) for p in TRIMUL_COMPANIONS}}}


# What the H100 measurement of 2026-11-27 found failing (the sources' own code; no glue changed
# it). Kept in the set (a re-measurement records them as failing lines), named in the family notes.
CHECKED_H100 = {
    "p27-xf-fused-linear/v1_a22ceded.py": "does not compile with Triton 3.6: BLOCK_M comes from a tuple "
                                          "assignment and tl.arange(0, BLOCK_M) needs a constexpr",
    "p27-xf-fused-linear/v5_e465564a.py": "KeyError 'BLOCK_M': its @triton.heuristics (EVEN_M/EVEN_N from "
                                          "BLOCK_M) sits above @triton.autotune, so with Triton 3.6 it runs "
                                          "before a config gives BLOCK_M",
    "p27-gm-trimul/v3_functional_pt.py": "RuntimeError 'expected scalar type Half but found Float': its "
                                         "compiledtrimul has no torch.compile decorator, and eager "
                                         "F.layer_norm gets the fp16 einsum output with float32 weight/bias",
    "p27-gm-trimul/v8_berard_impl.py": "does not compile with Triton 3.6: tl._experimental_make_tensor_descriptor "
                                       "(the on-device TMA descriptor API under its old name) is gone",
}


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public27")
    xf = setkit.Repo(args.mirror, XF)
    ai = setkit.Repo(args.mirror, TRIMUL)
    db = setkit.Repo(args.mirror, DB)
    setkit.clear_set(args.out)
    families, sources = [], {}
    for fams, srcs in (xf_families(xf, args.out), trimul_family(ai, db, args.out)):
        families += [setkit.measured_note(f, CHECKED_H100, "2026-11-27") for f in fams]
        sources.update(srcs)
    setkit.write(os.path.join(args.out, "_p27common.py"), TEXT.adapter("_p27common.py"))
    setkit.write_index(args.out, families, sources)
    n_files, n_pairs = setkit.pair_counts(families)
    print(f"pub27.py: {len(families)} families, {n_files} programs, {n_pairs} ordered pairs -> {args.out}")


if __name__ == "__main__":
    main()
