#!/usr/bin/env python3
"""Builds public set 21 ("p21-" families): blockwise fp8 quantisation kernels of model and
training repositories, as their authors wrote and rewrote them (issue 20, 1(b)).

    quant21.py --mirror /work/.mirror --out /work/main/target/evalsets/public21

Reads local bare copies (made with the session's `fetch` tool) of pytorch/ao (torchao's
blockwise fp8 training kernels, rewritten over several commits, and its earlier
DeepSeek-style blockwise quantisation module) and deepseek-ai/DeepSeek-V3 (inference/kernel.py)
and writes, OUTSIDE the repository, a set in the layout of /work/HELPERS.md's evaluation-set
contract (families.json, SOURCES.json keyed by family, one folder per family with one program
per version, reference first, and its bench.py adapter).

How a version is made: the source module at one commit, cut to its prelude (imports,
module-level constants and autotune config lists) plus the one op it is about (the Triton
kernel and its torch wrapper, or the source's own torch reference function), verbatim. The
only edits, each marked KFORECAST in the file: a `from torchao...` import is replaced by the
imported helpers cut verbatim from torchao at the same commit (or, for `e4m3_dtype`, its value
on an NVIDIA GPU), and the `torchao::` namespace of a `triton_op` is made unique per commit
(versions of one family are timed in one process; the same op name cannot register twice).
Adapters (adapters/, ours) normalise each version's outputs to (fp8 values, dequantisation
scale amax/448) so versions that store the reciprocal scale compare.
Split "public21": report-only, never tuned on, never run through kforecast by its builder.
"""

import ast
import hashlib
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))
from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = SetText("Evaluation set public21", "scripts/evalsets/public21/quant21.py", os.path.join(HERE, "adapters"))
PREFIX = "p21-"

AO = "pytorch/ao"
TT = "pytorch/torchtitan"
HV = "harsh-vsingh/triton-kernels"
DS = "deepseek-ai/DeepSeek-V3"
AO_TRAIN = "torchao/prototype/blockwise_fp8_training/kernels.py"
AO_DS = "torchao/prototype/blockwise_fp8/blockwise_quantization.py"
DS_KERNEL = "inference/kernel.py"

# torchao's blockwise fp8 training kernels, as rewritten: the first version (#2617), 2-D chunk
# loads for coalesced access (#2827), triton_op custom ops (#2829), and HEAD (tail fix #4186,
# FP8_MAX parameter).
AO_COMMITS = [("6b8293100", "first"), ("3bf21d098", "chunks2d"), ("364ad471b", "tritonop"), ("HEAD", "head")]
DS_FIRST = "4c2fdb8"


REF_SWIGLU = '''import torch
import torch.nn.functional as F


def swiglu(gate, up):
    return F.silu(gate) * up
'''

REF_LN = '''import torch
import torch.nn.functional as F


def layer_norm(x, weight, bias, eps=1e-5):
    return F.layer_norm(x, (x.shape[-1],), weight, bias, eps)
'''

REF_SUM = '''import torch


def row_sum(x):
    return x.sum(dim=-1, dtype=torch.float32)
'''


def _node_span(node):
    start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
    return start, node.end_lineno


def _defined(node):
    if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def cut_defs(src, names, what):
    """The verbatim top-level definitions `names` of `src`, in source order."""
    tree = ast.parse(src)
    lines = src.splitlines()
    out, found = [], set()
    for node in tree.body:
        hit = set(_defined(node)) & set(names)
        if hit:
            a, b = _node_span(node)
            out.append("\n".join(lines[a - 1:b]))
            found |= hit
    missing = set(names) - found
    if missing:
        raise SystemExit(f"quant21.py: {what} has no {sorted(missing)}; update the builder")
    return "\n\n".join(out)


def _used(name, text):
    return re.search(rf"\b{re.escape(name)}\b", text) is not None


def cut_module(repo, commit, path, keep, tag, inline=None):
    """The module at `path`@`commit` less every top-level function/class not in `keep` and
    every import of a name the kept code does not use (its other ops' dependencies); imports
    of the source's own package are inlined by `inline(repo, commit, node)` (KFORECAST), and
    triton_op / custom_op namespaces made unique by `tag`."""
    src = repo.show(path, commit)
    tree = ast.parse(src)
    lines = src.splitlines()
    spans, prev_of, last = [], {}, 0
    for node in tree.body:
        prev_of[id(node)] = last
        last = node.end_lineno
    left_out = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name not in keep}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name not in keep:
            continue
        if isinstance(node, (ast.Assign, ast.Expr)) and _defined(node) != ["__all__"]:
            # a statement that registers or aliases a left-out function goes with it
            seg = "\n".join(lines[node.lineno - 1:node.end_lineno])
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) \
                    and any(_used(n, seg) for n in left_out):
                continue
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Assign,
                                 ast.AnnAssign, ast.Expr)):
            continue
        spans.append(node)
    found = {n.name for n in spans if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    missing = set(keep) - found
    if missing:
        raise SystemExit(f"quant21.py: {repo.name}@{commit}:{path} has no {sorted(missing)}")
    used = set()
    for n in spans:
        if isinstance(n, (ast.Import, ast.ImportFrom)) or (
                isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)):
            continue
        for sub in ast.walk(n):
            if isinstance(sub, ast.Name):
                used.add(sub.id)
    pieces, dropped = [], []
    for node in spans:
        a, b = _node_span(node)
        gap = "\n".join(lines[prev_of[id(node)]:a - 1])
        text = "\n".join(lines[a - 1:b])
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(al.asname or al.name).split(".")[0] for al in node.names]
            if not any(n in used for n in names):
                dropped.append(text.replace("\n", " "))
                continue
            if isinstance(node, ast.ImportFrom) and inline is not None:
                text = inline(repo, commit, node) or text
        if gap.strip():
            pieces.append(gap)
        pieces.append(text)
    out = "\n".join(pieces).strip("\n") + "\n"
    out = re.sub(r"\n{4,}", "\n\n\n", out)
    for ns in ("torchao", "torchtitan"):
        out = out.replace(f'"{ns}::', f'"{ns}_kf{tag}::')
    if dropped:
        out = ("# KFORECAST: imports only the left-out code used are left out: "
               + "; ".join(re.sub(r"\s+", " ", d) for d in dropped) + "\n" + out)
    return out


def inline_torchao(repo, commit, node):
    names = [a.name for a in node.names]
    mod = node.module or ""
    if not mod.startswith("torchao"):
        return None
    if mod == "torchao.float8.config" and names == ["e4m3_dtype"]:
        return ("# KFORECAST: was `from torchao.float8.config import e4m3_dtype`; its value on an NVIDIA GPU\n"
                "e4m3_dtype = torch.float8_e4m3fn")
    path = mod.replace(".", "/") + ".py"
    body = cut_defs(repo.show(path, commit), names, f"{repo.name}@{commit}:{path}")
    return (f"# KFORECAST: was `from {mod} import {', '.join(names)}`; cut verbatim from\n"
            f"# {repo.name}@{commit}:{path}\n" + body + "\n# KFORECAST: end of the inlined helpers")


def inline_utils(repo, commit, node):
    """harsh-vsingh/triton-kernels: `from utils import ...` -> the helpers cut from utils/*.py at
    the same commit (their module prelude included)."""
    if node.module != "utils":
        return None
    names = [a.name for a in node.names]
    parts, left = [], set(names)
    for path in repo.ls("utils"):
        if not path.endswith(".py") or path.endswith("__init__.py"):
            continue
        src = repo.show(path, commit) if repo.has(repo.git("rev-parse", commit).strip(), path) else ""
        here = [n for n in names if re.search(rf"^def {n}\(", src, re.M)]
        if here:
            left -= set(here)
            defs = {n.name: "\n".join(src.splitlines()[_node_span(n)[0] - 1:n.end_lineno])
                    for n in ast.parse(src).body if isinstance(n, ast.FunctionDef)}
            grow = True
            while grow:  # the helpers the requested ones call, from the same file
                more = {d for d in defs if d not in here and any(_used(d, defs[h]) for h in here)}
                grow = bool(more)
                here += sorted(more)
            parts.append(f"# KFORECAST: from {repo.name}@{commit}:{path}\n" + cut_module(repo, commit, path, here, "u"))
    if left:
        raise SystemExit(f"quant21.py: utils of {repo.name}@{commit} has no {sorted(left)}")
    return (f"# KFORECAST: was `from utils import {', '.join(names)}`; the helpers cut verbatim below\n"
            + "\n".join(parts) + "# KFORECAST: end of the inlined helpers")


def provenance(text):
    """`owner/name@commit:path` of a version, read back from its header (ours: "kforecast")."""
    m = re.search(r"^# (\S+) at commit ([0-9a-f]{40}): (\S+)$", text, re.M)
    return f"{m.group(1)}@{m.group(2)}:{m.group(3)}" if m else "kforecast (a reference written by the builder)"


def header(repo, commit, path, what, edits):
    full = repo.git("rev-parse", commit).strip()
    return (f"{TEXT.built_by('#')}\n# {repo.name} at commit {full}: {path}\n# {what}\n"
            f"# The source's prelude and this op's code, verbatim; {edits}\n")


EDITS = "other functions left out; edits marked KFORECAST."


def ao_version(ao, commit, names, what, tag):
    return header(ao, commit, AO_TRAIN if commit != "69fc240ce" else AO_DS, what, EDITS) + "\n" + \
        cut_module(ao, commit, AO_TRAIN if commit != "69fc240ce" else AO_DS, names, tag, inline_torchao)


def ao_names(ao, commit, base):
    """torchao renamed fp8_blockwise_* to triton_fp8_blockwise_* in #2829."""
    src = ao.show(AO_TRAIN, commit)
    pre = "triton_" if f"def triton_{base}(" in src else ""
    return [f"{pre}{base}_kernel", f"{pre}{base}"]


def main():
    args = builder_args(__doc__, "target/evalsets/public21")
    out = args.out
    clear_set(out)
    ao = Repo(args.mirror, AO)
    ds = Repo(args.mirror, DS)
    families, sources = [], {}

    def family(name, files, srcs, style, notes, bench):
        name = PREFIX + name
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), TEXT.adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": "public21",
                         "source": ", ".join(srcs), "style": style, "notes": notes})
        sources[name] = {rel: provenance(text) for rel, text in files}
        digests = [hashlib.sha1(t.split("\n", 4)[-1].encode()).hexdigest()[:8] for _, t in files]
        print(f"{name}: {len(files)} versions {digests}")

    def ao_ladder(base, first_names=None):
        files = []
        for commit, tag in AO_COMMITS:
            names = ao_names(ao, commit, base)
            files.append((f"ao_{tag}_{base}.py",
                          ao_version(ao, commit, names, f"torchao's {base} ({tag} version).", tag)))
        return files

    aos = lambda c: f"{ao.name}@{ao.git('rev-parse', c).strip()[:12]}"  # noqa: E731
    ao_srcs = [aos(c) for c, _ in AO_COMMITS]

    # 1. 1x128 activation quantisation (DeepSeek-V3's fp8 recipe): torchao's torch reference,
    #    DeepSeek-V3's kernel as released, torchao's training kernels as rewritten.
    ref_act = ao_version(ao, "6b8293100", ["torch_blockwise_scale_act_quant_lhs"],
                         "torchao's torch reference for the 1x128 activation quantisation.", "ref")
    ds_act = (header(ds, DS_FIRST, DS_KERNEL, "DeepSeek-V3's act_quant as released.", EDITS) + "\n"
              + cut_module(ds, DS_FIRST, DS_KERNEL, ["act_quant_kernel", "act_quant"], "ds"))
    family("act-quant-1x128",
           [("torch_act_quant_lhs.py", ref_act), ("deepseek_v3_act_quant.py", ds_act)]
           + ao_ladder("fp8_blockwise_act_quant_lhs"),
           [aos("6b8293100"), f"{ds.name}@{ds.git('rev-parse', DS_FIRST).strip()[:12]}"] + ao_srcs,
           "library-triton",
           "Quantise a bf16 activation (16384 x 7168, DeepSeek-V3's hidden size) to fp8 e4m3 in 1x128 groups "
           "with one fp32 scale per group: torchao's torch reference (first), DeepSeek-V3's act_quant "
           "(one program per 128 elements), torchao's training kernel at four commits (tiles of NUM_GROUPS "
           "rows, autotuned; 2-D chunk loads; triton_op; tail masking). Outputs compared as (fp8 values, "
           "dequantisation scale).", "bench_act_quant_1x128.py")

    # 2. 128x128 weight quantisation
    ref_w = ao_version(ao, "6b8293100", ["torch_blockwise_scale_weight_quant"],
                       "torchao's torch reference for the 128x128 weight quantisation.", "ref")
    ds_style_w = ao_version(ao, "69fc240ce", ["fp8_blockwise_weight_quant_kernel", "fp8_blockwise_weight_quant"],
                            "torchao's DeepSeek-style blockwise weight quantisation (#1763).", "ds")
    family("weight-quant-128x128",
           [("torch_weight_quant.py", ref_w), ("ao_dsstyle_weight_quant.py", ds_style_w)]
           + ao_ladder("fp8_blockwise_weight_quant_rhs"),
           [aos("6b8293100"), aos("69fc240ce")] + ao_srcs, "library-triton",
           "Quantise a bf16 weight (8192 x 14336) to fp8 e4m3 in 128x128 tiles, one fp32 scale per tile: "
           "torchao's torch reference (first), torchao's DeepSeek-style kernel (row-major output), torchao's "
           "training kernel at four commits (column-major output for the right-hand operand).",
           "bench_weight_quant_128x128.py")

    # 3. 128x1 activation quantisation (right-hand operand): the first Triton version is the reference
    family("act-quant-128x1", ao_ladder("fp8_blockwise_act_quant_rhs"), ao_srcs, "library-triton",
           "Quantise a bf16 activation (16384 x 7168) to fp8 in 128x1 groups (down the columns), column-major "
           "output: torchao's kernel at four commits, the first as reference (its torch reference loops "
           "over columns in Python and is left out).", "bench_act_quant_128x1.py")

    # 4. transposed 1x128 activation quantisation
    family("act-quant-transposed", ao_ladder("fp8_blockwise_act_quant_transposed_lhs"), ao_srcs,
           "library-triton",
           "Quantise the transpose of a bf16 activation (16384 x 7168) to fp8 in 1x128 groups along the "
           "original columns: torchao's kernel at four commits, the first as reference.",
           "bench_act_quant_transposed.py")

    # 5. SwiGLU forward from a training framework and a kernel author's library
    tt = Repo(args.mirror, TT)
    hv = Repo(args.mirror, HV)
    tt_first, tt_first_path = "aa1d37414", "torchtitan/overrides/fused_grouped_experts.py"
    tt_head_path = "torchtitan/overrides/fused_swiglu.py"
    tt_keep = ["_silu_and_mul_forward_kernel", "silu_and_mul_forward_kernel"]

    def tt_version(commit, path, what, tag):
        return header(tt, commit, path, what, EDITS) + "\n" + cut_module(tt, commit, path, tt_keep, tag)

    def hv_version(commit, path, pred, what, tag):
        names = [n.name for n in ast.parse(hv.show(path, commit)).body
                 if isinstance(n, ast.FunctionDef) and pred(n.name)]
        return header(hv, commit, path, what, EDITS) + "\n" + cut_module(hv, commit, path, names, tag, inline_utils)

    hvs = lambda c: f"{hv.name}@{hv.git('rev-parse', c).strip()[:12]}"  # noqa: E731
    tts = lambda c: f"{tt.name}@{tt.git('rev-parse', c).strip()[:12]}"  # noqa: E731
    family("swiglu",
           [("torch_swiglu.py", TEXT.ours_py("silu(gate) * up in eager torch (LLaMA's FeedForward).", REF_SWIGLU)),
            ("torchtitan_grouped_experts_silu_and_mul.py",
             tt_version(tt_first, tt_first_path, "torchtitan's silu_and_mul (FusedGroupedExperts, first).", "a")),
            ("torchtitan_fused_swiglu_silu_and_mul.py",
             tt_version("HEAD", tt_head_path, "torchtitan's silu_and_mul (FusedSwiGLU, HEAD).", "b")),
            ("harsh_vsingh_swiglu.py",
             hv_version("HEAD", "kernels/pointwise.py", lambda n: "swiglu" in n, "swiglu of a Triton kernel library.", "h"))],
           [tts(tt_first), tts("HEAD"), hvs("HEAD")], "model-triton",
           "SwiGLU gate silu(gate) * up, bf16 (8192 x 14336, an MLP's intermediate): eager torch (ours), "
           "torchtitan's silu_and_mul kernel as first written for grouped experts and as now in FusedSwiGLU "
           "(4 x BLOCK_N tiles, strides as constexprs), harsh-vsingh's 1-D elementwise kernel.",
           "bench_swiglu.py")

    # 6. LayerNorm and 7. row sums: harsh-vsingh's rewrites over its history
    ln_commits = [("aec7049", "v1"), ("443bdac", "v2"), ("HEAD", "v3")]
    family("layernorm",
           [("torch_layer_norm.py", TEXT.ours_py("F.layer_norm over the last dim.", REF_LN))]
           + [(f"harsh_vsingh_layernorm_{tag}.py",
               hv_version(c, "kernels/normalization.py",
                          lambda n: ("layernorm" in n and "residual" not in n) or n == "welford_combine",
                          f"layernorm of a Triton kernel library ({tag}).", tag)) for c, tag in ln_commits],
           [hvs(c) for c, _ in ln_commits], "ladder-triton",
           "LayerNorm forward over the last dim, fp32 (16384 x 8192), weight and bias, eps 1e-5: eager torch "
           "(ours) against one author's Triton layernorm at three commits (row-per-program kernels for small "
           "and medium rows, a Welford split for long rows).", "bench_layernorm.py")
    sum_commits = [("bae937d", "v1"), ("4815567", "v2"), ("4bfee2d", "v3"), ("HEAD", "v4")]
    family("row-sum",
           [("torch_row_sum.py", TEXT.ours_py("x.sum(-1) accumulated in float32.", REF_SUM))]
           + [(f"harsh_vsingh_sum_{tag}.py",
               hv_version(c, "kernels/reductions.py", lambda n: n == "sum" or n.startswith("_sum_kernel"),
                          f"sum over the last dim of a Triton kernel library ({tag}).", tag))
              for c, tag in sum_commits],
           [hvs(c) for c, _ in sum_commits], "ladder-triton",
           "Sum over the last dim, bf16 in, fp32 out (4096 x 32768): eager torch (ours) against one author's "
           "Triton sum at four commits (small / medium / split-row kernels; thresholds and launch settings "
           "rewritten).", "bench_row_sum.py")

    write(os.path.join(out, "_p21common.py"), TEXT.adapter("_p21common.py"))
    write_index(out, families, sources)
    files, pairs = pair_counts(families)
    print(f"public21: {len(families)} families, {files} programs, {pairs} ordered pairs -> {out}")


if __name__ == "__main__":
    main()
