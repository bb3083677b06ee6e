"""Builds public evaluation set 33 ("p33-" families, split "public33", kept unseen) from a
local copy of a public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public33/pub33.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public33

Source (fetched with the session's `fetch` tool first):
- ServiceNow/Fast-LLM: the Triton kernels of the Fast-LLM training library
  (fast_llm/functional/triton/), rewritten over its git history: the layer/RMS normalisation
  forward and backward (normalization.py), the in-place rotary embedding (rotary.py), and the
  fused cross-entropy forward+backward (cross_entropy.py, replaced by entropy_loss.py in the
  commit "Triton losses"), with integer labels and with teacher logits (distillation).
  A version is the kernel module at one commit, verbatim, plus one KFORECAST entry block that
  calls the module's own host function the way the library calls it (the call's arguments
  follow each commit's signature). Versions: the commits whose diff changed the module's code,
  by message and diff, never by speed; commits changing only imports, type hints, decorator
  spellings (`@triton.jit` -> `@triton_jit()`, `tl.arange` -> `tl_arange`) or names are left out.
  The modules' package imports (fast_llm.*) are served by a stand-in package installed by the
  set's `_p33common.py` (KFORECAST glue, ours).

A version is the source's text verbatim but for the lines marked KFORECAST. Adapters
(`adapters/bench_p33_*.py`, each with a float64 `reference`) are ours. The builder replaces
the whole set folder but `measurements/`.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public33", "scripts/evalsets/public33/pub33.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public33"
REPO = "ServiceNow/Fast-LLM"
T = "fast_llm/functional/triton/"

NORM_ENTRY = """def kf_entry(input_, weight, bias, grad_output, eps):
    output, context = triton_normalization_forward(input_, weight, bias, eps, True, False)
    grad_input = triton_normalization_backward(grad_output, context)
    return output, grad_input
"""
ROT_ENTRY = """def kf_entry(input_, frequencies):
    return triton_rotary_(input_, frequencies)
"""


def xent_entry(call, pick="out[0], out[1]"):
    return f"""def kf_entry(logits, target):
    out = {call}
    return {pick}
"""


CE = "triton_cross_entropy_forward_backward"
EL = "triton_entropy_loss_forward_backward"
NEW_KW = "grad_output=1.0, target_format=TargetFormat.{fmt}, entropy_loss_type=EntropyLossType.cross_entropy"

# (commit, path, subject as the repository gives it, entry block)
NORM = [
    ("1aa60404", T + "normalization.py", "Initial commit", NORM_ENTRY),
    ("ab17636c", T + "normalization.py", "Minimal LoRA implementation (#182)", NORM_ENTRY),
    ("3daf079e", T + "normalization.py", "Fix triton normalization backward (#226)", NORM_ENTRY),
    ("929c1cf9", T + "normalization.py", "Fix and test LM head (#240)", NORM_ENTRY),
    ("66370877", T + "normalization.py", "Add Gemma 4 support (#492)", NORM_ENTRY),
    ("27f4747e", T + "normalization.py", "Rewrite Triton normalization backward kernel_1 (#499) (#546)", NORM_ENTRY),
]
ROTARY = [
    ("1aa60404", T + "rotary.py", "Initial commit", ROT_ENTRY),
    ("82e83508", T + "rotary.py", "Fix triton rotary kernel for training on context lengths > 65k (#386)", ROT_ENTRY),
    ("8cc55571", T + "rotary.py", "[v0.4.0] Improved model preprocessing, new batch structure (#471)", ROT_ENTRY),
    ("66370877", T + "rotary.py", "Add Gemma 4 support (#492)", ROT_ENTRY),
]
CE_LABELS = "{ce}(logits, target, 1.0)"
CE_V3 = "{ce}(logits, target, 1.0, 1.0, TargetFormat.{fmt})"
CE_V4 = "{ce}(logits, target, None, 1.0, 1.0, TargetFormat.{fmt})"
CE_V6 = "{ce}(logits, target, None, 1.0, 1.0, TargetFormat.{fmt}, EntropyLossType.cross_entropy)"
EL_V1 = "{el}(logits, target, None, " + NEW_KW + ")"
CEP, ELP = T + "cross_entropy.py", T + "entropy_loss.py"
# (commit, path, subject as the repository gives it, call template, in labels?, in distill?)
LOSSES = [
    ("1aa60404", CEP, "Initial commit", CE_LABELS, True, False),
    ("e933bd6f", CEP, "support mup (#305)", CE_LABELS, True, False),
    ("5180937d", CEP, "Knowledge distillation, fix and improve cross-entropy (#229)", CE_V3, True, True),
    ("f08ac901", CEP, "Loss masking for distillation (#250)", CE_V4, True, True),
    ("9dde734f", CEP, "Mixed distillation loss + reverse KL + Hybrid fixes (#321)", CE_V4, True, True),
    ("c972753d", CEP, "Refactor LM losses v2 (#449)", CE_V6, True, True),
    ("2b96efd7", CEP, "Entropy loss tweaks (#465)", CE_V6, True, True),
    ("de9aebdf", ELP, "Triton losses (#466)", EL_V1, True, True),
    ("69aa0f09", ELP,
     "Improve normalization of losses and metrics, fix bugs, run distributed model tests on cpu (#477)",
     EL_V1, True, True),
    ("46ffbdd1", ELP, "Speed up from-distribution entropy-loss kernels (#497) (#547)", EL_V1, False, True),
    ("7d61a1ba", ELP, "Monolithic fused head-loss kernel (torch.compile) (#507) (#549)", EL_V1, False, True),
]


def loss_versions(fmt, col):
    out = []
    for short, path, subject, call, *inc in LOSSES:
        if inc[col]:
            # 7d61a1ba returns (loss, z_loss, grad_logits)
            pick = "out[0], out[-1]" if short == "7d61a1ba" else "out[0], out[1]"
            out.append((short, path, subject, xent_entry(call.format(ce=CE, el=EL, fmt=fmt), pick)))
    return out


XENT = loss_versions("labels", 0)
DISTILL = loss_versions("logits", 1)

FAMILIES = [
    ("p33-fastllm-layernorm", NORM, "bench_p33_fastllm_layernorm.py",
     "Fast-LLM's Triton layer normalisation, forward then backward in training mode (one row a program "
     "forward; backward kernel_1 computing the input gradient and per-block partial weight/bias gradients, "
     "kernel_2 summing them), at every commit that changed normalization.py's kernels or launch, by "
     "message: the initial commit; 'Minimal LoRA implementation' (parameter_grad switch); 'Fix triton "
     "normalization backward' (weight regularised by eps before the division); 'Fix and test LM head' "
     "(output in the weight's dtype); 'Add Gemma 4 support' (optional weight); 'Rewrite Triton "
     "normalization backward kernel_1' (row blocks sized by SM count, a two-pass variant). Left out: "
     "typing, import and decorator-spelling commits (6c5dee40, 4496a40a, ff1486dd, c208b26e, de9aebdf, "
     "69aa0f09). x float32 (8192, 4096) (2^25 elements; the library's own comment tunes for [8192, 4096]), "
     "weight in [0.5, 1.5], bias and grad_output standard normal, eps 1e-5; outputs: y, grad_input, "
     "grad_weight, grad_bias (the weight's and bias's grad_buffer, set by the adapter; gradients "
     "overwritten, not accumulated)."),
    ("p33-fastllm-rmsnorm", NORM, "bench_p33_fastllm_rmsnorm.py",
     "The same Fast-LLM normalisation module as p33-fastllm-layernorm, same commits, called as an RMS "
     "norm (bias None: no mean subtraction, no bias gradient), forward then backward. x float32 "
     "(8192, 4096), weight in [0.5, 1.5], eps 1e-5; outputs y, grad_input, grad_weight."),
    ("p33-fastllm-rotary", ROTARY, "bench_p33_fastllm_rotary.py",
     "Fast-LLM's in-place Triton rotary embedding triton_rotary_(input, frequencies) (pre-computed cos/sin "
     "table, real and imaginary halves of each head), at every commit that changed rotary.py's kernel or "
     "launch, by message: the initial commit (grid batch x seq x head blocks); 'Fix triton rotary kernel "
     "for training on context lengths > 65k' (batch and sequence folded into grid x, seq_len constexpr); "
     "'[v0.4.0] Improved model preprocessing' (3-d input, key-value chunking, non-contiguous input); "
     "'Add Gemma 4 support' (separate output pointer, in place by default). Left out: 8011b1f9 (a "
     "rename) and the typing/decorator commits. bf16 (4, 4096, 32, 128) (2^26 elements), frequencies "
     "float32 (4096, 128) from theta 10000; the adapter clones the input before each call (the kernel "
     "works in place), so every version's time includes one 128 MB copy."),
    ("p33-fastllm-xent", XENT, "bench_p33_fastllm_xent.py",
     "Fast-LLM's fused Triton cross-entropy forward+backward from integer labels (one row a program: "
     "softmax, loss, gradient of the mean loss written in one pass), at every commit that changed the "
     "labels path, by message: cross_entropy.py's initial commit; 'support mup' (logits_scale_factor); "
     "'Knowledge distillation, fix and improve cross-entropy' (constexpr sizes, target formats); 'Loss "
     "masking for distillation'; 'Mixed distillation loss + reverse KL'; 'Refactor LM losses v2'; "
     "'Entropy loss tweaks'; then entropy_loss.py, which replaced it in 'Triton losses' (a block-looped "
     "softmax, parallel-vocab variants) and 'Improve normalization of losses and metrics'. Left out: "
     "typing/import commits and 46ffbdd1/7d61a1ba, whose messages concern the distribution paths. "
     "logits bf16 (2048, 32000) (2^26 elements), standard normal; labels int64 in [0, 32000); grad_output "
     "1.0; outputs (mean loss, grad_logits)."),
    ("p33-fastllm-distill", DISTILL, "bench_p33_fastllm_distill.py",
     "Fast-LLM's fused Triton cross-entropy forward+backward against a teacher's logits (distillation, "
     "target_format logits: soft targets softmax(teacher)), at every commit that changed the distribution "
     "path, by message: 'Knowledge distillation, fix and improve cross-entropy' (its first version); 'Loss "
     "masking for distillation'; 'Mixed distillation loss + reverse KL'; 'Refactor LM losses v2'; "
     "'Entropy loss tweaks' (target / temperature on the host); entropy_loss.py's 'Triton losses', "
     "'Improve normalization of losses and metrics', 'Speed up from-distribution entropy-loss kernels' "
     "(16384-column blocks, autotuned warps) and 'Monolithic fused head-loss kernel' (optional fused "
     "z-loss). logits and teacher logits bf16 (2048, 32000), standard normal; grad_output 1.0; outputs "
     "(mean loss, grad_logits)."),
]


def family(repo, out, fam, versions, adapter, notes):
    files, srcs = [], []
    for i, (short, path, subject, entry) in enumerate(versions, 1):
        commit = repo.git("rev-parse", short).strip()
        text = (TEXT.built_by("#") + f"\n# {repo.name} at commit {commit}:\n#   {path}\n"
                f"# ({subject})\n# Code below is the source's, verbatim, except the lines marked KFORECAST.\n"
                + repo.show(path, commit).rstrip("\n") + "\n\n\n"
                "# KFORECAST entry (ours): the module's own host function(s), called as the library calls them\n"
                + entry)
        name = f"v{i}_{short}.py"
        setkit.write(os.path.join(out, fam, name), text)
        files.append(f"{fam}/{name}")
        srcs.append({"file": f"{fam}/{name}", "commit": commit, "path": path, "subject": subject})
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    f = {"family": fam, "files": files, "split": SPLIT,
         "source": f"{repo.at()} {T} (versions from the git history)",
         "style": "triton-library-history", "notes": notes}
    return f, {fam: {"repo": repo.name, "head": repo.commit, "versions": srcs}}


# The H100 measurement of 2026-11-27 (one call, two groups): every version passed its checks.
MEASURED_NOTE = " H100 measurement of 2026-11-27: every version passed."


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public33")
    repo = setkit.Repo(args.mirror, REPO)
    setkit.clear_set(args.out)
    families, sources = [], {}
    for fam, versions, adapter, notes in FAMILIES:
        f, s = family(repo, args.out, fam, versions, adapter, notes)
        families.append(dict(f, notes=f["notes"] + MEASURED_NOTE))
        sources.update(s)
    setkit.write(os.path.join(args.out, "_p33common.py"), TEXT.adapter("_p33common.py"))
    setkit.write_index(args.out, families, sources)
    n_files, n_pairs = setkit.pair_counts(families)
    print(f"pub33.py: {len(families)} families, {n_files} programs, {n_pairs} ordered pairs -> {args.out}")


if __name__ == "__main__":
    main()
