"""python -m referee simulate SYSTEM --battle FILE ...: the Dask side of
`referee <system> simulate --scheduler` (referee.simulation), with the same
options and files."""

import sys

from .simulation import _main

if len(sys.argv) < 2 or sys.argv[1] != "simulate":
    print("usage: python -m referee simulate SYSTEM --battle FILE [options] (--help for them)", file=sys.stderr)
    sys.exit(2)
sys.exit(_main(sys.argv[2:]))
