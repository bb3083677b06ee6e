"""Builds public evaluation set 70 ("p70-" families, split "public70", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public70/pub70.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public70 [--dry-run]

Source (fetched with the session's `fetch` tool first), all Triton:
- HeduAiDev/triton-tutorial: one author's Chinese Triton course "from zero to expert" as Jupyter
  notebooks, one chapter a step: Part 2 and Part 3 build an fp16 GEMM up chapter by chapter
  (08 naive, 09 blocked, 11 autotuning, 12 block pointers, 13 software pipelining, 14 split-K,
  15 grouped "swizzle" tile order, 16 precision options, 17 Tensor Core tiling, 18 the
  "ultimate" autotuned kernel), Part 4 builds attention up (19 naive two-pass, 20 FlashAttention
  v1, 21 v2 with a "v1 simple" comparator, 22 a v3-style pipelined kernel, 23 GQA), and chapter
  07 writes a one-pass row softmax and an online (blocked) softmax.

A version is one chapter's kernel and host wrapper: the notebook's code cells are parsed with
`ast` and the top-level statements the wrapper needs are copied verbatim (its function, the
@triton.jit kernels and helpers it names, transitively, and the chapter's import cell's torch /
triton / math imports), in notebook order; test, benchmark and plotting statements are left out.
Each version ends with a `kf_run` entry point marked KFORECAST that calls the wrapper the way the
chapter's own correctness cell calls it. Adapters (`adapters/bench_p70_*.py`) are ours. The
builder replaces the whole set folder but `measurements/`.
"""

import ast
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public70", "scripts/evalsets/public70/pub70.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public70"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

REPO = "HeduAiDev/triton-tutorial"
KEEP_IMPORTS = {"torch", "triton", "math"}

MM_RUN = "def kf_run(a, b):\n    return {call}\n"
AT_RUN = "def kf_run(q, k, v):\n    return {call}\n"
SM_RUN = "def kf_run(x):\n    return {call}\n"

# family, adapter, notes, [(stem, notebook, wrapper, call in kf_run, what)], kf_run template
FAMILIES = [
    ("p70-hedu-gemm", "bench_p70_hedu_gemm.py",
     "The course's fp16 GEMM ladder, one version a chapter (Part 2 and Part 3): C = A @ B, A "
     "(4096, 4096) and B (4096, 4096) fp16 randn (the chapters' inputs, at a larger size), C fp16; "
     "each chapter's wrapper at its own defaults.",
     [("v1_naive", "02_intermediate/08_matmul_naive.ipynb", "naive_matmul", "naive_matmul(a, b)",
       "ch. 08: naive tiled tl.dot, 64x64x32 tiles, 2D grid"),
      ("v2_blocked", "02_intermediate/09_matmul_blocked.ipynb", "matmul_blocked", "matmul_blocked(a, b)",
       "ch. 09: blocked GEMM, 128x128x32 tiles"),
      ("v3_autotuned", "02_intermediate/11_autotuning.ipynb", "autotuned_matmul", "autotuned_matmul(a, b)",
       "ch. 11: @triton.autotune over ten tile/warp/stage configs"),
      ("v4_block_ptr", "03_matmul_optimization/12_matmul_smem.ipynb", "matmul_block_ptr",
       "matmul_block_ptr(a, b)", "ch. 12: tl.make_block_ptr tiles (shared-memory staging)"),
      ("v5_pipeline", "03_matmul_optimization/13_matmul_pipeline.ipynb", "matmul_pipeline",
       "matmul_pipeline(a, b)", "ch. 13: software pipelining, num_stages=2 (its default)"),
      ("v6_splitk", "03_matmul_optimization/14_matmul_splitk.ipynb", "matmul_splitk", "matmul_splitk(a, b)",
       "ch. 14: split-K (SPLIT_K=4) with atomic adds into a zeroed C, num_stages=3"),
      ("v7_swizzle", "03_matmul_optimization/15_matmul_swizzle.ipynb", "matmul_swizzle",
       "matmul_swizzle(a, b)", "ch. 15: grouped (GROUP_SIZE_M=8) tile order on a 1D grid, num_stages=3"),
      ("v8_precision", "03_matmul_optimization/16_matmul_fp16_acc.ipynb", "matmul_precision",
       "matmul_precision(a, b)", "ch. 16: the precision-option kernel at its defaults (fp32 acc, fp16 out)"),
      ("v9_tensorcore", "03_matmul_optimization/17_matmul_tensorcore.ipynb", "matmul_tc", "matmul_tc(a, b)",
       "ch. 17: Tensor Core tiling, grouped order"),
      ("v10_ultimate", "03_matmul_optimization/18_matmul_ultimate.ipynb", "matmul_ultimate",
       "matmul_ultimate(a, b)", "ch. 18: autotuned block-pointer kernel with every optimisation")],
     MM_RUN),
    ("p70-hedu-attn", "bench_p70_hedu_attn.py",
     "The course's attention ladder (Part 4), forward only, causal: q, k, v (4, 16, 2048, 64) fp16 "
     "randn ([B, H, N, d], the chapters' layout), output o (the versions that also return the "
     "logsumexp return o only through kf_run).",
     [("v1_naive", "04_flash_attention/19_attention_naive.ipynb", "naive_attention_triton",
       "naive_attention_triton(q, k, v, causal=True)", "ch. 19: naive two-pass attention kernel"),
      ("v2_flash_v1", "04_flash_attention/20_flash_attention_v1.ipynb", "flash_attention_v1",
       "flash_attention_v1(q, k, v, causal=True)[0]", "ch. 20: FlashAttention v1 (online softmax)"),
      ("v3_flash_v1_simple", "04_flash_attention/21_flash_attention_v2.ipynb", "flash_v1_simple",
       "flash_v1_simple(q, k, v, causal=True)", "ch. 21: the chapter's simple v1 kernel it benchmarks v2 against"),
      ("v4_flash_v2", "04_flash_attention/21_flash_attention_v2.ipynb", "flash_attention_v2_fwd",
       "flash_attention_v2_fwd(q, k, v, causal=True)[0]", "ch. 21: FlashAttention v2 forward"),
      ("v5_flash_v3", "04_flash_attention/22_flash_attention_v3.ipynb", "flash_attention_v3",
       "flash_attention_v3(q, k, v, causal=True)[0]", "ch. 22: v3-style kernel, num_stages=3 (its default)"),
      ("v6_gqa", "04_flash_attention/23_flash_attention_v4.ipynb", "flash_attention_gqa",
       "flash_attention_gqa(q, k, v, causal=True)", "ch. 23: GQA kernel (here with as many kv heads as q heads)")],
     AT_RUN),
    ("p70-hedu-softmax", "bench_p70_hedu_softmax.py",
     "The course's chapter 07 row softmax: x (16384, 4096) fp32 randn, softmax over the last dim.",
     [("v1_onepass", "02_intermediate/07_softmax.ipynb", "softmax", "softmax(x)",
       "ch. 07: one program a row, the whole row in one block"),
      ("v2_online", "02_intermediate/07_softmax.ipynb", "online_softmax", "online_softmax(x)",
       "ch. 07: online softmax, 256-column blocks (its default)")],
     SM_RUN),
]


def _segment(lines, node):
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return "\n".join(lines[start - 1:node.end_lineno])


def _free_names(node):
    """Names a top-level def or assignment reads but does not bind itself (its globals)."""
    scope = node.value if isinstance(node, ast.Assign) else node
    bound, loads = set(), set()
    for sub in ast.walk(scope):
        if isinstance(sub, ast.arg):
            bound.add(sub.arg)
        elif isinstance(sub, ast.Name):
            (loads if isinstance(sub.ctx, ast.Load) else bound).add(sub.id)
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        bound.discard(node.name)
        for d in node.decorator_list:
            loads |= {x.id for x in ast.walk(d) if isinstance(x, ast.Name)}
    return loads - bound


def extract(nb_text, wrapper):
    """(verbatim text, kept names) of what `wrapper` needs from the notebook's code cells."""
    nb = json.loads(nb_text)
    imports, defs, order = [], {}, []
    for ci, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        lines = src.split("\n")
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if all(m.split(".")[0] in KEEP_IMPORTS for m in mods):
                    seg = _segment(lines, node)
                    if seg not in imports:
                        imports.append(seg)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                defs[node.name] = (ci, node.lineno, _segment(lines, node), node)
            elif (isinstance(node, ast.Assign) and len(node.targets) == 1
                  and isinstance(node.targets[0], ast.Name)):
                defs[node.targets[0].id] = (ci, node.lineno, _segment(lines, node), node)
    if wrapper not in defs:
        raise SystemExit(f"pub70.py: no top-level {wrapper} in the notebook")
    keep, todo = set(), [wrapper]
    while todo:
        n = todo.pop()
        if n in keep or n not in defs:
            continue
        keep.add(n)
        todo.extend(_free_names(defs[n][3]) - keep)
    kept = sorted((defs[n][0], defs[n][1], n) for n in keep)
    body = "\n\n\n".join(f"# (cell {ci})\n{defs[n][2]}" for ci, _, n in kept)
    return "\n".join(imports) + "\n\n\n" + body, [n for _, _, n in kept]


def family(repo, out, fam, adapter, notes, versions, run):
    files, said = [], []
    for stem, nb, wrapper, call, what in versions:
        text, names = extract(repo.show(nb), wrapper)
        rel = f"{fam}/{stem}.py"
        src = (TEXT.py_line_header(repo.name, repo.commit, nb, what)
               + "# The notebook's code cells that define " + ", ".join(names) + " (top-level statements, "
               "verbatim, in notebook order; test and benchmark statements left out).\n"
               + "# " + setkit.VERBATIM + "\n\n" + text.rstrip() + "\n\n\n"
               + "# KFORECAST entry point (ours): the chapter's wrapper, called as its correctness cell calls it\n"
               + run.format(call=call))
        setkit.write(os.path.join(out, rel), src)
        files.append(rel)
        said.append(f"{stem} ({os.path.basename(nb)}: {wrapper}; {what})")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public70",
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
