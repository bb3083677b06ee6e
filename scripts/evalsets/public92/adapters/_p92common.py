"""Helpers shared by the adapters of evaluation set public92 (kforecast's own code, copied into
the set's root by scripts/evalsets/public92/pub92.py; the same helper as public43's _p43common.py).

`Family(here)`: a CS149 asst5 family folder whose versions import the problem's `task` and
`utils` (copied beside them): `load(path)` imports a version with progbuild (the family folder
first on sys.path, another family's `task`/`utils` dropped from sys.modules), `ref()` is the
family's reference version (the problem's reference.py: `generate_input`, `ref_kernel`), and
`entry(path)` a version's `custom_kernel` (the reference version's `ref_kernel`).
"""

import os
import sys


class Family:
    def __init__(self, here):
        self.here = here
        self._ref = None

    def _on_path(self):
        if sys.path[0] != self.here:
            sys.path.insert(0, self.here)
        for m in ("task", "utils"):
            mod = sys.modules.get(m)
            if mod is not None and os.path.dirname(os.path.abspath(getattr(mod, "__file__", "") or "")) != self.here:
                del sys.modules[m]

    def load(self, path):
        self._on_path()
        from progbuild import load_program
        return load_program(path)

    def ref(self):
        if self._ref is None:
            self._ref = self.load(os.path.join(self.here, "v00_reference.py"))
        return self._ref

    def entry(self, path):
        mod = self.load(path)
        return getattr(mod, "custom_kernel", None) or mod.ref_kernel
