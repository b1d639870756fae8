"""Rewrites of a function's source the snapshot makes before typing, for
statements compiled code has no direct counterpart of.

`a.shape = s` changes the shape of the array object `a` names. When no
other name can hold that object (every assignment to `a` makes a new array:
NumPy's constructors and operations, subscripts, methods), that is
re-binding `a` to a view of the new shape (NumPy's errors when only a copy
could have it), which is what compiled code does:

    X.shape = Y.shape = n * m   ->   $shape = n * m
                                     X = __plait_set_shape__(X, $shape)
                                     Y = __plait_set_shape__(Y, $shape)

(the value evaluated once, the targets assigned left to right, as CPython
does). Otherwise the statement is left as it is, and compiling it reports
that attribute assignment is not supported."""

from __future__ import annotations

import ast
from typing import Iterator

#: The nodes that open a scope of their own.
SCOPE_NODES = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)


def scope_walk(nodes: list[ast.AST]) -> Iterator[ast.AST]:
    """The nodes of one scope: nested lambdas and defs are yielded, their
    insides are not (their defaults and decorators belong to this one)."""
    pending = list(nodes)
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, ast.Lambda):
            pending.extend(node.args.defaults)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            pending.extend(node.args.defaults + node.decorator_list)
        else:
            pending.extend(ast.iter_child_nodes(node))


def locate(node: ast.AST, at: ast.AST) -> None:
    """Gives `node` and the nodes in it that have no location `at`'s (a
    rewrite's nodes point at the source they stand for: carets,
    tracebacks)."""
    for part in ast.walk(node):
        if "lineno" in part._attributes and not hasattr(part, "lineno"):
            ast.copy_location(part, at)


#: NumPy functions that may return their argument itself.
_MAY_RETURN_INPUT = frozenset(
    ["asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "require", "atleast_1d",
     "atleast_2d", "atleast_3d", "asmatrix"]
)


def _copy_false(call: ast.Call) -> bool:
    return any(k.arg == "copy" and not (isinstance(k.value, ast.Constant) and k.value.value) for k in call.keywords)


def _fresh(value: ast.expr) -> bool:
    """Whether `value` makes an array object no other name holds: NumPy's
    constructors and operations, subscripts (views are objects of their
    own), methods (but astype(copy=False)), tuples of such."""
    if isinstance(value, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Subscript)):
        return True
    if isinstance(value, (ast.Tuple, ast.List)):
        return all(_fresh(e) for e in value.elts)
    if isinstance(value, ast.Attribute):
        return value.attr == "T"
    if isinstance(value, ast.Call):
        func = value.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("np", "numpy"):
            return func.attr not in _MAY_RETURN_INPUT and not (func.attr == "array" and _copy_false(value))
        if isinstance(func, ast.Attribute):  # a method: a.copy(), a.reshape(...)
            return not (func.attr == "astype" and _copy_false(value))
    return False


def _rewritable_names(definition: ast.FunctionDef, params: list[str]) -> set[str]:
    """Locals whose every assignment makes a fresh array (so `a.shape = s`
    changes nothing another name sees): not parameters, not loop, with or
    := targets, not assigned names, calls of other functions or choices."""
    fresh: set[str] = set()
    stale = set(params)
    for node in scope_walk(definition.body):
        if isinstance(node, ast.Assign):
            bound = {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            if not bound:
                continue  # a.shape = s, a[i] = v: no name bound
            if len(node.targets) == 1 and _fresh(node.value):
                fresh |= bound
            else:  # b = a, b = f(a), b = a if c else x: a is held twice
                stale |= bound | {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.comprehension)):
            stale |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            stale |= {n.id for n in ast.walk(node.optional_vars) if isinstance(n, ast.Name)}
        elif isinstance(node, SCOPE_NODES):
            stale |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return fresh - stale


def _is_shape_target(target: ast.expr, rewritable: set[str]) -> bool:
    return (
        isinstance(target, ast.Attribute)
        and target.attr == "shape"
        and isinstance(target.value, ast.Name)
        and target.value.id in rewritable
    )


def _rewrite_body(body: list[ast.stmt], rewritable: set[str]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for statement in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and not isinstance(statement, SCOPE_NODES):
                setattr(statement, field, _rewrite_body(inner, rewritable))
        for handler in getattr(statement, "handlers", []) or []:
            handler.body = _rewrite_body(handler.body, rewritable)
        if not (isinstance(statement, ast.Assign) and all(_is_shape_target(t, rewritable) for t in statement.targets)):
            out.append(statement)
            continue
        made = [ast.Assign(targets=[ast.Name(id="$shape", ctx=ast.Store())], value=statement.value)]
        for target in statement.targets:
            name = target.value.id  # type: ignore[attr-defined]
            call = ast.Call(
                func=ast.Name(id="__plait_set_shape__", ctx=ast.Load()),
                args=[ast.Name(id=name, ctx=ast.Load()), ast.Name(id="$shape", ctx=ast.Load())],
                keywords=[],
            )
            made.append(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=call))
        for node in made:
            locate(node, statement)
        out.extend(made)
    return out


def rewrite_shape_assignments(definition: ast.FunctionDef, params: list[str]) -> None:
    """Rewrites, in place, `a.shape = s` of arrays no other name holds."""
    if not any(
        isinstance(n, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "shape" for t in n.targets)
        for n in scope_walk(definition.body)
    ):
        return
    definition.body = _rewrite_body(definition.body, _rewritable_names(definition, params))
