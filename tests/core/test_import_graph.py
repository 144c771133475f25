"""The core's import graph has no cycle, read from the source with ``ast``.

Two graphs of the modules of ``core/src/toolparse``:

- module level: the imports that run when a module is imported (not those
  inside functions, nor those under ``if TYPE_CHECKING:``) must be acyclic,
  so any module can be imported first;
- every import, inside functions too, must be acyclic once the look-ups of
  the default plugin manager (``from ..plugins import plugin_manager``, the
  lazy edges the design keeps) are left out, and each of those look-ups says
  why it is lazy in a comment. No other lazy import hides a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import toolparse

ROOT = Path(toolparse.__file__).parent
PACKAGE = "toolparse"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _module_level(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _module_level(node.body)
            yield from _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse):
                yield from _module_level(block)
            yield from _module_level(node.finalbody)


def _everywhere(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    hidden = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node.test)
        for stmt in node.body
        for inner in ast.walk(stmt)
    }
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in hidden:
            yield node


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The core modules whose code must have run for ``node`` to succeed."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            is_package = MODULES[module].name == "__init__.py"
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            base_name = ".".join([*base, node.module] if node.module else base)
        else:
            base_name = node.module or ""
        submodules = [f"{base_name}.{alias.name}" for alias in node.names]
        found = [name for name in submodules if name in MODULES]
        # ``from package import attribute`` needs the package's own code to have run
        names = found if len(found) == len(submodules) else [base_name, *found]
    targets: set[str] = set()
    for name in names:
        if name not in MODULES:
            continue
        parts = name.split(".")
        for depth in range(2, len(parts)):
            # packages above the target run first, unless they are being imported already
            above = ".".join(parts[:depth])
            if not (module == above or module.startswith(above + ".")):
                targets.add(above)
        targets.add(name)
    targets.discard(module)
    return targets


def _is_default_manager_lookup(node: ast.Import | ast.ImportFrom) -> bool:
    return (
        isinstance(node, ast.ImportFrom)
        and (node.module or "").endswith("plugins")
        and [alias.name for alias in node.names] == ["plugin_manager"]
    )


def _graph(*, lazy: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = _everywhere(tree) if lazy else _module_level(tree.body)
        for node in imports:
            if lazy and _is_default_manager_lookup(node):
                continue
            graph[name] |= _targets(name, node)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path) through every strongly connected group of modules."""
    order: list[str] = []
    seen: set[str] = set()

    def finish(start: str) -> None:
        stack = [(start, iter(sorted(graph[start])))]
        seen.add(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                order.append(node)
            elif child not in seen:
                seen.add(child)
                stack.append((child, iter(sorted(graph[child]))))

    for name in sorted(graph):
        if name not in seen:
            finish(name)
    reverse: dict[str, set[str]] = {name: set() for name in graph}
    for name, targets in graph.items():
        for target in targets:
            reverse[target].add(name)
    assigned: set[str] = set()
    cycles: list[list[str]] = []
    for name in reversed(order):
        if name in assigned:
            continue
        group, todo = set(), [name]
        while todo:
            node = todo.pop()
            if node in assigned:
                continue
            assigned.add(node)
            group.add(node)
            todo.extend(reverse[node] - assigned)
        if len(group) > 1:
            cycles.append(sorted(group))
    return cycles


def test_every_core_module_is_read() -> None:
    assert {"toolparse", "toolparse.plugins", "toolparse.plain._adapter"} <= set(MODULES)
    assert "toolparse.testing" in MODULES


def test_the_module_level_import_graph_has_no_cycle() -> None:
    assert _cycles(_graph(lazy=False)) == []


#: groups of modules still tied by lazy imports both ways, each a change to make
#: (the test fails for any other group, and for one of these once it is gone)
_KNOWN_LAZY_CYCLES: list[list[str]] = []


def test_no_lazy_import_hides_a_cycle_but_the_default_manager_lookups() -> None:
    assert _cycles(_graph(lazy=True)) == _KNOWN_LAZY_CYCLES


def test_the_graph_reader_finds_a_cycle() -> None:
    # the reader itself: a made-up circle is reported, a chain is not
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    # and the real graph has the edges it should
    graph = _graph(lazy=False)
    assert "toolparse._defaults" in graph["toolparse.plugins"]
    assert "toolparse.plain._adapter" in _graph(lazy=True)["toolparse.plain"]


def test_each_default_manager_lookup_says_why_it_is_lazy() -> None:
    bare: list[str] = []
    for name, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        eager = {id(node) for node in _module_level(tree.body)}
        for node in _everywhere(tree):
            if id(node) in eager or not _is_default_manager_lookup(node):
                continue
            here = lines[node.lineno - 1]
            above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
            if "#" not in here and not above.startswith("#"):
                bare.append(f"{name}:{node.lineno}")
    assert bare == []
