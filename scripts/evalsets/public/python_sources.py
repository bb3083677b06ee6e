"""Evaluation set (b)'s Python sources: provenance headers, the Triton libraries' helper
modules vendored under `_vendor/` (Liger-Kernel, FlagGems, unsloth) and writing files."""

import ast
import os

from setkit import SetText, write  # noqa: F401  (write: the builder's, re-exported)

SET_B = SetText("Evaluation set (b)", "scripts/evalsets/public/build.py",
                os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters"))
py_header = SET_B.py_header
ours_py = SET_B.ours_py


def with_py_header(text, hdr):
    """Puts the provenance comment after a module docstring / shebang-free first lines."""
    return hdr + "\n" + text


def vendor_liger(lg, out):
    root = os.path.join(out, "_vendor", "liger_kernel")
    os.makedirs(os.path.join(root, "ops"), exist_ok=True)
    note = ("# KFORECAST: package init left empty (the library's imports every op); "
            f"vendored from {lg.name}@{lg.commit}\n")
    write(os.path.join(root, "__init__.py"), note)
    write(os.path.join(root, "ops", "__init__.py"), note)
    write(os.path.join(root, "utils.py"), lg.show("src/liger_kernel/utils.py"))
    write(os.path.join(root, "ops", "utils.py"), lg.show("src/liger_kernel/ops/utils.py"))


def vendor_flaggems(fg, out):
    root = os.path.join(out, "_vendor")
    for p in fg.ls("src/flag_gems"):
        rel = p[len("src/"):]
        if "/csrc/" in p:
            continue
        dst = os.path.join(root, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(fg.git("show", f"{fg.commit}:{p}", binary=True))
    note = ("# KFORECAST: package init left empty (the library's imports and registers every op); "
            f"vendored from {fg.name}@{fg.commit}\n")
    for init in ("flag_gems/__init__.py", "flag_gems/ops/__init__.py", "flag_gems/fused/__init__.py"):
        write(os.path.join(root, init), note)


UNSLOTH_UTILS = "unsloth/kernels/utils.py"


def vendor_unsloth(us, out):
    """unsloth's kernels import `.utils`, which pulls in bitsandbytes and unsloth_zoo; the
    few helpers the kept kernels use are cut verbatim from it into one module."""
    src = us.show(UNSLOTH_UTILS)
    tree = ast.parse(src)
    keep = []
    for node in tree.body:
        names = []
        if isinstance(node, (ast.FunctionDef, ast.AnnAssign, ast.Assign)):
            if isinstance(node, ast.FunctionDef):
                names = [node.name]
            elif isinstance(node, ast.AnnAssign):
                names = [getattr(node.target, "id", "")]
            else:
                names = [getattr(t, "id", "") for t in node.targets]
        if set(names) & {"MAX_FUSED_SIZE", "next_power_of_2", "calculate_settings"}:
            keep.append(ast.get_source_segment(src, node))
    if len(keep) != 3:
        raise SystemExit("build.py: unsloth's utils.py changed upstream; update the builder")
    text = (f"# KFORECAST: helpers of {us.name}@{us.commit}:{UNSLOTH_UTILS} that the kernels of the\n"
            "# set use, cut verbatim (the module itself needs bitsandbytes and unsloth_zoo).\n"
            "import torch\nimport triton\nfrom triton.language.extra import libdevice\n\n"
            + "\n\n".join(keep) + "\n\n"
            "# KFORECAST: as utils.py sets them for CUDA with Triton >= 3\n"
            "triton_tanh = libdevice.tanh\ntorch_gpu_device = torch.cuda.device\n")
    write(os.path.join(out, "_vendor", "unsloth_kernels_utils.py"), text)


def unsloth_program(us, path):
    text = us.show(path)
    if "from .utils import" not in text:
        raise SystemExit(f"build.py: {path} has no `from .utils import`; update the builder")
    new = text.replace("from .utils import", "from unsloth_kernels_utils import", 1)
    return py_header(us, path, "KFORECAST: the one change is `from .utils import` -> `from unsloth_kernels_utils import`.") + new

