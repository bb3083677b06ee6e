import torch
import torch.nn.functional as F


def cross_entropy(logits, labels, ignore_index=-100):
    return F.cross_entropy(logits.float(), labels, reduction="none", ignore_index=ignore_index)
