"""Helpers shared by the adapters of evaluation set public33 (kforecast's own code, copied
into the set's root by scripts/evalsets/public33/pub33.py).

ServiceNow/Fast-LLM's Triton modules import a few names from their package (fast_llm.*),
whose configuration machinery (pydantic-style config classes, distributed engine) is far
larger than the kernels. `install_fast_llm_stub()` puts a minimal stand-in package into
sys.modules (KFORECAST glue, ours): the names the kernel modules import, with the library's
own values (TritonConfig's POINTWISE_BLOCK_SIZE 1024 and MAX_BLOCK_SIZE_BYTES 65536, the same
at every commit used), `triton_jit()` / `triton_autotune()` as the library's try_decorate
wrappers of triton.jit / triton.autotune, `tl_arange = tl.arange` etc. as at HEAD on a GPU,
`param_get_and_unset_is_zero` answering True (no gradient accumulation), and
`wrap_forward_backward` (autograd wrapper, unused here) returning its forward.

- `load(path)`: progbuild's `load_program` (each version imported as a fresh module);
- `gen(seed)`: a CUDA torch.Generator seeded with `seed`;
- `norm_adapter(has_bias)`: (make_inputs, reference, build) of the normalisation families;
- `loss_build(path)`: build() of the cross-entropy families (outputs (mean loss, grad_logits)).
"""

import enum
import sys
import types

import torch


def _module(name, **attrs):
    mod = sys.modules.get(name)
    if mod is None:
        mod = types.ModuleType(name)
        mod.__path__ = []  # a package, so that submodules import
        sys.modules[name] = mod
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, mod)
    for k, v in attrs.items():
        setattr(mod, k, v)
    return mod


def install_fast_llm_stub():
    if getattr(sys.modules.get("fast_llm"), "_kf_stub", False):
        return
    import triton
    import triton.language as tl

    def div(x, y):
        assert x % y == 0, (x, y)
        return x // y

    class Assert:
        @staticmethod
        def eq(x, *args, msg=None):
            for a in args:
                assert x == a, (x, a, msg)

        @staticmethod
        def geq(x, y):
            assert x >= y, (x, y)

        @staticmethod
        def leq(x, y):
            assert x <= y, (x, y)

        @staticmethod
        def incl(x, c):
            assert x in c, (x, c)

    def try_decorate(get_decorator, _return_decorator=True):
        def new_decorator(*args, **kwargs):
            out = get_decorator()(*args, **kwargs)
            if _return_decorator:
                return try_decorate(lambda: out, _return_decorator=False)
            return out
        return new_decorator

    def wrap_forward_backward(forward, backward):
        return forward

    def reduce_losses(losses, divisor=None, mask=None):
        if mask is not None:
            losses = losses * mask
        return losses.mean() if divisor is None else losses.sum() / divisor

    class TritonConfig:
        TRITON_ENABLED = True
        TRITON_LINEAR = False
        POINTWISE_BLOCK_SIZE = 1024
        MAX_BLOCK_SIZE_BYTES = 65536
        DTYPE_MAP = {torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16,
                     torch.int16: tl.int16, torch.int32: tl.int32, torch.int64: tl.int64}

    class EntropyLossType(str, enum.Enum):
        cross_entropy = "cross_entropy"
        forward_kl = "forward_kl"
        reverse_kl = "reverse_kl"

    class TargetFormat(str, enum.Enum):
        labels = "labels"
        logits = "logits"
        probabilities = "probabilities"

    _module("fast_llm", _kf_stub=True)
    _module("fast_llm.utils", div=div, Assert=Assert, try_decorate=try_decorate)
    _module("fast_llm.tensor", param_get_and_unset_is_zero=lambda param: True)
    _module("fast_llm.functional")
    _module("fast_llm.functional.autograd", wrap_forward_backward=wrap_forward_backward)
    _module("fast_llm.functional.utils", wrap_forward_backward=wrap_forward_backward, reduce_losses=reduce_losses)
    _module("fast_llm.functional.config", TritonConfig=TritonConfig, EntropyLossType=EntropyLossType,
            TargetFormat=TargetFormat)
    _module("fast_llm.functional.triton", triton=triton, tl=tl, tl_constexpr=tl.constexpr,
            tl_arange=tl.arange, tl_full=tl.full, tl_zeros=tl.zeros,
            triton_jit=try_decorate(lambda: triton.jit), triton_autotune=try_decorate(lambda: triton.autotune),
            TritonConfig=triton.Config, triton_available=True, triton_interpret=False)


def load(path):
    install_fast_llm_stub()
    from progbuild import load_program

    return load_program(path)


def gen(seed):
    return torch.Generator(device="cuda").manual_seed(int(seed) % (1 << 62))


# ---- normalisation: forward then backward in training mode, x float32 (8192, 4096)
NORM_ROWS, NORM_COLS, NORM_EPS = 8192, 4096, 1e-5
NORM_TOL = {"rtol": 2e-3, "atol": 2e-3}


def norm_adapter(has_bias):
    def make_inputs(seed):
        g = gen(seed)
        x = torch.randn(NORM_ROWS, NORM_COLS, device="cuda", generator=g)
        w = 0.5 + torch.rand(NORM_COLS, device="cuda", generator=g)
        b = torch.randn(NORM_COLS, device="cuda", generator=g) if has_bias else None
        go = torch.randn(NORM_ROWS, NORM_COLS, device="cuda", generator=g)
        return x, w, b, go

    def reference(x, w, b, go):
        x = x.double().requires_grad_(True)
        w = w.double().requires_grad_(True)
        b = b.double().requires_grad_(True) if b is not None else None
        xc = x - x.mean(dim=-1, keepdim=True) if b is not None else x
        y = xc * torch.rsqrt((xc * xc).mean(dim=-1, keepdim=True) + NORM_EPS) * w
        if b is not None:
            y = y + b
        grads = torch.autograd.grad(y, [x, w] + ([b] if b is not None else []), go.double())
        return (y.detach(),) + tuple(grads)

    def build(path):
        f = load(path).kf_entry

        def fn(x, w, b, go):
            # Fast-LLM's parameters carry a grad_buffer and requires_grad
            w = w.detach().requires_grad_(True)
            w.grad_buffer = torch.empty_like(w)
            if b is not None:
                b = b.detach().requires_grad_(True)
                b.grad_buffer = torch.empty_like(b)
            y, gi = f(x, w, b, go, NORM_EPS)
            return (y, gi, w.grad_buffer) + ((b.grad_buffer,) if b is not None else ())
        return fn
    return make_inputs, reference, build


# ---- cross-entropy: bf16 logits (2048, 32000), grad_output 1.0
LOSS_ROWS, LOSS_VOCAB = 2048, 32000
LOSS_TOL = {"rtol": 2e-2, "atol": 1e-9}


def loss_build(path):
    f = load(path).kf_entry

    def fn(logits, target):
        loss, grad = f(logits, target)
        return loss, grad
    return fn
