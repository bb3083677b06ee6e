#!/usr/bin/env python3
"""Builds evaluation set public19 (issue 20, 1(b)): public Triton programs no other set uses.

    pub19.py --mirror /work/.mirror --out /work/main/target/evalsets/public19

Reads local bare copies (made with the session's `fetch` tool: MIRROR/<owner>+<name>/repo)
and writes, OUTSIDE the repository, families.json, SOURCES.json (a dict keyed by family),
one folder per family (one program per version, reference first, and its bench.py adapter,
ours) and `_vendor/` (the few package modules the programs import, verbatim; package
`__init__`s left empty). Split "public19": report-only, never tuned on, never run through
kforecast by its builder.

Sources:
- meta-pytorch/tritonbench: the jagged sum / mean / softmax operators (the author's ladder
  of Triton kernels: simple fused vs variable-length loop, sum-then-buffer vs
  buffer-then-sum, against the operator's own torch baselines) and the welford operator
  (Inductor's layer norm with and without Welford). A Triton version is the operator's
  plain imports, the kernel module's prelude, one kernel verbatim, the operator's own host
  function for it (its `if sum_then_buffer:` cut to that kernel's branch, marked) and a
  marked `kf_entry`; a torch version is the operator's benchmark method as a function
  (its `self` a marked stand-in) and a marked `kf_entry`.
- opus24/skills-for-triton-kernel and hpcaitech/ColossalAI: see others.py.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))
sys.path.insert(0, HERE)

import others  # noqa: E402
import pycut  # noqa: E402
from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

SET = SetText("Evaluation set public19", "scripts/evalsets/public19/pub19.py", os.path.join(HERE, "adapters"))
PREFIX = "p19-"
TB = "meta-pytorch/tritonbench"
OPS = "tritonbench/operators"

JAGGED_ENTRY = '''

# KFORECAST: entry point (ours). The operator's input is a nested tensor (B, *, M) in the
# jagged layout; the adapter passes its values and offsets.
def kf_entry(values, offsets, B, M, seqlen, sparsity):
    x = torch.nested.nested_tensor_from_jagged(values, offsets)
    out = {call}
    return out["output"] if isinstance(out, dict) else out
'''

TORCH_SELF = '''

# KFORECAST: a stand-in for the benchmark operator's `self` (ours): the device and dtype
# the operator runs these methods with (DEFAULT_PRECISION fp32).
class _KfOperator:
    device = "cuda"
    dtype = torch.float32
'''

# op -> (torch benchmark methods, reference first; triton (file, host, flag value, kernel))
JAGGED = {
    "sum": (["torch_jagged_sum_no_pad", "torch_jagged_sum_pad"],
            [("simple_fused", True, "triton_jagged_sum_kernel_simple_fused_sum_then_buffer"),
             ("simple_fused", False, "triton_jagged_sum_kernel_simple_fused_buffer_then_sum"),
             ("variable_length_loop", True, "triton_jagged_sum_kernel_variable_length_loop_sum_then_buffer"),
             ("variable_length_loop", False, "triton_jagged_sum_kernel_variable_length_loop_buffer_then_sum")]),
    "mean": (["torch_jagged_mean_unbind_torch_mean", "torch_jagged_mean_torch_sum"],
             [("simple_fused", True, "triton_jagged_mean_kernel_simple_fused_sum_then_buffer"),
              ("simple_fused", False, "triton_jagged_mean_kernel_simple_fused_buffer_then_sum"),
              ("variable_length_loop", True, "triton_jagged_mean_kernel_variable_length_loop_sum_then_buffer"),
              ("variable_length_loop", False, "triton_jagged_mean_kernel_variable_length_loop_buffer_then_sum")]),
    "softmax": (["torch_jagged_softmax_unbind_torch_softmax", "torch_jagged_softmax_torch_sum"],
                [("simple_fused", None, "triton_jagged_softmax_kernel_simple_fused_buffer_then_sum"),
                 ("variable_length_loop", None, "triton_jagged_softmax_kernel_variable_length_loop_buffer_then_sum")]),
}


def vendor_tritonbench(tb, out):
    root = os.path.join(out, "_vendor", "tritonbench")
    note = f"# KFORECAST: package init left empty; vendored from {tb.name}@{tb.commit}\n"
    for init in ("__init__.py", "kernels/__init__.py", "utils/__init__.py"):
        write(os.path.join(root, init), note)
    for p in ("kernels/profile.py", "utils/env_utils.py", "utils/path_utils.py"):
        write(os.path.join(root, p), tb.show(f"tritonbench/{p}"))


def jagged_torch(tb, op, meth):
    path = f"{OPS}/jagged_{op}/operator.py"
    src = tb.show(path)
    body = pycut.method_text(src, "Operator", meth)
    hdr = SET.header(tb, [f"{path}: Operator.{meth}"], f"The jagged {op} operator's torch benchmark `{meth}` "
                     "(a method of the operator; here a function).", comment="#")
    return (hdr + pycut.plain_imports(src) + TORCH_SELF + "\n\n" + body
            + JAGGED_ENTRY.format(call=f"{meth}(_KfOperator(), x, B, M, seqlen, sparsity)()"))


def jagged_triton(tb, op, host, flag, kernel):
    opath, kpath = f"{OPS}/jagged_{op}/operator.py", f"{OPS}/jagged_{op}/kernels.py"
    osrc, ksrc = tb.show(opath), tb.show(kpath)
    hname = f"execute_kernel_{host}"
    if flag is None:
        htext = pycut.node_text(osrc, pycut.top(osrc, hname))
    else:
        htext = pycut.cut_branch(osrc, hname, "sum_then_buffer", flag)
    note = ""
    if "return None\n" in htext:
        htext = htext.replace("    return None\n", "    return kernel_output  # KFORECAST: the source returns None "
                              "(its benchmark times the launch only)\n")
        note = " The host function's `return None` returns its output (marked)."
    args = {"simple_fused": "x, seqlen", "variable_length_loop": "x"}[host]
    if flag is not None:
        args += f", {flag}"
    hdr = SET.header(tb, [f"{kpath}: {kernel}", f"{opath}: {hname}"],
                     f"One Triton kernel of the jagged {op} operator with the operator's host function for it." + note,
                     comment="#")
    return (hdr + pycut.plain_imports(osrc) + pycut.prelude(ksrc) + "\n\n" + pycut.node_text(ksrc, pycut.top(ksrc, kernel))
            + "\n\n" + htext + JAGGED_ENTRY.format(call=f"{hname}({args})"))


WELFORD_ENTRY = '''

# KFORECAST: entry point (ours): the layer norm's output (the host function also returns
# its saved statistics).
def kf_entry(weight, bias, x):
    return {host}(weight, bias, x)[0]
'''

REF_LN = '''import torch
import torch.nn.functional as F


def kf_entry(weight, bias, x):
    return F.layer_norm(x, (x.shape[-1],), weight, bias, 1e-5)
'''


def welford(tb, kernel, host):
    path = f"{OPS}/welford/triton_welford.py"
    src = tb.show(path)
    hdr = SET.header(tb, [f"{path}: {kernel}, {host}"], "One of the two Inductor-generated layer norm kernels "
                     "with its host function.", comment="#")
    return (hdr + pycut.prelude(src) + "\n\n" + pycut.node_text(src, pycut.top(src, kernel)) + "\n\n"
            + pycut.node_text(src, pycut.top(src, host)) + WELFORD_ENTRY.format(host=host))


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public19")
    out = args.out
    clear_set(out)
    tb = Repo(args.mirror, TB)
    families, sources = [], {}

    def family(name, files, repos, style, notes, bench):
        name = PREFIX + name
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), SET.adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": "public19",
                         "source": ", ".join(r.at() for r in repos), "style": style, "notes": notes})
        sources[name] = [{"repo": r.name, "commit": r.commit} for r in repos]

    write(os.path.join(out, "_p19common.py"), SET.adapter("_p19common.py"))
    vendor_tritonbench(tb, out)

    for op, (torch_meths, tritons) in JAGGED.items():
        files = [(f"{m}.py", jagged_torch(tb, op, m)) for m in torch_meths]
        for host, flag, kernel in tritons:
            files.append((f"{kernel}.py", jagged_triton(tb, op, host, flag, kernel)))
        family(f"tb-jagged-{op}", files, [tb], "library-triton",
               f"tritonbench's jagged {op} over the ragged dim of a (B, *, M) nested tensor, fp32, B=256, M=512, "
               "max seqlen 512, sparsity 0.5 (the operator's own input generator: lengths uniform in 256 +- 153; "
               "~2^25 values): the operator's torch baselines (reference: its `baseline=True` one) and its "
               "autotuned Triton kernels (simple fused over MAX_SEQLEN vs a loop over each sequence's own "
               "length; sum-then-buffer vs buffer-then-sum). "
               + ("torch_jagged_mean_torch_nanmean left out when building (before measuring) so that no op "
                  "holds more than a third of the pairs." if op == "mean" else ""),
               f"bench_p19_jagged_{op}.py")

    family("tb-welford-layer-norm",
           [("fused_native_layer_norm_no_welford.py",
             welford(tb, "triton_red_fused_native_layer_norm_no_welford", "fused_native_layer_norm_no_welford")),
            ("fused_native_layer_norm.py", welford(tb, "triton_red_fused_native_layer_norm_0", "fused_native_layer_norm")),
            ("torch_layer_norm.py", SET.ours_py("F.layer_norm, eps 1e-5.", REF_LN))],
           [tb], "inductor-triton",
           "tritonbench's welford operator: Inductor-generated layer norm forward without Welford (the operator's "
           "baseline, reference) and with Welford, bf16 262144 x 1024 (its first built-in shape), weight and bias; "
           "and eager F.layer_norm (ours).", "bench_p19_welford.py")

    others.add(args.mirror, family, SET)

    write_index(out, families, sources)
    n, pairs = pair_counts(families)
    print(f"pub19.py: {len(families)} families, {n} programs, {pairs} ordered pairs -> {out}")


if __name__ == "__main__":
    main()
