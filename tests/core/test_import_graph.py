"""The import graph of the core and of every adapter has no cycle, read from the source with ``ast``.

Two graphs of the modules of ``core/src/toolparse`` and of each installed
adapter package (``toolparse_pydantic``, ...), which import the core but
never each other:

- module level: the imports that run when a module is imported (not those
  inside functions, nor those under ``if TYPE_CHECKING:``);
- every import, inside functions too.

Both must be acyclic: a lazy import keeps a module out of ``import toolparse``
(the first-use imports listed below, each saying why in a comment), it never
closes a cycle. ``import toolparse`` loads what defining and running a
Function needs, nothing more: the modules of the first-use imports (and what
they load: pluggy, threads) are loaded by their first use, proven in a fresh
process.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import toolparse

PACKAGE = "toolparse"
#: the adapter packages installed here (each its own distribution)
ADAPTERS = [
    name
    for name in (
        "toolparse_pydantic",
        "toolparse_marshmallow",
        "toolparse_attrs",
        "toolparse_jsonschema",
    )
    if importlib.util.find_spec(name) is not None
]


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(package: str) -> dict[str, Path]:
    root = Path(str(importlib.import_module(package).__file__)).parent
    return {_module_name(root, p): p for p in sorted(root.rglob("*.py"))}


MODULES = {
    name: path for package in (PACKAGE, *ADAPTERS) for name, path in _modules(package).items()
}


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


#: The first-use imports: (importing module, imported core module) -> when the
#: import runs. Each keeps its target (and what the target loads) out of
#: ``import toolparse`` and off the per-call path, and says why in a comment.
FIRST_USE: dict[tuple[str, str], str] = {
    ("toolparse.calls", "toolparse._pool"): "the first body run in a worker thread",
    ("toolparse.function._plan", "toolparse.plain"): (
        "the first Function that declares parameters"
    ),
    ("toolparse.function._function", "toolparse.plugins"): (
        "the first Function defined without a plugin manager of its own"
    ),
    ("toolparse.function._declaration", "toolparse.plugins"): (
        "the first args_schema resolved by a two-method adapter"
    ),
}

#: loaded only by a first use: the targets above, the names the package
#: exports on first use (``toolparse._FIRST_USE``) and what those load
NOT_ON_IMPORT = (
    "pluggy",
    "inspect",
    "dataclasses",
    "threading",
    "concurrent.futures",
    "toolparse._pool",
    "toolparse.plain",
    "toolparse.plugins",
    "toolparse.hookspecs",
    "toolparse.decorator",
    "toolparse.checking",
    "toolparse.calls",
    "toolparse.toolset",
    "toolparse.providers",
)


def _lazy_imports() -> Iterator[tuple[str, ast.Import | ast.ImportFrom, list[str]]]:
    """Every import inside a function: (module, node, the module's source lines)."""
    for name, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        eager = {id(node) for node in _module_level(tree.body)}
        for node in _everywhere(tree):
            if id(node) not in eager:
                yield name, node, lines


def _says_why(node: ast.stmt, lines: list[str]) -> bool:
    here = lines[node.lineno - 1]
    above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
    return "#" in here or above.startswith("#")


def _graph(*, lazy: bool) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _everywhere(tree) if lazy else _module_level(tree.body):
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


def test_every_core_and_adapter_module_is_read() -> None:
    assert {"toolparse", "toolparse.plugins", "toolparse.plain._adapter"} <= set(MODULES)
    assert "toolparse.testing" in MODULES
    for adapter in ADAPTERS:
        assert {adapter, f"{adapter}._adapter"} <= set(MODULES)


def test_the_module_level_import_graph_has_no_cycle() -> None:
    assert _cycles(_graph(lazy=False)) == []


def test_no_import_cycle_lazy_imports_counted() -> None:
    assert _cycles(_graph(lazy=True)) == []


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    found, todo = set(), [start]
    while todo:
        for target in graph[todo.pop()] - found:
            found.add(target)
            todo.append(target)
    return found


def test_the_plugin_manager_does_not_reach_the_providers() -> None:
    # the providers register themselves on a manager (one direction: providers -> plugins)
    graph = _graph(lazy=True)
    assert "toolparse.plugins" in _reachable(graph, "toolparse.providers")
    assert not any(
        m.startswith("toolparse.providers") for m in _reachable(graph, "toolparse.plugins")
    )


def test_the_graph_reader_finds_a_cycle() -> None:
    # the reader itself: a made-up circle is reported, a chain is not
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    # and the real graph has the edges it should
    graph = _graph(lazy=False)
    assert "toolparse._defaults" in graph["toolparse.plugins"]
    assert "toolparse.plain._adapter" in _graph(lazy=True)["toolparse.plain"]
    for adapter in ADAPTERS:  # an adapter's modules, and the core they import
        assert {f"{adapter}._adapter", "toolparse"} <= graph[adapter]
        assert "toolparse.adapter" in _graph(lazy=True)[f"{adapter}._adapter"]


def test_each_default_manager_lookup_says_why_it_is_lazy() -> None:
    bare = [
        f"{name}:{node.lineno}"
        for name, node, lines in _lazy_imports()
        if _is_default_manager_lookup(node) and not _says_why(node, lines)
    ]
    assert bare == []


def test_each_first_use_import_is_listed_is_lazy_and_says_why() -> None:
    found: set[tuple[str, str]] = set()
    bare: list[str] = []
    for name, node, lines in _lazy_imports():
        for target in _targets(name, node):
            if (name, target) in FIRST_USE:
                found.add((name, target))
                if not _says_why(node, lines):
                    bare.append(f"{name}:{node.lineno}")
    assert bare == []
    assert found == set(FIRST_USE)  # a listed import that is gone leaves the list
    # and none of them is imported at module level too
    eager = _graph(lazy=False)
    assert [edge for edge in FIRST_USE if edge[1] in eager[edge[0]]] == []


def test_import_toolparse_loads_no_first_use_module() -> None:
    probe = (
        "import sys, toolparse as tp\n"
        f"print(' '.join(m for m in {NOT_ON_IMPORT!r} if m in sys.modules))\n"
        # every public name still resolves (on first use), to what the module exports
        "import toolparse.calls, toolparse.decorator, toolparse.plugins\n"
        "assert all(getattr(tp, n) is not None for n in tp.__all__)\n"
        "assert tp.execute_tool_calls is toolparse.calls.execute_tool_calls\n"
        "assert tp.tool is toolparse.decorator.tool\n"
        "assert tp.plugin_manager is toolparse.plugins.plugin_manager\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == []


def test_the_first_use_names_are_the_modules_own() -> None:
    lazy: dict[str, str] = toolparse._FIRST_USE  # type: ignore[attr-defined]
    assert set(lazy) <= set(toolparse.__all__)
    for name, module in lazy.items():
        assert getattr(toolparse, name) is getattr(
            importlib.import_module(module, "toolparse"), name
        )
        assert f"toolparse{module}" in NOT_ON_IMPORT
