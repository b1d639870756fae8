"""lit configuration: .mlir files run plait-opt, .py files print what
plait.jit emits; both are checked with FileCheck (LLVM's)."""

import os

import lit.formats

config.name = "plait"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.plait_binary_dir, "tests", "lit")

config.environment["PATH"] = os.pathsep.join(
    [os.path.join(config.plait_binary_dir, "bin"), config.llvm_tools_dir, os.environ.get("PATH", "")]
)
config.environment["PYTHONPATH"] = os.path.join(config.plait_binary_dir, "python")
config.substitutions.append(("%python", config.python_executable))
# The memref-to-LLVM conversion was renamed in LLVM 17 (as in LLVMCompat.h).
config.substitutions.append(
    ("%memref-to-llvm", "finalize-memref-to-llvm" if config.llvm_version_major >= 17 else "convert-memref-to-llvm")
)
