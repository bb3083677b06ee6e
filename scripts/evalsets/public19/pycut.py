"""Cutting Python sources into one-kernel programs (set public19's builder helpers).

A Triton version is: the source operator's plain imports, the kernel module's prelude
(imports, constants), one kernel verbatim with its decorators, the source's own host
function for it (an `if FLAG:` that picks between kernels cut to this kernel's branch,
marked), and a small entry point marked as ours.
"""

import ast
import textwrap


def parse(src):
    return ast.parse(src)


def lines(src, a, b):
    """Source lines a..b (1-based, inclusive)."""
    return "\n".join(src.splitlines()[a - 1:b]) + "\n"


def node_text(src, node, decorators=True):
    start = node.decorator_list[0].lineno if (decorators and getattr(node, "decorator_list", None)) else node.lineno
    return lines(src, start, node.end_lineno)


def top(src, name):
    for node in ast.parse(src).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            return node
    raise SystemExit(f"pycut: no top-level {name} (the source changed upstream; update the builder)")


def method(src, cls, name):
    for node in top(src, cls).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise SystemExit(f"pycut: no method {cls}.{name} (the source changed upstream; update the builder)")


def method_text(src, cls, name):
    """A class's method as a module-level function (its decorator dropped, dedented)."""
    node = method(src, cls, name)
    return textwrap.dedent(lines(src, node.lineno, node.end_lineno))


def prelude(src, skip_from=()):
    """The module's top-level statements other than functions and classes, verbatim
    (docstring, imports, constants), less `from X import` lines whose module starts with
    one of `skip_from` (relative imports always skipped)."""
    out = []
    for node in ast.parse(src).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.ImportFrom) and (node.level or any(
                (node.module or "").startswith(s) for s in skip_from)):
            continue
        out.append(lines(src, node.lineno, node.end_lineno))
    return "".join(out)


def plain_imports(src):
    """`import X` statements of a module (not `from` imports), verbatim."""
    return "".join(lines(src, n.lineno, n.end_lineno) for n in ast.parse(src).body if isinstance(n, ast.Import))


def cut_branch(src, func_name, flag, keep_true):
    """The top-level function `func_name` with its `if <flag>:` statement (`flag`: the
    test's source text) replaced by the body of the branch kept (dedented), marked."""
    fn = top(src, func_name)
    text_lines = src.splitlines()
    for node in ast.walk(fn):
        if isinstance(node, ast.If) and ast.get_source_segment(src, node.test) == flag:
            body = node.body if keep_true else node.orelse
            indent = " " * node.col_offset
            kept = textwrap.indent(textwrap.dedent(lines(src, body[0].lineno, body[-1].end_lineno)), indent)
            mark = (f"{indent}# KFORECAST: the source's `if {flag}: ... else: ...` cut to this kernel's "
                    f"({'if' if keep_true else 'else'}) branch\n")
            before = "\n".join(text_lines[fn.lineno - 1:node.lineno - 1]) + "\n"
            after = "\n".join(text_lines[node.end_lineno:fn.end_lineno]) + "\n"
            return before + mark + kept + after
    raise SystemExit(f"pycut: {func_name} has no `if {flag}:` (the source changed upstream)")
