"""Compile-time errors of plait.jit; each message carries file:line:col, the
source line and a caret under the offending expression."""

from __future__ import annotations

__all__ = ["CompileError", "TypingError", "UnsupportedError"]


class CompileError(Exception):
    """A function could not be compiled."""


class TypingError(CompileError):
    """Types that compiled code cannot reconcile (e.g. int on one path and a
    tuple on another), or an operation invalid for its operand types."""


class UnsupportedError(CompileError):
    """Syntax, a call or a value outside plait.jit's language subset."""
