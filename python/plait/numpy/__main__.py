"""python -m plait.numpy [GUIDE]: prints the supported NumPy API as a
Markdown table, or rewrites the table in GUIDE (docs/jit-guide.md)."""

import sys

from . import api_table, write_api_table

if len(sys.argv) > 1:
    write_api_table(sys.argv[1])
else:
    sys.stdout.write(api_table())
