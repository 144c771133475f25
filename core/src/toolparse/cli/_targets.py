"""One target syntax for every subcommand: ``module``, ``module:NAME``, ``path/to/file.py[:NAME]``.

``NAME`` may be a Function, a Toolset, a list of Functions or a plain function
(wrapped with ``@tool``). A module alone means the Functions its ``__all__``
lists when it has one, else the Functions defined in it (not imported ones).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from ..errors import FunctionDefinitionError
from ..function import Function
from ._errors import BROKEN, CommandError

__all__ = ["Loaded", "load_tools"]


@dataclass
class Loaded:
    """The tools a target names, and what could not be defined (``tolerant`` loads only)."""

    target: str
    tools: list[Function]
    #: ``(line, message)`` for each statement whose tool definition raised
    broken: list[tuple[int, str]] = field(default_factory=list)
    #: ``(line, message)`` for each statement that failed otherwise (often because of a broken one)
    failed: list[tuple[int, str]] = field(default_factory=list)


def load_tools(target: str, *, tolerant: bool = False) -> Loaded:
    """The tools ``target`` names; :class:`CommandError` when it names none.

    With ``tolerant``, a module whose tool definitions raise is run one
    top-level statement at a time, so that every broken definition is found
    (not only the first) and the good ones are still returned.
    """
    source, name = _split(target)
    loaded = Loaded(target, [])
    module = _import(source, loaded if tolerant else None)
    if name is None:
        # a name __all__ lists may be missing because its definition broke: said already
        loaded.tools = _module_tools(module, source, lenient=bool(loaded.broken or loaded.failed))
        if not loaded.tools and not (loaded.broken or loaded.failed):
            raise CommandError(f"{source} has no tools; {_inventory(module, source)}")
        return loaded
    value: Any = module
    for i, part in enumerate(name.split(".")):
        if not hasattr(value, part):
            owner = ":".join((source, ".".join(name.split(".")[:i]))) if i else source
            if loaded.broken and i == 0:
                loaded.tools = []
                return loaded  # the definition of NAME itself is what broke
            raise CommandError(f"{owner} has no attribute {part!r}; {_inventory(value, owner)}")
        value = getattr(value, part)
    loaded.tools = _as_tools(value, f"{source}:{name}")
    return loaded


# -- the target's parts ------------------------------------------------------------


def _split(target: str) -> tuple[str, str | None]:
    source, sep, name = target.rpartition(":")
    if not sep or "/" in name or "\\" in name:
        source, name = target, ""  # no NAME (or a Windows drive letter)
    if not source or (sep and not name and source == target[:-1]):
        raise CommandError(
            f"{target!r} is not a target; write module, module:NAME or path/to/file.py[:NAME]"
        )
    return source, name or None


def _is_path(source: str) -> bool:
    return source.endswith(".py") or "/" in source or "\\" in source


def _import(source: str, loaded: Loaded | None) -> types.ModuleType:
    if _is_path(source):
        spec = _file_spec(source)
    else:
        here = os.getcwd()
        if here not in sys.path:
            sys.path.insert(0, here)  # as `python -m` would: the current directory first
        try:
            spec = importlib.util.find_spec(source)
        except ModuleNotFoundError as exc:
            raise CommandError(_not_found(source, exc.name)) from None
        except Exception as exc:  # a parent package that raises at import
            raise CommandError(f"importing {source} failed: {_brief(exc, None)}") from None
        if spec is None:
            raise CommandError(_not_found(source, source))
        if source in sys.modules:
            return sys.modules[source]
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        if spec.loader is None:  # a namespace package: nothing to run
            return module
        spec.loader.exec_module(module)
    except FunctionDefinitionError as exc:
        if loaded is None:
            sys.modules.pop(spec.name, None)
            line = _line(exc, spec.origin)
            at = f" (line {line})" if line else ""
            raise CommandError(f"broken tool definition in {source}{at}: {exc}", BROKEN) from None
        return _run_statements(spec, source, loaded)
    except SyntaxError as exc:
        sys.modules.pop(spec.name, None)
        where = (
            f" ({os.path.basename(exc.filename or '')}, line {exc.lineno})" if exc.lineno else ""
        )
        raise CommandError(f"cannot import {source}: SyntaxError: {exc.msg}{where}") from None
    except ModuleNotFoundError as exc:
        sys.modules.pop(spec.name, None)
        raise CommandError(f"importing {source} failed: {_brief(exc, spec.origin)}") from None
    except (Exception, SystemExit) as exc:
        sys.modules.pop(spec.name, None)
        raise CommandError(f"importing {source} failed: {_brief(exc, spec.origin)}") from None
    return module


def _file_spec(source: str) -> Any:
    path = os.path.abspath(source)
    if not os.path.isfile(path):
        raise CommandError(f"no such file: {source}")
    if not path.endswith(".py"):
        raise CommandError(f"{source} is not a Python file (.py)")
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # so that the file's own imports of its neighbours work
    name = os.path.splitext(os.path.basename(path))[0]
    taken = sys.modules.get(name)
    if taken is not None and getattr(taken, "__file__", None) != path:
        name = f"_toolparse_target_{name}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:  # pragma: no cover - a .py path always has a spec
        raise CommandError(f"cannot import {source}")
    return spec


def _not_found(source: str, missing: str | None) -> str:
    if missing and missing != source and not source.startswith(missing + "."):
        return f"importing {source} failed: no module named {missing!r}"
    return (
        f"no module named {source!r} (looked in the current directory and the installed "
        "packages; a path to a .py file works too)"
    )


def _brief(exc: BaseException, filename: str | None) -> str:
    line = _line(exc, filename)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    where = f" (line {line})" if line else ""
    return f"{type(exc).__name__}: {text}{where}" if text else f"{type(exc).__name__}{where}"


def _line(exc: BaseException, filename: str | None) -> int | None:
    """The line of ``filename`` (the target's own file) where ``exc`` went through."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        if filename is None or tb.tb_frame.f_code.co_filename == filename:
            found = tb.tb_lineno
        tb = tb.tb_next
    return found


def _run_statements(spec: Any, source: str, loaded: Loaded) -> types.ModuleType:
    """Run the module one top-level statement at a time, noting each that fails."""
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    text = spec.loader.get_source(spec.name) if spec.loader is not None else None
    if text is None:  # pragma: no cover - compiled-only modules
        raise CommandError(f"cannot read the source of {source}")
    filename = spec.origin or source
    for node in ast.parse(text, filename).body:
        code = compile(ast.Module([node], type_ignores=[]), filename, "exec")
        try:
            exec(code, module.__dict__)
        except FunctionDefinitionError as exc:
            loaded.broken.append((node.lineno, str(exc)))
        except (Exception, SystemExit) as exc:
            loaded.failed.append((node.lineno, _brief(exc, None).split(" (line")[0]))
    # as after any failed import, the half-made module is not left importable
    sys.modules.pop(spec.name, None)
    return module


# -- what a value or a module holds --------------------------------------------------


def _toolset_type() -> type | None:
    import toolparse

    found = getattr(toolparse, "Toolset", None)
    return found if isinstance(found, type) else None


def _functions_in(value: Any) -> list[Function] | None:
    """``value`` as Functions, when it is a Function, a Toolset or a list of Functions."""
    if isinstance(value, Function):
        return [value]
    toolset = _toolset_type()
    if toolset is not None and isinstance(value, toolset):
        return list(cast("Iterable[Function]", value))  # a Toolset iterates over its Functions
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Function) for v in value):
        return list(value)
    return None


def _as_tools(value: Any, where: str) -> list[Function]:
    found = _functions_in(value)
    if found is not None:
        return found
    if isinstance(value, types.ModuleType):
        tools = _module_tools(value, where)
        if not tools:
            raise CommandError(f"{where} has no tools; {_inventory(value, where)}")
        return tools
    if isinstance(value, (list, tuple)):
        if not value:
            raise CommandError(f"{where} is an empty list: no tools")
        i, bad = next((i, v) for i, v in enumerate(value) if not isinstance(v, Function))
        raise CommandError(
            f"{where} is a list, but item {i} is {_kind(bad)}, not a Function; "
            "a list target holds Functions only"
        )
    if callable(value) and not isinstance(value, type):
        from ..decorator import tool

        try:
            made = tool(value)
        except FunctionDefinitionError:
            raise
        except (TypeError, ValueError) as exc:
            raise CommandError(f"{where} cannot be made a tool: {exc}") from None
        return [made]
    raise CommandError(
        f"{where} is {_kind(value)}, not a tool "
        "(a Function, a Toolset, a list of Functions or a function)"
    )


def _kind(value: Any) -> str:
    if isinstance(value, type):
        return f"the class {value.__name__}"
    return f"a {type(value).__name__}"


def _module_tools(module: types.ModuleType, where: str, *, lenient: bool = False) -> list[Function]:
    exported = getattr(module, "__all__", None)
    out: list[Function] = []
    if exported is not None:
        for name in exported:
            if not hasattr(module, name):
                if lenient:
                    continue
                raise CommandError(f"{where} lists {name!r} in __all__ but has no such attribute")
            out.extend(_functions_in(getattr(module, name)) or ())
    else:
        defined = _defined_names(module)
        for name, value in vars(module).items():
            if isinstance(value, Function) and (
                name in defined if defined is not None else _made_here(value, module)
            ):
                out.append(value)
    unique: dict[int, Function] = {id(fn): fn for fn in out}
    return list(unique.values())


def _made_here(fn: Function, module: types.ModuleType) -> bool:
    # without the source, the body's module is the best witness of where a tool was made
    return getattr(fn.function, "__module__", module.__name__) == module.__name__


def _defined_names(module: types.ModuleType) -> set[str] | None:
    """Names the module's own top-level statements bind (not its imports); ``None``: no source."""
    filename = getattr(module, "__file__", None)
    if not filename or not filename.endswith(".py"):
        return None
    try:
        with open(filename, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename)
    except (OSError, SyntaxError, ValueError):
        return None
    names: set[str] = set()
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        else:
            for child in ast.walk(node):
                if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                    names.add(child.id)
            for attr in ("body", "orelse", "finalbody", "handlers"):
                pending.extend(s for s in getattr(node, attr, ()) if isinstance(s, ast.stmt))
    return names


def _inventory(value: Any, where: str) -> str:
    """What ``value`` holds (instead of the name or the tools asked for), in one line."""
    if not isinstance(value, types.ModuleType):
        return f"it is {_kind(value)}"
    public = {k: v for k, v in vars(value).items() if not k.startswith("_")}
    try:
        tools = {id(fn) for fn in _module_tools(value, where)}
    except CommandError:  # a wrong __all__: said when the module itself is the target
        tools = set()
    mine = [k for k, v in public.items() if id(v) in tools]
    imported = [k for k, v in public.items() if isinstance(v, Function) and id(v) not in tools]
    groups = [k for k, v in public.items() if isinstance(v, (list, tuple)) and _functions_in(v)]
    toolset = _toolset_type()
    if toolset is not None:
        groups += [k for k, v in public.items() if isinstance(v, toolset)]
    functions = [
        k
        for k, v in public.items()
        if isinstance(v, types.FunctionType) and getattr(v, "__module__", None) == value.__name__
    ]
    parts = []
    if mine:
        parts.append(f"its tools are {_names(mine)}")
    if groups:
        parts.append(f"it has lists of tools: {_names(groups)} (name one as {where}:NAME)")
    if imported:
        parts.append(
            f"it imports the tools {_names(imported)} (a module's tools are those defined in it "
            "or listed in its __all__)"
        )
    if functions:
        parts.append(
            f"it has the functions {_names(functions)} (name one as {where}:NAME to make it a tool)"
        )
    if not parts:
        names = sorted(public)
        return f"it has {_names(names)}" if names else "it is empty"
    return "; ".join(parts)


def _names(names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")
