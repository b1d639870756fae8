# The native module: its submodules (jit, ir, passmanager, execution_engine,
# testing) are typed where plait's Python modules wrap them.
from typing import Any

def __getattr__(name: str) -> Any: ...
