"""Builds public evaluation set 90 ("p90-" families, split "public90", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public90/pub90.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public90 [--dry-run]

Source (fetched with the session's `fetch` tool first), all Triton:
- Forge-researchlab/kernel-POCs: a team's Triton kernels for LoRA fine-tuning of Qwen3 / Gemma,
  written op by op as numbered experiments: kernels/rmsnorm/forge_rmsnorm_v1..v4.py (v2 adds
  casting modes and stride arguments, v3 autotunes num_warps / num_stages, v4 an in-place
  backward), kernels/rope/forge_rope_v1..v3.py (v2 groups the GQA heads, v3 autotunes),
  kernels/cross_entropy/experiments/v1 (two commits: host-side target checks, then a Triton
  target-stats kernel) and v2 (a Liger-style kernel with z-loss, softcap, label smoothing),
  kernels/geglu/geglu.py (two commits, each with an unpacked and a packed gate/up launcher).

A family is one op at one size: its reference version is a torch eager program written here
(marked as ours), its other versions are the repository's files verbatim (at HEAD or at the
commit named), each ending with a `kf_run` entry point marked KFORECAST (ours) that calls the
version's own launcher. forge_rmsnorm_v3.py and _v4.py import their CPU oracle from
forge_rmsnorm_v2.py with a relative import (`from .forge_rmsnorm_v2 import ...`), which a file
loaded on its own cannot do: that line is replaced by the function it imports, verbatim from
forge_rmsnorm_v2.py, and the same alias, marked KFORECAST. Adapters (`adapters/bench_p90_*.py`)
are ours. The builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public90", "scripts/evalsets/public90/pub90.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public90"
CARD = "H200"
REPO = "Forge-researchlab/kernel-POCs"

# Versions that fail (H200 measurement of MEASURED_DAY): path -> why. Kept in the set, failing.
FAILING = {}
MEASURED_DAY = "2026-11-28"

RMS = "kernels/rmsnorm/forge_rmsnorm_v{}.py"
ROPE = "kernels/rope/forge_rope_v{}.py"
CE1 = "kernels/cross_entropy/experiments/v1/cross_entropy_kernel_v1.py"
CE2 = "kernels/cross_entropy/experiments/v2/cross_entropy_kernel_v2.py"
GEGLU = "kernels/geglu/geglu.py"
GEGLU_OLD = "5685ac7"  # "Unsloth gated and tiled implementation": +/-inf guards in the activation
CE1_OLD = "76de3e9"    # "Add cross entropy benchmark workspace": host-side target checks

REL_IMPORT = "from .forge_rmsnorm_v2 import torch_rmsnorm_reference_v2 as torch_rmsnorm_reference_v{}  # noqa: E402\n"

# Torch eager reference versions (ours).
RMS_REF = '''import torch


def kf_run(x, w):
    xf = x.float()
    normed = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)
    return normed.to(x.dtype) * w
'''
RMS_FB_REF = '''import torch


def kf_run(x, w, dy):
    rstd = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
    xhat = x * rstd
    g = dy * w
    dx = rstd * (g - xhat * (g * xhat).mean(-1, keepdim=True))
    return xhat * w, dx, (dy * xhat).sum(0)
'''
ROPE_REF = '''import torch


def rotate_half(t):
    h = t.shape[-1] // 2
    return torch.cat((-t[..., h:], t[..., :h]), dim=-1)


def kf_run(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
'''
CE_REF = '''import torch.nn.functional as F


def kf_run(logits, target):
    return F.cross_entropy(logits, target, reduction="none")
'''
GEGLU_REF = '''import torch.nn.functional as F


def kf_run(gate, up, gate_up):
    return F.gelu(gate, approximate="tanh") * up
'''

FB_V1 = ("y, x2, w1, rstd = rmsnorm_v1_forward(x, w, 1e-6)\n"
         "    dx, dw = rmsnorm_v1_backward(dy, x2, w1, rstd)\n    return y, dx, dw")
FB_VN = ("y, x2, w1, rstd, mode = rmsnorm_v{n}_forward(x, w, 1e-6)\n"
         "    dx, dw = rmsnorm_v{n}_backward(dy, x2, w1, rstd, 0.0, mode)\n    return y, dx, dw")

# family, adapter, kf_run args, notes, [(stem, source, kf_run body, what)]
# source: ("ours", text) or (path, commit or None)
FAMILIES = [
    ("p90-forge-rmsnorm", "bench_p90_forge_rmsnorm.py", "x, w",
     "RMSNorm forward, y = x / sqrt(mean(x^2) + eps) * w over the last dim (llama casting: the "
     "normed row rounded to bf16 before the weight product): x (16384, 4096) bf16 randn, w (4096,) "
     "bf16 randn, eps 1e-6, y bf16. Reference: torch eager (ours).",
     [("v0_torch", ("ours", RMS_REF), None, "torch eager (ours): fp32 normalisation, bf16 product"),
      ("v1_first", (RMS.format(1), None), "return rmsnorm_v1_forward(x, w, 1e-6)[0]",
       "forge_rmsnorm_v1: one program a row, whole row in one block, num_warps 8 at 4096"),
      ("v2_casting_modes", (RMS.format(2), None), "return rmsnorm_v2_forward(x, w, 1e-6)[0]",
       "forge_rmsnorm_v2: casting modes and offset as constexprs, row strides, Liger-style settings"),
      ("v3_autotuned", (RMS.format(3), None), "return rmsnorm_v3_forward(x, w, 1e-6)[0]",
       "forge_rmsnorm_v3: v2's kernel under @triton.autotune over num_warps {4, 8, 16} x num_stages {2, 3}"),
      ("v4_inplace_bwd", (RMS.format(4), None), "return rmsnorm_v4_forward(x, w, 1e-6)[0]",
       "forge_rmsnorm_v4: v3's forward kernel (autotuned) with its own launcher")]),
    ("p90-forge-rmsnorm-fwdbwd", "bench_p90_forge_rmsnorm_fwdbwd.py", "x, w, dy",
     "RMSNorm forward then backward (dx, dw), as a training step runs them: x, dy (16384, 4096) "
     "fp32 randn, w (4096,) fp32 1 + 0.1 randn, eps 1e-6; outputs y, dx, dw fp32. Reference: torch "
     "eager (ours, the closed-form backward).",
     [("v0_torch", ("ours", RMS_FB_REF), None, "torch eager (ours): forward and closed-form backward"),
      ("v1_first", (RMS.format(1), None), FB_V1,
       "forge_rmsnorm_v1: forward kernel, then a backward kernel of 32-row blocks with dw partials"),
      ("v2_casting_modes", (RMS.format(2), None), FB_VN.format(n=2),
       "forge_rmsnorm_v2: one backward program an SM, rows strided over programs"),
      ("v3_autotuned", (RMS.format(3), None), FB_VN.format(n=3),
       "forge_rmsnorm_v3: v2's kernels, both autotuned"),
      ("v4_inplace_bwd", (RMS.format(4), None), FB_VN.format(n=4),
       "forge_rmsnorm_v4: v3's kernels, dx written in place over dy (its default)")]),
    ("p90-forge-rope", "bench_p90_forge_rope.py", "q, k, cos, sin",
     "Rotary position embedding (HF split-half) applied to Q and K: q (4, 32, 4096, 128), k (4, 8, "
     "4096, 128) bf16 randn, cos/sin (1, 4096, 128) bf16 (base 1e6); outputs q_out, k_out bf16. "
     "Reference: torch eager (ours, HF's apply_rotary_pos_emb in the inputs' dtype).",
     [("v0_torch", ("ours", ROPE_REF), None, "torch eager (ours): q cos + rotate_half(q) sin, bf16"),
      ("v1_fused_qk", (ROPE.format(1), None), "return apply_rope(q, k, cos, sin)",
       "forge_rope_v1: grid (tokens, q heads), the first n_kv programs of a token also rotate K"),
      ("v2_gqa_grouped", (ROPE.format(2), None), "return apply_rope(q, k, cos, sin)",
       "forge_rope_v2: grid (tokens, kv heads), each program 4 Q heads as a 2-D tile plus its K head"),
      ("v3_autotuned", (ROPE.format(3), None), "return apply_rope(q, k, cos, sin)",
       "forge_rope_v3: v2's kernel under @triton.autotune over num_warps {2, 4, 8, 16} x num_stages {2, 3}")]),
    ("p90-forge-ce", "bench_p90_forge_ce.py", "logits, target",
     "Cross-entropy loss per token (reduction 'none', no gradient): logits (4096, 151936) bf16 "
     "randn, target (4096,) int64; output (4096,) (bf16 from the Triton versions). Reference: torch "
     "eager F.cross_entropy (ours).",
     [("v0_torch", ("ours", CE_REF), None, "torch eager (ours): F.cross_entropy on the bf16 logits"),
      ("v1a_host_checks", (CE1, CE1_OLD), 'return forge_cross_entropy(logits, target, reduction="none")',
       f"cross_entropy_kernel_v1 at {CE1_OLD}: one program a row, online softmax over 32768-wide blocks, "
       "32 warps; target checks in torch on the host"),
      ("v1b_stats_kernel", (CE1, None), 'return forge_cross_entropy(logits, target, reduction="none")',
       "cross_entropy_kernel_v1 at HEAD: the same with a one-program Triton target-stats kernel"),
      ("v2_liger_style", (CE2, None), 'return forge_cross_entropy(logits, target, reduction="none")',
       "cross_entropy_kernel_v2: Liger-style kernel (weights, z-loss, softcap, accuracy as constexprs)")]),
    ("p90-forge-geglu", "bench_p90_forge_geglu.py", "gate, up, gate_up",
     "GEGLU forward, gelu_tanh(gate) * up: gate, up (8192, 14336) bf16 randn, gate_up their "
     "concatenation (8192, 28672); output (8192, 14336) bf16. Reference: torch eager (ours).",
     [("v0_torch", ("ours", GEGLU_REF), None, "torch eager (ours): F.gelu(tanh) * up in bf16"),
      ("v1_flat_guarded", (GEGLU, GEGLU_OLD), "return geglu_forward(gate, up)[0]",
       f"geglu.py at {GEGLU_OLD}: flat 1024-element blocks over gate and up, +/-inf guards"),
      ("v2_packed_guarded", (GEGLU, GEGLU_OLD), "return geglu_packed_forward(gate_up)[0]",
       f"geglu.py at {GEGLU_OLD}: packed launcher, row/column index arithmetic into gate_up"),
      ("v3_flat", (GEGLU, None), "return geglu_forward(gate, up)[0]",
       "geglu.py at HEAD: the unpacked launcher without the +/-inf guards"),
      ("v4_packed", (GEGLU, None), "return geglu_packed_forward(gate_up)[0]",
       "geglu.py at HEAD: the packed launcher without the guards")]),
]


def v2_oracle(repo):
    """forge_rmsnorm_v2.py's torch_rmsnorm_reference_v2, verbatim."""
    text = repo.show(RMS.format(2))
    start = text.index("def torch_rmsnorm_reference_v2(")
    end = text.index("\n\n\n", start)
    return text[start:end] + "\n"


def patched(repo, path, text):
    """The relative import of forge_rmsnorm_v3/_v4 replaced (see the module doc)."""
    for n in (3, 4):
        if path == RMS.format(n):
            line = REL_IMPORT.format(n)
            if line not in text:
                raise SystemExit(f"pub90.py: the relative import is not in {path}")
            new = (f"# KFORECAST: `{line.strip()}` replaced by the function it imports\n"
                   f"# (forge_rmsnorm_v2.py, verbatim) and the same alias.\n"
                   + v2_oracle(repo)
                   + f"\n\ntorch_rmsnorm_reference_v{n} = torch_rmsnorm_reference_v2  # KFORECAST\n")
            return text.replace(line, new), " (its relative import replaced, KFORECAST)"
    return text, ""


def family(repo, out, fam, adapter, args, notes, versions):
    files, said, seen = [], [], {}
    for stem, src, body, what in versions:
        rel = f"{fam}/{stem}.py"
        if src[0] == "ours":
            text = TEXT.ours_py(what, "\n" + src[1])
        else:
            path, commit = src
            code = repo.show(path, repo.git("rev-parse", commit).strip() if commit else None)
            code, change = patched(repo, path, code)
            at = repo.git("rev-parse", commit).strip() if commit else repo.commit
            text = (TEXT.py_line_header(repo.name, at, path + change, what)
                    + "# " + setkit.VERBATIM + "\n\n" + code.rstrip() + "\n\n\n"
                    + "# KFORECAST entry point (ours): the version's own launcher on the family's inputs\n"
                    + f"def kf_run({args}):\n    {body}\n")
        if text in seen:
            raise SystemExit(f"pub90.py: {stem} repeats {seen[text]}")
        seen[text] = stem
        setkit.write(os.path.join(out, rel), text)
        files.append(rel)
        said.append(f"{stem} ({what})")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in files]
    if MEASURED_DAY:
        entry["notes"] += (f" {CARD} measurement of {MEASURED_DAY}, failing: " + "; ".join(bad)
                           + "; every other version passed." if bad else
                           f" {CARD} measurement of {MEASURED_DAY}: every version passed.")
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public90",
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
        paths = [os.path.join(args.out, r) for f in fams for r in f["files"] if r not in FAILING]
        paths += [os.path.join(args.out, f["family"], "bench.py") for f in fams]
        for p in paths:
            with open(p, encoding="utf-8") as fh:
                compile(fh.read(), p, "exec")
        print("dry run: every version (the FAILING ones aside) and adapter compiles")


if __name__ == "__main__":
    main()
