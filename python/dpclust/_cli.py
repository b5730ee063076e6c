"""The ``dpclust`` console command of an installed package (``pip install .``): runs the C++ ``dpclust``
binary installed with it (dpclust/bin/dpclust) with the same arguments. A config naming a Python method is
handed back to this interpreter (``python3 -m dpclust``, through DPCLUST_PYTHON)."""
from __future__ import annotations

import os
import sys
from typing import List, Optional


def binary() -> str:
    """Path of the ``dpclust`` binary installed in the package (a build tree has it in BUILD/experiments)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "dpclust")


def main(argv: Optional[List[str]] = None) -> int:
    """Replaces this process with the binary (exit code and output are the binary's)."""
    path = binary()
    if not os.access(path, os.X_OK):
        print(f"dpclust: the binary {path} is missing: this package was not installed with `pip install .` "
              "(in a build tree, run BUILD/experiments/dpclust)", file=sys.stderr)
        return 2
    args = sys.argv[1:] if argv is None else list(argv)
    os.environ.setdefault("DPCLUST_PYTHON", sys.executable)  # `method: python` configs run with this interpreter
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, [path, *args])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
