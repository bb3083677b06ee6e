"""Helpers shared by the adapters of evaluation set public27 (kforecast's own code, copied
into the set's root by scripts/evalsets/public27/pub27.py).

- `vendor()`: puts the set's `_vendor/` (each xformers commit's own files) on sys.path;
- `load(path)`: progbuild's `load_program` after `vendor()`.
"""

import os
import sys

SET_ROOT = os.path.dirname(os.path.abspath(__file__))


def vendor():
    v = os.path.join(SET_ROOT, "_vendor")
    if v not in sys.path:
        sys.path.insert(0, v)


def load(path):
    vendor()
    from progbuild import load_program

    return load_program(path)
