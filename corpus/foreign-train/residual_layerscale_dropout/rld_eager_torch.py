"""Residual add of a LayerScale'd, dropped-out branch, in plain torch ops (eager)."""
import torch


def residual_dropout_add(x, y, gamma, keep, p):
    dropped = keep.to(y.dtype) * y
    dropped = dropped / (1.0 - p)
    return x + gamma * dropped
