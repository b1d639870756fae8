"""Run by `make test-wheel` with the interpreter of a fresh virtual
environment where only the built wheel (and NumPy) is installed, from a
folder outside the source tree: the installed package works on its own."""

import math
import os
import pickle
import subprocess
import sys
import tempfile

import numpy as np

import plait

# The installed package, not the source or build tree's.
assert os.path.abspath(plait.__file__).startswith(os.path.abspath(sys.prefix)), plait.__file__
assert "site-packages" in plait.__file__, plait.__file__


@plait.jit
def norm(a):
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * a[i]
    return math.sqrt(total)


a = np.arange(10.0)
assert norm(a) == math.sqrt(float(np.dot(a, a)))
assert pickle.loads(pickle.dumps(norm))(a) == norm(a)

with tempfile.TemporaryDirectory() as cache:
    env = dict(os.environ, PLAIT_CACHE_DIR=cache)
    program = (
        "import plait\n@plait.jit(cache=True)\ndef f(n):\n    t = 0\n    for i in range(n):\n        t += i\n"
        "    return t\nprint(f(10), plait.stats()['compilations'])"
    )
    runs = [subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env, check=True).stdout.split()
            for _ in range(2)]
    assert runs == [["45", "1"], ["45", "0"]], runs

# The dialect classes generated at build time are installed with the package.
from plait import ir  # noqa: E402
from plait.dialects import arith, func  # noqa: E402
from plait.execution_engine import ExecutionEngine  # noqa: E402
from plait.passmanager import LOWER_TO_LLVM  # noqa: E402

with ir.Context(), ir.Location.unknown():
    module = ir.Module.create()
    f64 = ir.F64Type.get()
    with ir.InsertionPoint(module.body):
        func.FuncOp.from_py_func(f64, name="twice")(lambda x: arith.AddFOp(x, x))
    assert ExecutionEngine(module, pipeline=LOWER_TO_LLVM).invoke("twice", 1.5) == 3.0

info = subprocess.run([sys.executable, "-m", "plait", "--version", "--info"], capture_output=True, text=True, check=True)
print(info.stdout)
free_threaded = bool(__import__("sysconfig").get_config_var("Py_GIL_DISABLED"))
if free_threaded:
    assert not sys._is_gil_enabled(), "the wheel's module must not enable the GIL"
print("wheel smoke test passed")
