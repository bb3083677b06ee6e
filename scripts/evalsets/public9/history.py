"""Evaluation set public9's sources: one library module followed through its upstream
history, a version per commit that changed the module's code (kforecast's own code).

A version is the module verbatim at that commit. Where it imports a helper module of its
own package (`from .utils import ...`), the helper is vendored at the same commit under
`_vendor/` with a name of its own, and the import line is pointed at it (the one change,
marked KFORECAST); where it imports a few functions of a package module by absolute name
(CUT_HELPERS), those functions are cut verbatim at the same commit into such a module. Commits whose module differs from the previous kept one only in
comments, docstrings, formatting or the module's own test/benchmark functions are the
same program and are left out; so are the module's versions past `cap` (kept: the oldest,
the newest and evenly spaced ones between, by position in the history alone).
"""

import ast
import os
import re

from setkit import write

REL_IMPORT = re.compile(r"^from \.(\w+) import ", re.M)
ABS_IMPORT = re.compile(r"^from ([\w.]+) import ([\w, ]+)$", re.M)
# Package helpers imported by absolute name whose modules pull in the rest of their package
# (logging setup, ...): the imported functions are cut verbatim into a module of their own,
# after the imports they need (given here).
CUT_HELPERS = {"lightllm.utils.device_utils": "import torch\nfrom functools import lru_cache\n"}


def _strip(tree):
    """The module without docstrings, `test_*`/`torch_*`/`benchmark*` functions and
    `if __name__ == "__main__"` blocks (what runs when an op is called is what is left)."""

    def keep(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.name.startswith(("test_", "torch_", "benchmark", "_test"))):
            return False
        if isinstance(node, ast.If) and "__main__" in ast.dump(node.test):
            return False
        if isinstance(node, ast.Expr) and isinstance(getattr(node, "value", None), ast.Constant) \
                and isinstance(node.value.value, str):
            return False
        return True

    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            seq = getattr(node, field, None)
            if isinstance(seq, list):
                kept = [n for n in seq if keep(n)]
                setattr(node, field, kept or [ast.Pass()])
    return ast.dump(tree, include_attributes=False)


def code_key(text):
    try:
        return _strip(ast.parse(text))
    except SyntaxError:
        return text


def revisions(repo, path):
    """[(commit, text)] of every commit that changed `path`, oldest first, one per
    distinct program (see the module docstring)."""
    out, seen = [], set()
    for c in repo.commits([path]):
        if not repo.has(c, path):
            continue
        text = repo.show(path, c)
        key = code_key(text)
        if key in seen:  # unchanged, or a revert to a program already kept
            continue
        out.append((c, text))
        seen.add(key)
    return out


def spread(items, cap):
    """At most `cap` of `items`: the first, the last and evenly spaced ones between."""
    n = len(items)
    if n <= cap:
        return list(items)
    idx = sorted({round(i * (n - 1) / (cap - 1)) for i in range(cap)})
    return [items[i] for i in idx]


class History:
    """Writes one family's version files from a module's history."""

    def __init__(self, st, repo, path, out, short):
        self.st, self.repo, self.path, self.out, self.short = st, repo, path, out, short

    def vendor_helpers(self, commit, text):
        """Vendors the module's relative imports at `commit`; returns the text with its
        import lines pointed at the vendored copies."""
        pkg = os.path.dirname(self.path)

        def fix(m):
            helper = m.group(1)
            src_path = f"{pkg}/{helper}.py"
            if not self.repo.has(commit, src_path):
                raise SystemExit(f"pub9.py: {self.repo.name}@{commit[:12]} has no {src_path}")
            src = self.repo.show(src_path, commit)
            if REL_IMPORT.search(src):
                raise SystemExit(f"pub9.py: {src_path}@{commit[:12]} has relative imports of its own")
            mod = f"p9_{self.short}_{commit[:12]}_{helper}"
            write(os.path.join(self.out, "_vendor", f"{mod}.py"),
                  f"# KFORECAST: {self.repo.name} at commit {commit}: {src_path}, verbatim\n" + src)
            return (f"# KFORECAST: was `from .{helper} import` (the helper vendored at this commit)\n"
                    f"from {mod} import ")

        def cut(m):
            modname, names = m.group(1), [n.strip() for n in m.group(2).split(",") if n.strip()]
            if modname not in CUT_HELPERS:
                return m.group(0)
            src_path = modname.replace(".", "/") + ".py"
            src = self.repo.show(src_path, commit)
            tree = ast.parse(src)
            found = {n.name: ast.get_source_segment(src, n) for n in tree.body
                     if isinstance(n, ast.FunctionDef) and n.name in names}
            if set(found) != set(names):
                raise SystemExit(f"pub9.py: {src_path}@{commit[:12]} lacks {set(names) - set(found)}")
            decorated = []
            for n in tree.body:
                if isinstance(n, ast.FunctionDef) and n.name in names:
                    decos = "".join(f"@{ast.get_source_segment(src, d)}\n" for d in n.decorator_list)
                    decorated.append(decos + found[n.name])
            mod = f"p9_{self.short}_{commit[:12]}_{modname.split('.')[-1]}"
            write(os.path.join(self.out, "_vendor", f"{mod}.py"),
                  f"# KFORECAST: {', '.join(names)} of {self.repo.name} at commit {commit}: {src_path}, cut\n"
                  f"# verbatim (the module itself imports the rest of its package); the imports are ours.\n"
                  + CUT_HELPERS[modname] + "\n\n" + "\n\n\n".join(decorated) + "\n")
            return (f"# KFORECAST: was `from {modname} import` (the helper cut at this commit)\n"
                    f"from {mod} import {', '.join(names)}")

        return ABS_IMPORT.sub(cut, REL_IMPORT.sub(fix, text))

    def versions(self, cap):
        """[(file name, text)] of the family, oldest (the reference) first."""
        revs = spread(revisions(self.repo, self.path), cap)
        files = []
        for i, (c, text) in enumerate(revs):
            date = self.repo.git("log", "-1", "--format=%ad", "--date=short", c).strip()
            subject = self.repo.git("log", "-1", "--format=%s", c).strip()
            hdr = self.st.py_line_header(self.repo.name, c, self.path,
                                         f"Committed {date}: {subject[:90]}")
            body = self.vendor_helpers(c, text)
            note = ("# Verbatim, except where a line says KFORECAST.\n" if body != text else "# Verbatim.\n")
            base = os.path.splitext(os.path.basename(self.path))[0]
            files.append((f"v{i}_{c[:10]}_{base}.py", hdr + note + "\n" + body))
        return files, revs
