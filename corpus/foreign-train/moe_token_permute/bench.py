"""moe_token_permute: the token permutation before a grouped MoE GEMM, bf16: every (token, k)
pair of a top-k routing goes to its expert's contiguous segment, experts in order, pairs in
(token, k) order inside a segment:
permute_tokens(hidden [T, C] bf16, topk_ids [T, K] int32 (E experts)) ->
(permuted [T*K, C] bf16, row_id_map [T*K] int32: the permuted row of pair t*K + k)."""
import torch
from progbuild import load_program

T, C, K, E = 16384, 4096, 2, 64  # hidden 134 MB, permuted 268 MB
TOL = {"rtol": 0.0, "atol": 0.0}  # a permutation: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    hidden = torch.randn(T, C, device="cuda", generator=g).bfloat16()
    # skewed router: some experts get many more tokens than others
    logits = torch.randn(T, E, device="cuda", generator=g) + torch.linspace(0, 2, E, device="cuda")
    topk_ids = torch.topk(logits, K, dim=-1).indices.to(torch.int32)
    return hidden, topk_ids


def build(path):
    prog = load_program(path)
    return prog.permute_tokens
