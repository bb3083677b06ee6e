"""Cutting public sources into one-version program files for public set 5 (kforecast's own
code). C++ cutting reuses scripts/evalsets/public/cpp_cut.py; Python cutting replaces the
Triton kernels a version does not use by a marked `NAME = None`."""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))
from cpp_cut import cut_function, match_brace  # noqa: E402
from setkit import SetText  # noqa: E402


TEXT = SetText("Public evaluation set 5", "scripts/evalsets/public5/pub5.py",
               os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters"))
c_header = TEXT.header


def py_header(repo, paths, what):
    return TEXT.header(repo, paths, what, comment="#")


TYPE_LINE = re.compile(r"(?m)^(?=[ \t]*\S)[ \t]*(?:template[ \t]*<[^>\n]*>[ \t]*)?"
                       r"(?:(?:__global__|__device__|static|inline)[ \t]*)*"
                       r"(?:(?:void|int|float|double|real)[ \t]*)?\n\Z")


def cut_fn(text, name):
    """cut_function, with the return type when the source writes it on the line above
    (`__global__ void` / `name(...)`)."""
    body = cut_function(text, name, with_comment=False)
    i = text.index(body.rstrip("\n"))
    m = TYPE_LINE.search(text[:i])
    return (m.group(0) if m else "") + body


def drop_function(text, name, nth=0):
    """The text less the definition of `name` (its leading comment, and its return type
    when that stands on the line above)."""
    body = cut_function(text, name, with_comment=True, nth=nth).rstrip("\n")
    i = text.index(body)
    m = TYPE_LINE.search(text[:i])
    if m:
        i = m.start()
        body = text[i:text.index(body, i) + len(body)]
    return text[:i] + text[i + len(body):]


def drop_prototype(text, name):
    """The text less a one-line declaration `... name(...);`."""
    return re.sub(r"(?m)^[^\n;{}]*\b" + re.escape(name) + r"\s*\([^;{]*\);[ \t]*\n", "", text)


def inline_include(text, include, body, where):
    line = f'#include "{include}"'
    if line not in text:
        raise SystemExit(f"pub5.py: {include} is not included any more; update the builder")
    return text.replace(line, f"// KFORECAST: {include} of {where}, inlined\n{body.rstrip()}\n"
                              f"// KFORECAST: end of {include}", 1)


def cut_switch(text, func, keep):
    """In function `func`, the `switch` cut to its `case keep:` (the other cases and the
    default dropped)."""
    f = cut_function(text, func, with_comment=False).rstrip("\n")
    s = f.index("switch")
    o = f.index("{", s)
    c = match_brace(f, o)
    body = f[o + 1:c - 1]
    pieces = re.split(r"(?m)^(\s*(?:case \d+|default)\s*:[ \t]*\n)", body)
    kept = [pieces[i] + pieces[i + 1] for i in range(1, len(pieces), 2) if re.search(rf"case {keep}\b", pieces[i])]
    if len(kept) != 1:
        raise SystemExit(f"pub5.py: no case {keep} in {func}; update the builder")
    indent = re.search(r"([ \t]*)switch", f).group(1)
    new = f[:o + 1] + "\n" + kept[0].rstrip() + "\n" + indent + "}" + f[c:]
    return text.replace(f, new, 1)


def squeeze_blank_lines(text):
    return re.sub(r"\n{4,}", "\n\n\n", text)


def py_jit_span(text, name):
    """(start, end) of the decorated top-level Triton function `name`."""
    m = re.search(r"(?m)^((?:@[^\n]*\n(?:[ \t]+[^\n]*\n|\)[^\n]*\n)*)+)def " + re.escape(name) + r"\(", text)
    if not m:
        raise SystemExit(f"pub5.py: no Triton function {name}; update the builder")
    after = text.index("\n", m.end()) + 1
    nxt = re.compile(r"(?m)^(?:@|def |class |[A-Za-z_])").search(text, after)
    end = nxt.start() if nxt else len(text)
    return m.start(), end


def py_keep_kernels(text, all_kernels, keep):
    """The module with every Triton kernel of `all_kernels` but `keep` replaced by a marked
    `NAME = None` (the module's wrappers still name them)."""
    for k in all_kernels:
        if k in keep:
            continue
        s, e = py_jit_span(text, k)
        text = text[:s] + f"{k} = None  # KFORECAST: kernel left out of this version (one kernel a version)\n\n\n" + text[e:]
    return text
