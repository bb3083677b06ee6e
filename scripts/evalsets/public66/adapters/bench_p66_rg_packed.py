"""Adapter of p66-rg-packed (kforecast's own code): each version's `kf_run(vid, txt,
vid_lengths, txt_lengths)` (ring00's packed merge, torch and Triton) on fp16 vid and txt of
hidden 1024, 64 segments each, lengths drawn as the source's benchmark draws its largest
configuration; output the segments interleaved (vid_0, txt_0, vid_1, txt_1, ...)."""
import torch
from progbuild import load_program

BATCH, AVG_VID, AVG_TXT, H = 64, 512, 256, 1024
VID_LENGTHS = [max(1, AVG_VID + (i % 3 - 1) * AVG_VID // 4) for i in range(BATCH)]
TXT_LENGTHS = [max(1, AVG_TXT + (i % 3 - 1) * AVG_TXT // 4) for i in range(BATCH)]
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    vid = torch.randn(sum(VID_LENGTHS), H, device="cuda", generator=g).half()
    txt = torch.randn(sum(TXT_LENGTHS), H, device="cuda", generator=g).half()
    return (vid, txt, list(VID_LENGTHS), list(TXT_LENGTHS))


def reference(vid, txt, vid_lengths, txt_lengths):
    out, vo, to = [], 0, 0
    for lv, lt in zip(vid_lengths, txt_lengths):
        out += [vid[vo:vo + lv].double(), txt[to:to + lt].double()]
        vo += lv
        to += lt
    return torch.cat(out, dim=0)


def build(path):
    return load_program(path).kf_run
