"""Cutting the pubmix sources of the public2 evaluation set into one program per version.

- LeetCUDA (`kernels/<op>/<op>.cu`, a torch extension holding every variant of one op):
  a version keeps the file's text verbatim less the other variants: their `__global__`
  kernels, their binding functions or binding-macro instantiations, the `#define` launch
  and dispatch macros that name only them, `extern` declarations of ops defined in other
  files, and their `m.def` lines in the PYBIND11 module. What is left is the source's
  prelude (includes, helpers, device functions), the kept kernel and its binding, in the
  source's order.
- Triton tutorials (`python/tutorials/*.py`, a kernel, its launcher, then a test and a
  benchmark that run at import): a version is the module's text up to the test cell.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "public"))
from cpp_cut import leading_comment_start, match_brace  # noqa: E402
from setkit import SetText  # noqa: E402

TEXT = SetText("Evaluation set public2", "scripts/evalsets/public2/pubmix.py",
               os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters"))

KERNEL_RX = re.compile(r"^(template[ \t]*<[^;{]*?>\s*)?__global__\s+(?:__launch_bounds__\([^)]*\)\s*)?"
                       r"void\s+(\w+)\s*\(", re.M)
HOST_FN_RX = re.compile(r"^(?:void|torch::Tensor)\s+(\w+)\s*\([^;{]*\)\s*\{", re.M)
EXTERN_RX = re.compile(r"^extern\s+void\s*(\w+)\s*\([^;]*\);[ \t]*\n", re.M)
DEFINE_RX = re.compile(r"^#define[ \t]+(\w+)(?:[^\n]*\\\n)*[^\n]*\n", re.M)
INVOKE_RX = re.compile(r"^(TORCH_BINDING_(?!COMMON_EXTENSION)\w+)\(", re.M)
PYBIND_RX = re.compile(r"^PYBIND11_MODULE\(TORCH_EXTENSION_NAME, m\)\s*\{", re.M)
DEF_ENTRY_RX = re.compile(r"^[ \t]*(//[ \t]*)?TORCH_BINDING_COMMON_EXTENSION\(\s*(\w+)\s*\);?[ \t]*\n", re.M)


def _paren_end(text, open_idx):
    depth = 0
    for i in range(open_idx, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced parentheses")


def _line_end(text, i):
    j = text.find("\n", i)
    return len(text) if j < 0 else j + 1


def _norm(s):
    return re.sub(r"\s+", " ", s).strip()


def cut_leetcuda(src, kernels, op, invocation=None):
    """The program of one variant: `kernels` (names of the `__global__` functions it
    launches), `op` (its PYBIND11 name), `invocation` ((macro, leading args) of the
    binding-macro instantiation that defines `op`, when a macro does)."""
    spans = []  # (start, end) of text to drop
    removed = set()
    names = set()
    for m in KERNEL_RX.finditer(src):
        name = m.group(2)
        names.add(name)
        if name in kernels:
            continue
        end = match_brace(src, src.index("{", m.end()))
        spans.append((leading_comment_start(src, m.start()), _line_end(src, end)))
        removed.add(name)
    missing = set(kernels) - names
    if missing:
        raise SystemExit(f"pubmix: no kernel {sorted(missing)} in the source; update the builder")
    found_op = invocation is not None
    for m in HOST_FN_RX.finditer(src):
        name = m.group(1)
        if name == op:
            found_op = True
            continue
        end = match_brace(src, m.end() - 1)
        spans.append((leading_comment_start(src, m.start()), _line_end(src, end)))
        removed.add(name)
    if not found_op:
        raise SystemExit(f"pubmix: no binding function {op} in the source; update the builder")
    for m in EXTERN_RX.finditer(src):
        if m.group(1) != op:
            spans.append((leading_comment_start(src, m.start()), m.end()))
    kept_invocation = False
    for m in INVOKE_RX.finditer(src):
        end = _line_end(src, _paren_end(src, m.end() - 1))
        args = _norm(src[m.end():end])
        if invocation and m.group(1) == invocation[0] and args.startswith(_norm(invocation[1])):
            kept_invocation = True
            continue
        spans.append((leading_comment_start(src, m.start()), end))
    if invocation and not kept_invocation:
        raise SystemExit(f"pubmix: no instantiation {invocation} in the source; update the builder")
    # launch / dispatch macros that name only removed kernels (and macros built on them)
    defines = [(m.group(1), m.start(), m.end(), m.group(0)) for m in DEFINE_RX.finditer(src)]
    keep_names = set(kernels) | {op}
    dropped = set()
    changed = True
    while changed:
        changed = False
        for name, s, e, body in defines:
            if name in dropped:
                continue
            refs = set(re.findall(r"\b\w+\b", body[len("#define"):])) - {name}
            if refs & (removed | dropped) and not refs & keep_names:
                dropped.add(name)
                changed = True
    for name, s, e, _ in defines:
        if name in dropped:
            spans.append((leading_comment_start(src, s), e))
    # the PYBIND11 module: only this op's m.def
    pm = PYBIND_RX.search(src)
    if not pm:
        raise SystemExit("pubmix: no PYBIND11_MODULE in the source; update the builder")
    body_open = pm.end() - 1
    body_close = match_brace(src, body_open)
    body = src[body_open + 1:body_close - 1]
    entries = [e for e in DEF_ENTRY_RX.finditer(body) if not e.group(1) and e.group(2) == op]
    if len(entries) != 1:
        raise SystemExit(f"pubmix: {op} is bound {len(entries)} times in PYBIND11_MODULE; update the builder")
    spans.append((body_open + 1, body_close - 1))
    out, pos = [], 0
    for s, e in sorted(_merge(spans)):
        out.append(src[pos:s])
        if s == body_open + 1:
            out.append("\n" + entries[0].group(0))
        pos = e
    out.append(src[pos:])
    text = "".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text


def _merge(spans):
    spans = sorted(spans)
    merged = []
    for s, e in spans:
        if merged and s < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def leetcuda_header(repo, path, what):
    return TEXT.header(repo, [path], what, note="Code below is the source's, verbatim, less the other variants of "
                       "the op (their kernels,\nbindings, launch/dispatch macros and m.def lines).")


def cut_tutorial(src, stop_marker):
    """A Triton tutorial up to (not including) the cell that starts with `stop_marker`."""
    i = src.find(stop_marker)
    if i < 0:
        raise SystemExit(f"pubmix: tutorial has no {stop_marker!r}; update the builder")
    return src[:i].rstrip() + "\n"


py_header = TEXT.py_line_header


def ours_py(what, body):
    return TEXT.ours_py(what, body, kind="program")
