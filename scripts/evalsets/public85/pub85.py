"""Builds public evaluation set 85 ("p85-" families, split "public85", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public85/pub85.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public85 [--dry-run]

Source (fetched with the session's `fetch` tool first), all Triton:
- thunlp/TritonBench: a Triton benchmark. Its TritonBench-G set (data/TritonBench_G_v1/) keeps
  184 Triton operators collected from GitHub (each file: the operator's kernels and wrapper, a
  line of '#' characters, then the benchmark's test code), and LLM_generated/Bench_G_* keeps
  the candidates that LLMs wrote for each operator from its description (one JSON line a task:
  "instruction", "predict" (the candidate's code), "label" (the operator's own code)).

A family is one op at one size: its reference version is one TritonBench-G operator (the part
above the '#' line, verbatim; the benchmark's test code below it is left out), and its other
versions are other operators of the same op (other authors' code) and LLM candidates ("predict",
verbatim, picked by JSONL file and line; identical candidates kept once). Each version ends with
a `kf_run` entry point marked KFORECAST (ours) that calls the version's own wrapper with the
family's inputs (the candidates' wrappers differ in signature; output buffers a wrapper expects
from its caller are allocated in kf_run). Adapters (`adapters/bench_p85_*.py`) are ours. The
builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public85", "scripts/evalsets/public85/pub85.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public85"
CARD = "H200"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {
    "p85-tb-rmsnorm/v3_llm_o1.py": "Triton CompilationError: tl.float32(N), a dtype called as a function",
    "p85-tb-rmsnorm/v4_llm_claude35.py": "wrong: NaN in 50331648 of the 67108864 outputs (elements left unwritten)",
    "p85-tb-rmsnorm/v6_llm_gpt4o.py": "wrong: NaN in 67104768 of the 67108864 outputs (elements left unwritten)",
    "p85-tb-swiglu/v1_llm_o1.py": "wrong: its grid assumes 128 columns a program while autotune may pick "
                                  "64, so about half the outputs are left unwritten (33470658 of 67108864 off)",
    "p85-tb-swiglu/v4_llm_gpt4o.py": "wrong: one program a row covering only its first 128 columns "
                                     "(66001596 of 67108864 outputs off)",
    "p85-tb-swiglu/v6_llm_qwen72b.py": "Triton CompilationError: item assignment into a block "
                                       "(__setitem__ is not supported in triton)",
    "p85-tb-matmul/v2_datalama.py": "Triton CompilationError: the wrapper passes the matrix sizes as block sizes, "
                                    "numel 16777216 exceeds Triton's 1048576",
    "p85-tb-matmul/v3_llm_o1.py": "Triton CompilationError: c_ptrs built from the scalar block starts "
                                  "(offs_m, offs_n, not the aranges), so storing the 64x64 block fails",
    "p85-tb-matmul/v4_llm_o1_rag.py": "Triton CompilationError: the kernel calls a method of a non-constexpr "
                                      "global class (kernel_utils.mul)",
}
MEASURED_DAY = "2026-11-28"

REPO = "thunlp/TritonBench"
G = "data/TritonBench_G_v1/"
GP = "LLM_generated/Bench_G_general_purpose/"
O1, O1R = GP + "output_o1-2024-12-17_comp.jsonl", GP + "output_o1-2024-12-17_comp_rag_.jsonl"
CL, CLR = GP + "output_claude-3-5-sonnet-20240620_comp.jsonl", GP + "output_claude-3-5-sonnet-20240620_comp_rag.jsonl"
G4, G4R = GP + "output_gpt-4o_comp.jsonl", GP + "output_gpt-4o_comp_rag.jsonl"
DS, QW = GP + "output_DeepSeek-R1_comp.jsonl", GP + "Qwen2.5-72B-Instruct_comp.jsonl"
SEP = "#" * 40

RMS_ARGS, SWI_ARGS, MM_ARGS = "x, w", "xy", "a, b"
# kf_run imports torch itself: some candidates (o1, gpt-4o) never import it.
MM_OUT = ("import torch\n    c = torch.empty((a.shape[0], b.shape[1]), device=a.device, dtype=a.dtype)\n    "
          "{call}\n    return c")

# family, adapter, kf_run args, notes, [(stem, (path,) or (jsonl, line), kf_run body, what)]
FAMILIES = [
    ("p85-tb-rmsnorm", "bench_p85_tb_rmsnorm.py", RMS_ARGS,
     "RMSNorm forward, y = x / sqrt(mean(x^2) + eps) * w over the last dim: x (16384, 4096) fp16 "
     "randn, w (4096,) fp16 randn, eps 1e-6 where the wrapper takes one (the others keep their "
     "own default), y fp16. Reference: TritonBench-G's rmsnorm_fused_llama (from S-LoRA/S-LoRA).",
     [("v0_slora_fused_llama", (G + "rmsnorm_fused_llama.py",), "return rmsnorm_forward(x, w, 1e-6)",
       "TritonBench-G rmsnorm_fused_llama (S-LoRA): one program a row, two loops, BLOCK_SIZE 16384, 8 warps"),
      ("v1_alipay_impl", (G + "rmsnorm_implementation.py",),
       "return rmsnorm_wrapper(x.view(4, -1, x.shape[-1]), w, eps=1e-6).view(x.shape)",
       "TritonBench-G rmsnorm_implementation (alipay/PainlessInferenceAcceleration): (batch, m) grid, "
       "BLOCK_N 4096, 16 warps; x given as (4, 4096, 4096)"),
      ("v2_declarelab_fused", (G + "rmsnorm_fused.py",), "return TritonLlamaRMSNorm(w, eps=1e-6)(x)",
       "TritonBench-G rmsnorm_fused (declare-lab/instruct-eval): TritonLlamaRMSNorm module, "
       "next_power_of_2 block, heuristic warps"),
      ("v3_llm_o1", (O1, 96), "return rmsnorm_forward(x, w)", "o1-2024-12-17 candidate (comp instruction)"),
      ("v4_llm_claude35", (CL, 96), "return rmsnorm_forward(x, w, 1e-6)",
       "claude-3.5-sonnet-20240620 candidate (comp instruction)"),
      ("v5_llm_deepseek_r1", (DS, 96), "return rmsnorm_forward(x, w, 1e-6)",
       "DeepSeek-R1 candidate (comp instruction)"),
      ("v6_llm_gpt4o", (G4, 96), "return rmsnorm_forward(x, w)",
       "gpt-4o candidate (comp instruction; runs its own small example at import)")]),
    ("p85-tb-swiglu", "bench_p85_tb_swiglu.py", SWI_ARGS,
     "SwiGLU forward, out = silu(x) * y with x, y = xy.chunk(2, -1): xy (8192, 16384) fp32 randn "
     "(fp32 as TritonBench's own tests; tl.exp/tl.sigmoid reject fp16 in candidates that do not cast), "
     "out (8192, 8192) fp32. Reference: TritonBench-G's swiglu_fwd (from MzeroMiko/VMamba).",
     [("v0_vmamba", (G + "swiglu_fwd.py",), "return _swiglu_fwd(xy)",
       "TritonBench-G swiglu_fwd (VMamba): (row, column block) grid, BLOCK_N autotuned over 32..1024"),
      ("v1_llm_o1", (O1, 4), "return _swiglu_fwd(xy)", "o1-2024-12-17 candidate (comp instruction)"),
      ("v2_llm_o1_rag", (O1R, 1), "return _swiglu_fwd(xy)", "o1-2024-12-17 candidate (comp instruction, RAG)"),
      ("v3_llm_deepseek_r1", (DS, 4), "return _swiglu_fwd(xy)", "DeepSeek-R1 candidate (comp instruction)"),
      ("v4_llm_gpt4o", (G4, 4), "return _swiglu_fwd(xy, xy.shape[0], xy.shape[1] // 2)",
       "gpt-4o candidate (comp instruction): wrapper (xy, M, N)"),
      ("v5_llm_gpt4o_rag", (G4R, 0), "return _swiglu_fwd(xy, xy.shape[1] // 2)",
       "gpt-4o candidate (comp instruction, RAG): wrapper (xy, ncols)"),
      ("v6_llm_qwen72b", (QW, 4), "return _swiglu_fwd(xy)", "Qwen2.5-72B-Instruct candidate (comp instruction)")]),
    ("p85-tb-matmul", "bench_p85_tb_matmul.py", MM_ARGS,
     "fp16 GEMM C = A @ B, A and B (4096, 4096) fp16 randn, C fp16 (v2's wrapper returns fp32). "
     "Reference: TritonBench-G's matmul_kernel (from tinygrad/tinygrad), at its test's first block "
     "sizes (64, 128, 64).",
     [("v0_tinygrad", (G + "matmul_kernel.py",),
       MM_OUT.format(call="matmul(c, a, b, a.shape[0], b.shape[1], a.shape[1], 64, 128, 64)"),
       "TritonBench-G matmul_kernel (tinygrad): 2D grid, sizes fixed in the kernel, 64x128x64 tiles"),
      ("v1_fxplus", (G + "matmul_triton2.py",), "return triton_matmul(a, b)",
       "TritonBench-G matmul_triton2 (Carinaqyy/FX_Plus): autotuned grouped-order GEMM"),
      ("v2_datalama", (G + "matmul_triton1.py",), "return matmul(a, b)",
       "TritonBench-G matmul_triton1 (DataLama/triton-tutorials): autotuned GEMM, fp32 output"),
      ("v3_llm_o1", (O1, 94),
       MM_OUT.format(call="matmul(a, b, c, a.shape[0], b.shape[1], a.shape[1], a.stride(0), a.stride(1), "
                          "b.stride(0), b.stride(1), c.stride(0), c.stride(1))"),
       "o1-2024-12-17 candidate (comp instruction): wrapper takes the tensors and strides, 64x64x32 tiles"),
      ("v4_llm_o1_rag", (O1R, 93), "return matmul(a, b)",
       "o1-2024-12-17 candidate (comp instruction, RAG): 128x128x32 tiles (its defaults)"),
      ("v5_llm_claude35", (CL, 94), "return matmul(a, b)", "claude-3.5-sonnet-20240620 candidate (comp instruction)"),
      ("v6_llm_deepseek_r1", (DS, 94), "return matmul(a, b)", "DeepSeek-R1 candidate (comp instruction)"),
      ("v7_llm_gpt4o", (G4, 94),
       MM_OUT.format(call="matmul(a, b, c, a.shape[0], b.shape[1], a.shape[1])"),
       "gpt-4o candidate (comp instruction): 128x128x32 tiles (its defaults)")]),
]


def source_text(repo, src):
    """(verbatim text, where) of one version's source."""
    if len(src) == 1:
        text = repo.show(src[0])
        cut = text.find(SEP)
        if cut < 0:
            raise SystemExit(f"pub85.py: no '#' separator line in {src[0]}")
        return text[:cut].rstrip() + "\n", src[0] + " (above the '#' line)"
    path, line = src
    rows = repo.show(path).splitlines()
    return json.loads(rows[line])["predict"].rstrip() + "\n", f"{path} line {line + 1} (its \"predict\")"


def family(repo, out, fam, adapter, args, notes, versions):
    files, said, seen = [], [], {}
    for stem, src, body, what in versions:
        text, where = source_text(repo, src)
        if text in seen:
            raise SystemExit(f"pub85.py: {stem} repeats {seen[text]}")
        seen[text] = stem
        rel = f"{fam}/{stem}.py"
        setkit.write(os.path.join(out, rel),
                     TEXT.py_line_header(repo.name, repo.commit, where, what)
                     + "# " + setkit.VERBATIM + "\n\n" + text + "\n\n"
                     + "# KFORECAST entry point (ours): the version's own wrapper on the family's inputs\n"
                     + f"def kf_run({args}):\n    {body}\n")
        files.append(rel)
        said.append(f"{stem} ({what})")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in files]
    if FAILING:
        entry["notes"] += (f" {CARD} measurement of {MEASURED_DAY}, failing: " + "; ".join(bad)
                           + "; every other version passed." if bad else
                           f" {CARD} measurement of {MEASURED_DAY}: every version passed.")
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public85",
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
