#!/usr/bin/env python3
"""Builds public set 23 (issue 20, 1(b)): Triton version ladders, kept unseen, split "public23".

    pub23.py --mirror /work/.mirror --out /work/main/target/evalsets/public23

Two kinds of ladder, every family's reference its author's first (baseline) version:

1. "p23-trident-*": Kakao Brain's trident (a Triton op library with torch autograd
   wrappers) rewrote its kernels several times ("Optimize LayerNorm", "Optimize RMSNorm",
   ...); each family is one op, each version the op at one commit of that history, oldest
   first. A version is one Python program: the kernel module at that commit (trident/kernel/<op>.py)
verbatim, then the operation module (trident/operation/<op>.py, the torch autograd
   Function whose `__forward` is the host launcher: sizes, grid, launch) verbatim. Changes,
   each marked KFORECAST in the file: `from trident import` -> `from trident_<commit> import`
   (the library's package at that commit is vendored under `_vendor/trident_<commit>/`, so
   versions of different commits load side by side in one process), and the operation's
   `kernel` name is bound to the kernel class defined above it in the same file. In the
   vendored package, the later commits' `util.autotune` passes warmup/rep to
   triton.autotune by keyword (by position they now land on other parameters and the
   package fails at import). Only forward is measured.
2. "p23-softmax-ladder": iclementine/optimize_softmax, one author's row-softmax ladder in
   Triton (naive, looped, online, online with vector state, specialised tails, split
   logsumexp), one file per step. A version is the file's prelude, kernel(s) and `softmax`
   wrapper verbatim; the source's pytest tests and pandas benchmark below the wrapper are
   cut (marked KFORECAST).

Nothing of the public code lives in kforecast's repository: only this
builder and the adapters (adapters/, ours). Split "public23", report-only, never tuned on.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

REPO = "kakaobrain/trident"
PREFIX = "p23-trident-"
SET = SetText("Evaluation set public23", "scripts/evalsets/public23/pub23.py", os.path.join(HERE, "adapters"))

# op -> (class name, commits oldest first: the commits that changed the kernel; the
# first is the op's first implementation that runs on Triton 3.6, the reference)
FAMILIES = {
    "layer_norm": ("LayerNorm", ["ed10cf2", "818009e", "1321870", "67b1f18", "66bfd01", "d56eae5", "96b0328"]),
    "rms_norm": ("RMSNorm", ["6706d91", "d56eae5", "11421bf"]),
    "sum": ("Sum", ["bb1cbba", "9944a61", "e304725", "633effd"]),
    "mean": ("Mean", ["9944a61", "7768334", "511f4dc", "cf768d2"]),
    "argmax": ("Argmax", ["cce7268", "e200008", "a70a73e"]),
    "group_norm": ("GroupNorm", ["c757672", "4bf42a9", "8e6ea3e", "e7a61c5"]),
}
# Left out because they cannot compile on Triton 3.6 (the API they call is gone), found by
# reading the code before any measuring: tl.math.pow, tl.math.tanh, tl.math.max and
# tl.math.fast_expf were removed from triton.language.math.
LEFT_OUT = {
    "rms_norm": "06d44a8 (its first implementation: tl.math.pow)",
    "gelu": "every commit but the first (988be6c: tl.math.tanh; 1730d46, cee14c6: the tanh of language.math.GeLU), "
            "so no family",
    "cosine_similarity": "every commit (tl.math.max), so no family",
    "var": "all but two commits (0a880fd, fb41cc6, 3431d67: tl.math.pow in language.combine_welford "
           "or Var), so no family",
    "silu": "all but the first commit (dd04548, cee14c6, f9a3112: tl.math.fast_expf), so no family",
    "softmax": "the last two optimisations (db48e03, 4af4b37: tl.math.fast_expf); the op is the "
               "p23-softmax-ladder family's, so no family",
}

AUTOTUNE_POSITIONAL = "key, prune_configs_by, reset_to_zero, warmup, rep\n"
AUTOTUNE_KEYWORD = "key, prune_configs_by, reset_to_zero, warmup=warmup, rep=rep\n"
IMPORT = re.compile(r"^(\s*(?:from|import)\s+)trident\b", re.M)


def pkg(commit):
    return f"trident_{commit[:7]}"


def rewrite(text, commit):
    return IMPORT.sub(lambda m: m.group(1) + pkg(commit), text)


def vendor(repo, commit, out):
    root = os.path.join(out, "_vendor", pkg(commit))
    if os.path.isdir(root):
        return
    files = [p for p in repo.git("ls-tree", "-r", "--name-only", commit, "trident").splitlines() if p.endswith(".py")]
    for p in files:
        text = rewrite(repo.show(p, commit), commit)
        note = (f"# KFORECAST: vendored from {repo.name}@{repo.full(commit)}:{p}; changed:\n"
                f"# `trident` -> `{pkg(commit)}` in import lines.\n")
        if p == "trident/util/util.py" and AUTOTUNE_POSITIONAL in text:
            # Triton 2.2 put restore_value and pre_hook before warmup and rep in
            # triton.autotune's parameters: passed by position they would fail at import
            text = text.replace(AUTOTUNE_POSITIONAL, AUTOTUNE_KEYWORD, 1)
            note += ("# KFORECAST: util.autotune passes warmup and rep to triton.autotune by keyword (they\n"
                     "# were its 5th and 6th parameters when this was written; Triton >= 2.2 inserted others).\n")
        write(os.path.join(root, os.path.relpath(p, "trident")), note + text)


def program(repo, op, cls, commit):
    kpath, opath = f"trident/kernel/{op}.py", f"trident/operation/{op}.py"
    kern = rewrite(repo.show(kpath, commit), commit)
    if not re.search(rf"^class {cls}\b", kern, re.M):
        raise SystemExit(f"pub23.py: {kpath}@{commit} defines no class {cls}")
    oper = rewrite(repo.show(opath, commit), commit)
    lines = oper.split("\n")
    at = [i for i, line in enumerate(lines) if re.match(rf"^from {pkg(commit)} import .*\bkernel\b", line)]
    if len(at) != 1:
        raise SystemExit(f"pub23.py: {opath}@{commit} has no single `from trident import ... kernel`")
    lines.insert(at[0] + 1, f"kernel = _kf_kernel  # KFORECAST: the kernel class defined above in this file")
    hdr = SET.header(repo, [kpath, opath], f"A version of the {op} ladder: trident at commit {repo.full(commit)}.",
                     comment="#",
                     note="Code below is the source's, verbatim, except where a comment says KFORECAST:\n"
                          f"`from trident import` -> `from {pkg(commit)} import` (the package at that commit, vendored).")
    glue = ("\n\n# KFORECAST: the kernel class above, kept for the operation below, which reuses its name\n"
            f"import types as _kf_types  # KFORECAST\n_kf_kernel = _kf_types.SimpleNamespace({cls}={cls})  # KFORECAST\n\n")
    return hdr + kern + glue + "\n".join(lines)


SOFTMAX_REPO = "iclementine/optimize_softmax"
SOFTMAX_FAMILY = "p23-softmax-ladder"
# the ladder's steps in the author's order; the `_evict`, `_rev` and `_spec_rev` variants of
# online_v2 are left out (the family keeps to 7 versions, chosen before any measuring)
SOFTMAX_STEPS = ["softmax_naive.py", "softmax_loop_along_reduce_axis_v1.py", "softmax_loop_along_reduce_axis_v2.py",
                 "softmax_online_v1.py", "softmax_online_v2.py", "softmax_online_v2_spec.py", "softmax_split.py"]
CUT_AT = "import pytest\n"


def softmax_ladder(mirror, out, families, sources):
    repo = Repo(mirror, SOFTMAX_REPO)
    files = []
    for path in SOFTMAX_STEPS:
        text = repo.show(path)
        if text.count(CUT_AT) != 1:
            raise SystemExit(f"pub23.py: {SOFTMAX_REPO}:{path} has no single `import pytest`; update the builder")
        kept = text[:text.index(CUT_AT)]
        hdr = SET.header(repo, [path], "A step of the author's row-softmax ladder.", comment="#",
                         note="Code below is the source's, verbatim, up to the wrapper `softmax(x)`; KFORECAST: the\n"
                              "source's pytest tests and pandas benchmark that follow it are cut.")
        rel = os.path.join(SOFTMAX_FAMILY, path)
        write(os.path.join(out, rel), hdr + kept)
        files.append(rel)
    write(os.path.join(out, SOFTMAX_FAMILY, "bench.py"), SET.adapter("bench_softmax_ladder.py"))
    families.append({"family": SOFTMAX_FAMILY, "files": files, "split": "public23",
                     "source": repo.at(), "style": "ladder-files-triton",
                     "notes": "One author's Triton row-softmax ladder, one file per step (naive one-tile row, "
                              "three-pass loop, two-pass loop, online scalar state, online vector state, "
                              "online with the tail loop specialised, split logsumexp over row tiles); float32 "
                              "4096 x 16384 (2^26 elements)."})
    sources[SOFTMAX_FAMILY] = {"repo": SOFTMAX_REPO, "commit": repo.commit, "paths": SOFTMAX_STEPS}


def trident_ladders(mirror, out, families, sources):
    repo = Repo(mirror, REPO)
    repo.full = lambda c: repo.git("rev-parse", c).strip()
    for op, (cls, commits) in FAMILIES.items():
        name = PREFIX + op.replace("_", "-")
        files, seen = [], {}
        for c in commits:
            text = program(repo, op, cls, c)
            key = repo.show(f"trident/kernel/{op}.py", c) + repo.show(f"trident/operation/{op}.py", c)
            if key in seen:
                print(f"{name}: {c} is the same program as {seen[key]}; skipped")
                continue
            seen[key] = c
            vendor(repo, c, out)
            rel = f"{op}_{c}.py"
            write(os.path.join(out, name, rel), text)
            files.append(f"{name}/{rel}")
        write(os.path.join(out, name, "bench.py"), SET.adapter(f"bench_trident_{op}.py"))
        families.append({"family": name, "files": files, "split": "public23",
                         "source": f"{REPO}@{repo.commit[:12]}", "style": "ladder-history-triton",
                         "notes": f"trident's {cls} (Triton kernel module + its torch autograd operation) at "
                                  f"{len(files)} commits of the history that changed it, oldest first: "
                                  + ", ".join(repo.full(c)[:12] for c in commits) + ". Forward only."
                                  + (f" Left out (does not compile on Triton 3.6): {LEFT_OUT[op]}." if op in LEFT_OUT else "")})
        sources[name] = {"repo": REPO, "commit": repo.commit,
                         "versions": {f: repo.full(f.split("_")[-1][:-3]) for f in files}}


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public23")
    out = args.out
    clear_set(out)
    with open(os.path.join(os.path.dirname(HERE), "public", "adapters", "_kfcommon.py"), encoding="utf-8") as f:
        write(os.path.join(out, "_kfcommon.py"), f.read())
    families, sources = [], {}
    softmax_ladder(args.mirror, out, families, sources)
    trident_ladders(args.mirror, out, families, sources)
    write_index(out, families, sources)
    n, pairs = pair_counts(families)
    print(f"pub23.py: {len(families)} families, {n} programs, {pairs} ordered pairs -> {out}")


if __name__ == "__main__":
    main()
