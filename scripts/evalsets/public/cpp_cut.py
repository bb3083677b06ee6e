"""Cutting C++ sources for evaluation set (b): a function by name (with its leading
comment), the text up to a definition, brace matching that skips comments and strings,
and the provenance header of a CUDA program file."""

import re


def match_brace(text, open_idx):
    """Index just past the brace that closes the one at open_idx (skips comments, strings)."""
    depth, i, n = 0, open_idx, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        if text.startswith("/*", i):
            i = text.find("*/", i) + 2
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


def leading_comment_start(text, start):
    """Moves `start` back over the comment lines right above it (the author's remarks)."""
    lines_before = text[:start].split("\n")
    k = len(lines_before) - 1  # the partial line where start sits
    j = k - 1
    in_block = False
    while j >= 0:
        s = lines_before[j].strip()
        if in_block:
            if s.startswith("/*"):
                in_block = False
            j -= 1
            continue
        if s.startswith("//"):
            j -= 1
        elif s.endswith("*/"):
            in_block = not s.startswith("/*") or s == "*/"
            if s.startswith("/*"):
                in_block = False
            j -= 1
        else:
            break
    return len("\n".join(lines_before[: j + 1])) + (1 if j >= 0 else 0)


def cut_function(text, name, with_comment=True, nth=0):
    """The nth definition of function/kernel `name` (templates included), with its comment."""
    rx = re.compile(r"^(template[ \t]*<[^;{]*?>\s*)?(extern[ \t]+\"C\"[ \t]+)?[\w:<> \t\*&]*?\b"
                    + re.escape(name) + r"\s*\([^;{]*\)\s*\{", re.M)
    for i, m in enumerate(rx.finditer(text)):
        if i < nth:
            continue
        s = m.start()
        end = match_brace(text, m.end() - 1)
        if with_comment:
            s = leading_comment_start(text, s)
        return text[s:end].strip("\n") + "\n"
    raise SystemExit(f"build.py: no definition of {name} found")


def strip_trailing_comments(text):
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r"(/\*(?:(?!\*/).)*\*/|//[^\n]*)\s*\Z", "", text.rstrip(), flags=re.S).rstrip()
    return text + "\n"


def prelude_of(src, start, first_def):
    """The source's text from `start` (its includes) up to the first definition kept
    apart, less the comments that belong to that definition."""
    cut = leading_comment_start(src, src.index(first_def))
    return strip_trailing_comments(src[src.index(start):cut])
