"""Functions whose source is not in a file: made by exec() or compile() (code
generators), typed after `python -c`, or typed into the interactive
interpreter. plait finds their text and compiles them like any other."""

from __future__ import annotations

import math
import os
import select
import subprocess
import sys
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plait

GENERATED = """
import math

def scaled_norm(x, y, scale):
    total = 0.0
    for i in range(3):
        total += math.hypot(x + i, y) * scale
    return total

def uses_helper(n):
    return helper(n) + 1

def helper(n):
    s = 0
    for i in range(n):
        s += i * i
    return s
"""


def generated(text: str, filename: str = "<string>") -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    if filename == "<string>":
        exec(text, namespace)
    else:
        exec(compile(text, filename, "exec"), namespace)
    return namespace


@settings(max_examples=40, deadline=None)
@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(-10, 10, allow_nan=False),
)
def test_a_function_made_by_exec_compiles(x: float, y: float, scale: float) -> None:
    namespace = generated(GENERATED)
    compiled = plait.jit(namespace["scaled_norm"])
    assert compiled(x, y, scale) == namespace["scaled_norm"](x, y, scale)


def test_functions_from_compile_with_a_name_and_their_callees() -> None:
    namespace = generated(GENERATED, "<generated kernel>")
    compiled = plait.jit(namespace["uses_helper"])
    for n in (0, 1, 10, 1000):
        assert compiled(n) == namespace["uses_helper"](n)
    # The callee, a plain function from the same text, was compiled with it.
    assert "helper" in compiled.inspect(stage="plait")


def test_the_same_name_for_many_texts_finds_each_ones_own() -> None:
    # Every exec(text) is "<string>": the text whose code is the function's
    # own is the one compiled, however many came after it.
    first = generated("def f(x):\n    return x * 2 + 1\n")["f"]
    later = [generated(f"def f(x):\n    return x * {k}\n")["f"] for k in range(3, 8)]
    assert plait.jit(first)(20) == 41
    assert [plait.jit(f)(2) for f in later] == [6, 8, 10, 12, 14]


def test_errors_in_generated_code_name_the_generated_line() -> None:
    bad = generated("def bad(x):\n    y = x + 1\n    return undefined_name\n", "<generated bad>")["bad"]
    with pytest.raises(plait.TypingError, match="<generated bad>:3.*name 'undefined_name' is not defined"):
        plait.jit(bad)(1)


def run_python(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run(
        [sys.executable, *arguments], input=stdin, capture_output=True, text=True, env=env, timeout=120
    )


def test_a_function_typed_after_python_dash_c() -> None:
    program = "import plait\ndef f(x, n):\n    for i in range(n):\n        x = x * 2 + i\n    return x\nprint(plait.jit(f)(3, 5))"
    result = run_python("-c", program)
    assert result.returncode == 0, result.stderr
    x = 3
    for i in range(5):
        x = x * 2 + i
    assert result.stdout.strip() == str(x)


def test_exec_before_import_says_how_to_make_it_work() -> None:
    program = (
        "ns = {}\nexec('def f(x):\\n    return x\\n', ns)\nimport plait\n"
        "try:\n    plait.jit(ns['f'])(1)\nexcept plait.CompileError as e:\n    print(e)\n"
    )
    result = run_python("-c", program)
    assert result.returncode == 0, result.stderr
    message = result.stdout
    assert "cannot compile f: its source code is not available" in message
    assert "import plait before running the code that defines it" in message
    assert "linecache.cache['<string>']" in message


def test_a_text_registered_with_linecache_is_read_from_there() -> None:
    import linecache

    text = "def triple(x):\n    return 3 * x\n"
    filename = "<registered by a test>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    try:
        namespace: dict[str, Any] = {}
        exec(compile(text, filename, "exec"), namespace)
        assert plait.jit(namespace["triple"])(14) == 42
    finally:
        del linecache.cache[filename]


def interactive_session(lines: list[str], timeout: float = 60.0) -> str:
    """Types `lines` into an interactive interpreter on a terminal (readline
    keeps the lines typed only when input is a terminal)."""
    pty = pytest.importorskip("pty")
    pytest.importorskip("readline")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), PYTHON_BASIC_REPL="1", TERM="dumb")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the interpreter
        os.execve(sys.executable, [sys.executable, "-q", "-i"], env)
    output = b""
    deadline = time.monotonic() + timeout

    def read_until(marker: bytes) -> None:
        nonlocal output
        while marker not in output and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    return
                if not chunk:
                    return
                output += chunk

    try:
        for line in lines:
            read_until(b">>> " if not output.endswith(b"... ") else b"... ")
            os.write(fd, line.encode() + b"\r")
        read_until(b"END-OF-SESSION")
    finally:
        os.write(fd, b"exit()\r")
        read_until(b"\x00never")
        os.waitpid(pid, 0)
    return output.decode(errors="replace")


def test_a_function_typed_into_the_interactive_interpreter() -> None:
    if sys.platform == "win32":
        pytest.skip("needs a terminal")
    output = interactive_session(
        [
            "import plait",
            "def f(x, n):",
            "    total = 0.0",
            "    for i in range(n):",
            "        total += x * i",
            "    return total",
            "",
            "print('RESULT', plait.jit(f)(1.5, 4))",
            "print('END-OF' + '-SESSION')",
        ]
    )
    assert "RESULT 9.0" in output, output


def test_builtin_math_stays_exact_in_generated_code() -> None:
    namespace = generated("import math\ndef g(x):\n    return math.exp(x) - math.expm1(x)\n")
    compiled = plait.jit(namespace["g"])
    for x in (0.0, 1e-10, 0.5, 3.0):
        assert compiled(x) == math.exp(x) - math.expm1(x)


def test_texts_differing_only_in_a_constant_type_are_told_apart() -> None:
    # (None, 1) == (None, 1.0) == (None, True): the constants' types count.
    template = "def kernel(x):\n    return x * {c!r} + {c!r}\n"
    kernels = [generated(template.format(c=c))["kernel"] for c in (1.0, 1, True)]
    for kernel in kernels:
        assert plait.jit(kernel)(10**17) == kernel(10**17)


def test_lines_are_counted_as_python_counts_them() -> None:
    # str.splitlines() also breaks at U+2028 and form feeds; Python does not.
    text = "# a comment \u2028 with \x0c breaks\ndef b(x):\n    return x * 100\ndef a(x):\n    return x + 1\n"
    namespace = generated(text, "<generated with separators>")
    assert plait.jit(namespace["a"])(2) == 3 and plait.jit(namespace["b"])(2) == 200


def test_options_before_dash_c_and_encoded_bytes() -> None:
    program = "import plait\ndef f(x):\n    return x * 2\nprint(plait.jit(f)(21))"
    for options in (["-W", "ignore"], ["-X", "dev"], ["-B", "-W", "error::DeprecationWarning"]):
        result = run_python(*options, "-c", program)
        assert result.returncode == 0 and result.stdout.strip() == "42", (options, result.stderr)
    latin = "# -*- coding: latin-1 -*-\ndef f(x):\n    s = 'caf\xe9'\n    return x + len(s)\n".encode("latin-1")
    namespace: dict[str, Any] = {}
    exec(compile(latin, "<latin-1 generated>", "exec"), namespace)
    assert plait.jit(namespace["f"])(1) == 5


def test_plaits_own_parsing_does_not_push_texts_out() -> None:
    import ast

    kernel = generated("def kernel(x):\n    return x + 1\n", "<kept while plait parses>")["kernel"]
    for i in range(600):  # as many as plait's snapshots parse
        ast.parse(f"def g{i}(x):\n    return x\n")
    assert plait.jit(kernel)(41) == 42
