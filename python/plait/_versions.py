"""Flow-sensitive variables: each assignment to a local starts a new value, as
in SSA. Assignments that no read can tell apart (no read is reached by more
than one of them) become different variables, named `name$k`, so each can
have its own type: `x = 0 ... x = np.zeros(n)` is an int, then an array.
Where a read is reached by several assignments (after an if/else, around a
loop), those assignments stay one variable and must agree on a type, as
before. The compiler shows `name$k` as `name` in messages.

Reaching definitions are computed over the structured statements plait
compiles; a function using anything else (try, with, del, global, nested
scopes, :=) keeps its names as written.
"""

from __future__ import annotations

import ast
from typing import Optional

State = dict[str, frozenset[int]]


class _Unsupported(Exception):
    """A construct the analysis does not model: rename nothing."""


_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr)


def _join(states: list[Optional[State]]) -> Optional[State]:
    live = [s for s in states if s is not None]
    if not live:
        return None
    joined: dict[str, frozenset[int]] = {}
    for state in live:
        for name, defs in state.items():
            joined[name] = joined.get(name, frozenset()) | defs
    return joined


class _Analysis:
    def __init__(self, params: list[str]) -> None:
        self.parent: list[int] = []
        self.def_names: list[str] = []
        self.def_nodes: list[list[ast.Name]] = []
        self.def_of_node: dict[int, int] = {}
        self.uses: dict[int, tuple[ast.Name, set[int]]] = {}
        self.loops: list[tuple[list[State], list[State]]] = []  # (breaks, continues)
        self.entry: State = {}
        for name in params:
            self.entry[name] = frozenset([self._new_def(name, None)])

    # -- union-find over assignments ------------------------------------------
    def _new_def(self, name: str, node: Optional[ast.Name]) -> int:
        ident = len(self.parent)
        self.parent.append(ident)
        self.def_names.append(name)
        self.def_nodes.append([node] if node is not None else [])
        return ident

    def _find(self, ident: int) -> int:
        while self.parent[ident] != ident:
            self.parent[ident] = self.parent[self.parent[ident]]
            ident = self.parent[ident]
        return ident

    def _union(self, defs: frozenset[int]) -> None:
        items = sorted(defs)
        for other in items[1:]:
            a, b = self._find(items[0]), self._find(other)
            if a != b:
                self.parent[max(a, b)] = min(a, b)

    # -- expressions ----------------------------------------------------------
    def _reads(self, node: ast.AST, state: State) -> None:
        for child in ast.walk(node):
            if isinstance(child, _SCOPES):
                raise _Unsupported
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                defs = state.get(child.id, frozenset())
                _, seen = self.uses.setdefault(id(child), (child, set()))
                seen.update(defs)
                self._union(frozenset(seen))

    def _assign(self, target: ast.AST, state: State) -> State:
        """Binds the names in `target`; loads inside it (a[i] = ...) are reads."""
        if isinstance(target, ast.Name):
            ident = self.def_of_node.get(id(target))
            if ident is None:
                ident = self.def_of_node[id(target)] = self._new_def(target.id, target)
            state = dict(state)
            state[target.id] = frozenset([ident])
            return state
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                if isinstance(element, ast.Starred):
                    raise _Unsupported
                state = self._assign(element, state)
            return state
        self._reads(target, state)
        return state

    # -- statements -----------------------------------------------------------
    def block(self, statements: list[ast.stmt], state: Optional[State]) -> Optional[State]:
        for statement in statements:
            # Code after a return still compiles: it sees no assignments.
            state = self.statement(statement, state if state is not None else {})
        return state

    def statement(self, s: ast.stmt, state: State) -> Optional[State]:
        if isinstance(s, ast.Assign):
            self._reads(s.value, state)
            for target in s.targets:
                state = self._assign(target, state)
            return state
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                return state
            self._reads(s.value, state)
            return self._assign(s.target, state)
        if isinstance(s, ast.AugAssign):
            # x += v reads x: the new value joins the old ones' variable.
            self._reads(s.value, state)
            if isinstance(s.target, ast.Name):
                before = state.get(s.target.id, frozenset())
                load = ast.Name(id=s.target.id, ctx=ast.Load())
                self._reads(load, state)
                state = self._assign(s.target, state)
                self._union(before | state[s.target.id])
                return state
            self._reads(s.target, state)
            return state
        if isinstance(s, (ast.Expr, ast.Assert)):
            self._reads(s, state)
            return state
        if isinstance(s, (ast.Return, ast.Raise)):
            self._reads(s, state)
            return None
        if isinstance(s, ast.Pass):
            return state
        if isinstance(s, (ast.Break, ast.Continue)):
            if not self.loops:
                raise _Unsupported
            breaks, continues = self.loops[-1]
            (breaks if isinstance(s, ast.Break) else continues).append(state)
            return None
        if isinstance(s, ast.If):
            self._reads(s.test, state)
            return _join([self.block(s.body, state), self.block(s.orelse, state)])
        if isinstance(s, (ast.While, ast.For)):
            return self._loop(s, state)
        raise _Unsupported

    def _loop(self, s: ast.While | ast.For, state: State) -> Optional[State]:
        if isinstance(s, ast.For):
            self._reads(s.iter, state)
        head: State = state
        while True:
            breaks: list[State] = []
            continues: list[State] = []
            self.loops.append((breaks, continues))
            if isinstance(s, ast.While):
                self._reads(s.test, head)
                body_state: Optional[State] = head
            else:
                body_state = self._assign(s.target, head)
            end = self.block(s.body, body_state)
            self.loops.pop()
            again = _join([head, end, *continues])
            assert again is not None
            if again == head:
                break
            head = again
        # The loop ends when its test fails (or the iterator is exhausted),
        # then runs its else clause; a break skips that.
        return _join([self.block(s.orelse, head), *breaks])

    # -- result ---------------------------------------------------------------
    def renames(self) -> dict[int, str]:
        """New names for Name nodes (by id) whose variable is not the first of
        its name."""
        groups: dict[str, list[int]] = {}
        for ident, name in enumerate(self.def_names):
            root = self._find(ident)
            if root not in groups.setdefault(name, []):
                groups[name].append(root)
        names: dict[int, str] = {}
        for name, roots in groups.items():
            # The parameter (or first assignment) keeps the name.
            for k, root in enumerate(roots):
                names[root] = name if k == 0 else f"{name}${k}"
        result: dict[int, str] = {}
        for ident in range(len(self.def_names)):
            new = names[self._find(ident)]
            for node in self.def_nodes[ident]:
                result[id(node)] = new
        for node, defs in self.uses.values():
            if defs:
                result[id(node)] = names[self._find(next(iter(defs)))]
        return result


def rename_versions(definition: ast.FunctionDef, params: list[str]) -> None:
    """Renames, in place, the assignments to locals (and their reads) that are
    separate values into `name$k`."""
    analysis = _Analysis(params)
    try:
        analysis.block(definition.body, dict(analysis.entry))
    except _Unsupported:
        return
    renames = analysis.renames()
    for node in ast.walk(definition):
        if isinstance(node, ast.Name) and id(node) in renames:
            node.id = renames[id(node)]
