#!/usr/bin/env python3
"""Builds evaluation set public18 ("p18-" families, issue 20 item 1(b)) outside the
repository, from local copies (the session's `fetch` tool: MIRROR/<owner>+<name>/repo) of
public repositories no other set uses:

    pub18.py --mirror /work/.mirror --out /work/main/target/evalsets/public18

- hbook.py: ArchaeaSoftware/cudahandbook (histogram, n-body, scan, reduction ladders; CUDA
  programs with their own host launchers);
- viper.py: ViperEkura/cuda-kernels (attention and 2-D convolution implementations of a
  benchmark suite, each a .cu file with its launcher);
- bitonic.py: georrous6/bitonic-sort-cuda (a bitonic sort ladder on host data).

Writes families.json, SOURCES.json (a dict keyed by family), one folder per family (the
versions, reference first, and bench.py, the adapter: ours, from adapters/), and
`_vendor/` (the sources' headers that the programs include). Only this builder, the
family modules and the adapters live in kforecast's repository, never the public code.
Split "public18": report-only, never tuned on, never run through kforecast by its builder.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))
sys.path.insert(0, HERE)
from setkit import Repo, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

import bitonic  # noqa: E402
import hbook  # noqa: E402
import viper  # noqa: E402

SPLIT = "public18"
MODULES = [(hbook, "cudahandbook"), (viper, "viperekura"), (bitonic, "bitonic")]


def adapter(name):
    with open(os.path.join(HERE, "adapters", name), encoding="utf-8") as f:
        return f.read()


def main():
    args = builder_args(__doc__, "target/evalsets/public18")
    out = args.out
    clear_set(out)
    write(os.path.join(out, "_p18common.py"), adapter("_p18common.py"))
    families, sources = [], {}
    for module, vendor in MODULES:
        repo = Repo(args.mirror, module.REPO)

        def family(name, files, paths, style, notes, bench):
            for rel, text in files:
                write(os.path.join(out, name, rel), text)
            write(os.path.join(out, name, "bench.py"), adapter(bench))
            families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                             "source": f"{repo.at()}:{', '.join(paths)}", "style": style, "notes": notes})
            sources[name] = {"repo": repo.name, "commit": repo.commit, "paths": paths}

        for p in module.families(repo, family):
            for f in repo.ls(p):  # a file, or every file under a folder
                write(os.path.join(out, "_vendor", vendor, f), repo.show(f))
    write_index(out, families, sources)
    progs, pairs = pair_counts(families)
    print(f"pub18.py: {len(families)} families, {progs} programs, {pairs} ordered pairs -> {out}")


if __name__ == "__main__":
    main()
