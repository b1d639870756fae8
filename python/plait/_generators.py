"""Generator expressions (and list comprehensions) that sum(), min(), max(),
any() and all() consume, and list comprehensions as values, as compiled
code runs them: the snapshot replaces
the call by a call of an inner function made for it, whose loops are the
generator's and whose body is the reduction's step. So the generator runs
lazily, as in CPython: one item at a time, any() and all() stop at the
first that decides, and nothing is materialised.

    sum(x * x for x in a if x > 0, start)
    ->  (def <genexpr>($it, $start):
             $acc = $start; $comp = 0.0; $first = True
             for x in $it:
                 if x > 0:
                     $acc, $comp = sum_step($acc, $comp, $first, x * x, $start)
                     $first = False
             return sum_finish($acc, $comp))(a, start)

A list comprehension elsewhere is a list the made function builds:

    [x * x for x in a if x > 0]
    ->  (def <listcomp>($it):
             $list = []
             for x in $it:
                 if x > 0:
                     $list.append(x * x)
             return $list)(a)

The outermost iterable is evaluated where the generator is written (it is
the call's argument), the rest inside, as CPython evaluates them. The
steps are plait._builtins' (CPython's summation order per type)."""

from __future__ import annotations

import ast
from typing import Any, Callable, Optional

from . import _builtins
from ._rewrites import locate

#: Reductions a generator expression can feed.
REDUCTIONS = ("sum", "min", "max", "any", "all")

#: The helpers rewritten code calls, by the names it calls them.
HELPERS: dict[str, Any] = {
    "__plait_sum_step__": _builtins._plain_step,
    "__plait_sum_finish__": _builtins._plain_finish,
    "__plait_set_shape__": _builtins._set_shape,  # (_rewrites: a.shape = s)
}


def _name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(id=identifier, ctx=ast.Store() if store else ast.Load())


def _call(function: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=_name(function), args=list(args), keywords=[])


def _assign(target: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(target, store=True)], value=value)


#: Iterables that are no values (range(n), zip(a, b)): the made function
#: makes them itself, from the values it captured when it was made.
_LOOP_ONLY = ("range", "enumerate", "zip", "reversed")


def _passed(iterable: ast.expr) -> bool:
    """Whether the outermost iterable is the made function's argument."""
    if not isinstance(iterable, ast.Call):
        return True
    func = iterable.func
    if isinstance(func, ast.Name):
        return func.id not in _LOOP_ONLY
    # (np.ndindex(...), and a dict's keys(), values() and items() views.)
    return not (isinstance(func, ast.Attribute)
                and func.attr in ("ndindex", "ndenumerate", "keys", "values", "items"))


def _loops(generators: list[ast.comprehension], body: list[ast.stmt]) -> list[ast.stmt]:
    """The generator's loops around `body`: each `for` (the outermost over
    $it when it is passed) with its conditions nested inside it."""
    for index in range(len(generators) - 1, -1, -1):
        generator = generators[index]
        if generator.is_async:
            raise SyntaxError("asynchronous comprehension")
        for condition in reversed(generator.ifs):
            body = [ast.If(test=condition, body=body, orelse=[])]
        passed = index == 0 and _passed(generator.iter)
        iterable = _name("$it") if passed else generator.iter
        body = [ast.For(target=generator.target, iter=iterable, body=body, orelse=[])]
    return body


def _body(reduction: str, element: ast.expr, generators: list[ast.comprehension],
          extras: list[str], lazy: bool) -> list[ast.stmt]:
    """The made function's statements for `reduction` of `element`."""
    if reduction == "sum":
        step = ast.Assign(
            targets=[ast.Tuple(elts=[_name("$acc", True), _name("$comp", True)], ctx=ast.Store())],
            value=_call("__plait_sum_step__", _name("$acc"), _name("$comp"), _name("$first"), element,
                        _name("$start")),
        )
        return [
            _assign("$acc", _name("$start")),
            _assign("$comp", ast.Constant(0.0)),
            _assign("$first", ast.Constant(True)),
            *_loops(generators, [step, _assign("$first", ast.Constant(False))]),
            ast.Return(_call("__plait_sum_finish__", _name("$acc"), _name("$comp"))),
        ]
    if reduction in ("min", "max"):
        # CPython keeps the first of equal items: a strict comparison (of
        # their keys with key=, each computed once).
        keyed = "key" in extras
        compared = "$itemkey" if keyed else "$item"
        better = ast.Compare(left=_name(compared), ops=[ast.Lt() if reduction == "min" else ast.Gt()],
                             comparators=[_name("$bestkey" if keyed else "$best")])
        keep = ast.If(
            test=ast.BoolOp(op=ast.Or(), values=[ast.UnaryOp(op=ast.Not(), operand=_name("$found")), better]),
            body=[_assign("$best", _name("$item")), _assign("$found", ast.Constant(True))]
            + ([_assign("$bestkey", _name("$itemkey"))] if keyed else []),
            orelse=[],
        )
        step = [_assign("$item", element)] + ([_assign("$itemkey", _call("$key", _name("$item")))] if keyed else [])
        message = _builtins.MIN_EMPTY if reduction == "min" else _builtins.MAX_EMPTY
        empty: ast.stmt = (
            ast.Return(_name("$default"))
            if "default" in extras
            else ast.Raise(exc=_call("ValueError", ast.Constant(message)), cause=None)
        )
        return [
            _assign("$found", ast.Constant(False)),
            *_loops(generators, [*step, keep]),
            ast.If(test=ast.UnaryOp(op=ast.Not(), operand=_name("$found")), body=[empty], orelse=[]),
            ast.Return(_name("$best")),
        ]
    # any, all: the first item that decides returns (a list comprehension's
    # items are all made first: it is not lazy).
    decides = element if reduction == "any" else ast.UnaryOp(op=ast.Not(), operand=element)
    if lazy:
        return [
            *_loops(generators, [ast.If(test=decides, body=[ast.Return(ast.Constant(reduction == "any"))], orelse=[])]),
            ast.Return(ast.Constant(reduction == "all")),
        ]
    decided = _name("$decided")
    return [
        _assign("$decided", ast.Constant(False)),
        *_loops(generators, [ast.If(test=decides, body=[_assign("$decided", ast.Constant(True))], orelse=[])]),
        ast.Return(decided if reduction == "any" else ast.UnaryOp(op=ast.Not(), operand=decided)),
    ]


class MadeCall(ast.expr):
    """A call of a function made for a reduction: `function` (a FunctionDef
    the serializer registers as an inner function) with `args`."""

    _fields = ("function", "args")


def _made(name: str, params: list[str], body: list[ast.stmt], args: list[ast.expr],
          generator: ast.expr, written: ast.expr) -> MadeCall:
    """A call (where `written` is) of a function made for `generator`."""
    function = ast.FunctionDef(
        name=name,
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
                           kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
        body=body,
        decorator_list=[],
        returns=None,
    )
    made = MadeCall(function=function, args=args)
    locate(function, generator)
    locate(made, written)
    return made


def list_comprehension(comprehension: ast.ListComp) -> MadeCall:
    """The made call that builds the list `comprehension` stands for."""
    outermost = comprehension.generators[0].iter
    append = ast.Expr(ast.Call(func=ast.Attribute(value=_name("$list"), attr="append", ctx=ast.Load()),
                               args=[comprehension.elt], keywords=[]))
    body = [
        _assign("$list", ast.List(elts=[], ctx=ast.Load())),
        *_loops(comprehension.generators, [append]),
        ast.Return(_name("$list")),
    ]
    passed = _passed(outermost)
    return _made("<listcomp>", ["$it"] if passed else [], body, [outermost] if passed else [],
                 comprehension, comprehension)


def dict_comprehension(comprehension: ast.DictComp) -> MadeCall:
    """The made call that builds the dict `comprehension` stands for."""
    outermost = comprehension.generators[0].iter
    store = ast.Assign(
        targets=[ast.Subscript(value=_name("$dict"), slice=comprehension.key, ctx=ast.Store())],
        value=comprehension.value)
    body = [
        _assign("$dict", ast.Dict(keys=[], values=[])),
        *_loops(comprehension.generators, [store]),
        ast.Return(_name("$dict")),
    ]
    passed = _passed(outermost)
    return _made("<dictcomp>", ["$it"] if passed else [], body, [outermost] if passed else [],
                 comprehension, comprehension)


def list_of_iterable(call: ast.Call, is_builtin: Callable[[str], bool]) -> Optional[MadeCall]:
    """`list(iterable)` as the list comprehension `[$x for $x in iterable]`
    (so range(), zip() and the like need not be values); None for other
    calls."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "list" and len(call.args) == 1
            and not call.keywords and not isinstance(call.args[0], ast.Starred)
            and is_builtin("list")):
        return None
    item = _name("$x")
    comprehension = ast.ListComp(
        elt=item, generators=[ast.comprehension(target=_name("$x", True), iter=call.args[0], ifs=[], is_async=0)])
    locate(comprehension, call)
    return list_comprehension(comprehension)


def rewrite(call: ast.Call, is_builtin: Callable[[str], bool]) -> Optional[MadeCall]:
    """The made call replacing `call` when it is a reduction of a generator
    expression or list comprehension; None otherwise."""
    if not (isinstance(call.func, ast.Name) and call.func.id in REDUCTIONS and call.args):
        return None
    reduction = call.func.id
    generator = call.args[0]
    if not isinstance(generator, (ast.GeneratorExp, ast.ListComp)) or not is_builtin(reduction):
        return None
    rest = call.args[1:]
    keywords = {k.arg: k.value for k in call.keywords}
    extras: list[str] = []
    outermost = generator.generators[0].iter
    args: list[ast.expr] = [outermost] if _passed(outermost) else []
    if reduction == "sum":
        if len(rest) > 1 or set(keywords) - {"start"} or (rest and keywords):
            return None
        args.append(rest[0] if rest else keywords.get("start", ast.Constant(0)))
        extras = ["start"]
    elif reduction in ("min", "max"):
        if rest or set(keywords) - {"default", "key"}:
            return None
        if isinstance(keywords.get("key"), ast.Constant) and keywords["key"].value is None:
            del keywords["key"]  # (key=None: no key)
        for keyword in ("key", "default"):
            if keyword in keywords:
                args.append(keywords[keyword])
                extras.append(keyword)
    elif rest or keywords:
        return None
    params = (["$it"] if _passed(outermost) else []) + [f"${e}" for e in extras]
    body = _body(reduction, generator.elt, generator.generators, extras,
                 lazy=isinstance(generator, ast.GeneratorExp))
    name = "<genexpr>" if isinstance(generator, ast.GeneratorExp) else "<listcomp>"
    return _made(name, params, body, args, generator, call)
