"""python -m plait [--version] [--info]: plait's version, and what it runs on."""

from __future__ import annotations

import argparse
import platform
import sys
import sysconfig


def info() -> dict[str, object]:
    import plait
    from plait._core import jit as native

    host = native._host_target()
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    return {
        "plait": plait.__version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}"
        + (" (free-threaded)" if free_threaded else ""),
        "gil": "enabled" if getattr(sys, "_is_gil_enabled", lambda: True)() else "disabled",
        "llvm": host["llvm_version"],
        "target": host["triple"],
        "cpu": host["cpu"],
        "cpu features": " ".join(host["features"]),
        "cache folder": plait.cache_info()["directory"],
        "thread pool": f"{plait.thread_pool_size()} threads",
        "blas": plait.blas_library() or "none (products use plain loops)",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m plait", description=__doc__)
    parser.add_argument("--version", action="store_true", help="print plait's version")
    parser.add_argument("--info", action="store_true", help="print the versions, target, cache and threads")
    options = parser.parse_args(argv)
    import plait

    if options.version or not options.info:
        print(f"plait {plait.__version__}")
    if options.info:
        for name, value in info().items():
            print(f"{name + ':':14} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
