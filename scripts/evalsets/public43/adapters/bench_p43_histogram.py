"""Adapter of p43-hist-* (kforecast's own code): CS149 asst5 histogram, each version's
`custom_kernel(data)` (the reference version's `ref_kernel(data)`) on the problem's own
generate_input(length=1048576, num_channels=512, num_bins=256, seed) (its test case); the
family folder (the problem's task.py and utils.py, which the versions import) goes first on
sys.path. The float64 reference counts with one bincount over channel-offset values, in chunks."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p43common as kf  # noqa: E402

CFG = dict(length=1048576, num_channels=512, num_bins=256)
TOL = {"rtol": 0.0, "atol": 0.0}
FAM = kf.Family(HERE)


def make_inputs(seed):
    return FAM.ref().generate_input(seed=seed % (1 << 31), **CFG)


def reference(array, num_bins):
    length, channels = array.shape
    counts = torch.zeros(channels * num_bins, dtype=torch.int64, device=array.device)
    offs = torch.arange(channels, device=array.device, dtype=torch.int64) * num_bins
    step = 1 << 16
    for i in range(0, length, step):
        idx = (array[i:i + step].to(torch.int64) + offs).flatten()
        counts += torch.bincount(idx, minlength=channels * num_bins)
    return counts.view(channels, num_bins).double()


def build(path):
    f = FAM.entry(path)

    def fn(array, num_bins):
        with torch.no_grad():
            return f((array, num_bins))
    return fn
