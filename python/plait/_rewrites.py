"""Rewrites of a function's source the snapshot makes before typing, for
statements compiled code has no direct counterpart of.

`a.shape = s` changes the shape of the array object `a` names. When no
other name can hold that object (it is not a parameter, and never assigned
to another name or into a tuple), that is re-binding `a` to a view of the
new shape (NumPy's errors when only a copy could have it), which is what
compiled code does:

    X.shape = Y.shape = n * m   ->   $shape = n * m
                                     X = __plait_set_shape__(X, $shape)
                                     Y = __plait_set_shape__(Y, $shape)

(the value evaluated once, the targets assigned left to right, as CPython
does). Otherwise the statement is left as it is, and compiling it reports
that attribute assignment is not supported."""

from __future__ import annotations

import ast

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _walk_scope(nodes: list[ast.AST]):
    """The nodes of a function's own scope (not of the functions in it)."""
    pending = list(nodes)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, _NESTED):
            pending.extend(ast.iter_child_nodes(node))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _shared_names(definition: ast.FunctionDef, params: list[str]) -> set[str]:
    """Names whose array object another name may hold: parameters (the
    caller holds them), both sides of an assignment of a name or of a
    tuple or list holding names (`b = a`, `t = (a, 1)`, `a, b = b, x`),
    and the names nested functions see."""
    shared = set(params)
    for node in _walk_scope(definition.body):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            value = node.value
            holds = isinstance(value, ast.Name) or (
                isinstance(value, (ast.Tuple, ast.List)) and any(isinstance(e, ast.Name) for e in value.elts)
            )
            if holds:
                shared |= _names(value)
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    shared |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        elif isinstance(node, _NESTED):
            shared |= _names(node)
    return shared


def _is_shape_target(target: ast.expr, shared: set[str]) -> bool:
    return (
        isinstance(target, ast.Attribute)
        and target.attr == "shape"
        and isinstance(target.value, ast.Name)
        and target.value.id not in shared
    )


def _rewrite_body(body: list[ast.stmt], shared: set[str]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for statement in body:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and not isinstance(statement, _NESTED):
                setattr(statement, field, _rewrite_body(inner, shared))
        for handler in getattr(statement, "handlers", []) or []:
            handler.body = _rewrite_body(handler.body, shared)
        if not (isinstance(statement, ast.Assign) and all(_is_shape_target(t, shared) for t in statement.targets)):
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
            for part in ast.walk(node):
                if "lineno" in part._attributes and not hasattr(part, "lineno"):
                    ast.copy_location(part, statement)
            ast.copy_location(node, statement)
        out.extend(made)
    return out


def rewrite_shape_assignments(definition: ast.FunctionDef, params: list[str]) -> None:
    """Rewrites, in place, `a.shape = s` of arrays no other name holds."""
    if not any(
        isinstance(n, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "shape" for t in n.targets)
        for n in _walk_scope(definition.body)
    ):
        return
    definition.body = _rewrite_body(definition.body, _shared_names(definition, params))
