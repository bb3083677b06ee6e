"""arrzhev/cuda-kernels for public14: one torch extension per upstream commit.

The source is a CMake project (kernels/ with the CUDA kernels and their headers, a torch API
layer with one `.cu` per op, and one pybind11 binder for all ops). A version is the op's torch
API file at one commit with the project's own headers inlined where included (util.cuh,
<op>.cuh, <op>Torch.hpp, common.cuh), the op's kernel file appended (as CMake links it), and a
PYBIND11_MODULE holding the binder's own `m.def` line for the op (marked KFORECAST): one
self-contained torch extension `.cu`, built by the adapter with torch's `load` and C++20 as
the project's CMakeLists says. Commits whose assembled program is identical are one version.
"""

import re

MARK = "// KFORECAST:"
ROOTS = ("kernels/", "kernelsAPIs/")


class Assembler:
    def __init__(self, repo, commit):
        self.repo = repo
        self.commit = commit
        self.tree = [p for p in repo.git("ls-tree", "-r", "--name-only", commit).split("\n") if p.startswith(ROOTS)]
        self.done = set()

    def find(self, name, near):
        base = name.split("/")[-1]
        hits = [p for p in self.tree if p.split("/")[-1] == base]
        if not hits:
            return None
        same = [p for p in hits if p.rsplit("/", 1)[0] == near.rsplit("/", 1)[0]]
        return (same or hits)[0]

    def inline(self, path):
        self.done.add(path)
        out = []
        for line in self.repo.show(path, self.commit).split("\n"):
            m = re.match(r'\s*#include\s*[<"]([^">]+)[">]', line)
            hit = self.find(m.group(1), path) if m else None
            if hit is None:
                out.append(line)
            elif hit in self.done:
                out.append(f"{MARK} {line.strip()} (already inlined above)")
            else:
                out.append(f"{MARK} {line.strip()} inlined from {hit}:")
                out.append(self.inline(hit))
                out.append(f"{MARK} end of {hit}")
        return "\n".join(out)

    def program(self, api_name, kernel_name, binder_name):
        api = self.find(api_name, "kernelsAPIs/torchAPI/src/x") or self.find(api_name, "kernels/torchAPI/x")
        kern = self.find(kernel_name, "kernels/src/x")
        binder = self.find("binder.cpp", "kernelsAPIs/torchAPI/python/x")
        if api is None or kern is None or binder is None:
            return None, None
        text = self.inline(api)
        text += f"\n\n{MARK} the kernels' translation unit {kern}, linked by the project's CMake, appended:\n"
        text += self.inline(kern)
        defs = [ln.strip() for ln in self.repo.show(binder, self.commit).split("\n")
                if re.search(r'm\.def\("' + re.escape(binder_name) + r'"', ln)]
        if not defs:
            return None, None
        line, note = defs[0], ""
        fname = re.search(r"&(\w+)", line).group(1)
        if re.search(r"__device__[^;{]*\b" + fname + r"\s*\(", text):
            # in the source the binder is a translation unit of its own that sees only the torch
            # function; here the kernels' __device__ overloads of the same name are visible too
            decl = re.search(r"torch::Tensor\s+" + fname + r"\s*\(([^)]*)\)\s*;", text)
            types = ", ".join(re.sub(r"\s+\w+\s*$", "", a.strip()) for a in decl.group(1).split(","))
            line = line.replace(f"&{fname}", f"static_cast<torch::Tensor (*)({types})>(&{fname})")
            note = (f"\n{MARK} &{fname} cast to the torch function's type: the kernels' __device__ {fname}"
                    f" overloads share this file (in the source the binder is a file of its own)")
        text += (f"\n\n{MARK} binding: the `m.def` line of {binder}, in a module named by torch's load{note}\n"
                 f"#include <torch/extension.h>\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m)\n{{\n    {line}\n}}\n")
        return text, [api, kern, binder]


def history(repo, api_name, kernel_name, binder_name, globs):
    """[(commit, program text, paths)] oldest first, one per distinct assembled program."""
    commits = repo.git("log", "--format=%H", repo.commit, "--", *globs).split()[::-1]
    seen, out = set(), []
    for c in commits:
        text, paths = Assembler(repo, c).program(api_name, kernel_name, binder_name)
        if text is None or text in seen:
            continue
        seen.add(text)
        out.append((c, text, paths))
    return out
