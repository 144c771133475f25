"""One target syntax for every subcommand: ``module``, ``module:NAME``, ``path/to/file.py[:NAME]``.

``NAME`` may be a Function, a Toolset, a list of Functions or a plain function
(wrapped with ``@tool``). A module alone means the Functions its ``__all__``
lists when it has one, else the Functions defined in it (not imported ones).

Here too: what every subcommand says when something is wrong, and with which exit status.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import symtable
import sys
import traceback
import types
from dataclasses import dataclass, field
from typing import Any

from ..errors import FunctionDefinitionError
from ..function import Function

__all__ = ["FAILED", "INTERNAL", "OK", "USAGE", "CommandError", "Loaded", "load_tools", "say"]

#: exit statuses: all went well; a call was rejected, a tool failed or a definition is
#: broken; the command line or its target is wrong; toolparse itself failed (a bug)
OK, FAILED, USAGE, INTERNAL = 0, 1, 2, 3


def say(message: str) -> None:
    """One line on stderr, as every complaint of the command reads: ``toolparse: ...``."""
    print(f"toolparse: {message}", file=sys.stderr)


class CommandError(Exception):
    """A mistake the user can fix: printed as one line, no traceback.

    :param message: the line to print (without the ``toolparse:`` prefix).
    :param status: the exit status (:data:`USAGE` unless said otherwise).
    """

    def __init__(self, message: str, status: int = USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Loaded:
    """The tools a target names, and what could not be defined (``tolerant`` loads only)."""

    tools: list[Function] = field(default_factory=list)
    #: ``(line, message)`` for each statement whose tool definition raised
    broken: list[tuple[int, str]] = field(default_factory=list)
    #: ``(line, message)`` for each statement that failed otherwise (often because of a broken one)
    failed: list[tuple[int, str]] = field(default_factory=list)


def load_tools(target: str, *, tolerant: bool = False) -> Loaded:
    """The tools ``target`` names; ``tolerant``: every broken definition found, the good ones kept."""
    source, sep, name = target.rpartition(":")
    if not sep or "/" in name or "\\" in name:
        source, name = target, ""  # no NAME (or a Windows drive letter)
    if not source or (sep and not name and source == target[:-1]):
        message = f"{target!r} is not a target; write module, module:NAME or path/to/file.py[:NAME]"
        raise CommandError(message)
    loaded = Loaded()
    value: Any = _import(source, loaded if tolerant else None)
    parts = name.split(".") if name else []
    for i, part in enumerate(parts):
        if not hasattr(value, part):
            if loaded.broken and i == 0:
                return loaded  # the definition of NAME itself is what broke
            owner = f"{source}:{'.'.join(parts[:i])}" if i else source
            raise CommandError(f"{owner} has no attribute {part!r}; {_inventory(value, owner)}")
        value = getattr(value, part)
    # a name __all__ lists may be missing because its definition broke: said already
    lenient = not name and bool(loaded.broken or loaded.failed)
    loaded.tools = _as_tools(value, f"{source}:{name}" if name else source, lenient)
    return loaded


# -- importing the target ---------------------------------------------------------


def _import(source: str, loaded: Loaded | None) -> types.ModuleType:
    if source.endswith(".py") or "/" in source or "\\" in source:
        spec = _file_spec(source)
    else:
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())  # as `python -m` would: the current directory first
        try:
            spec = importlib.util.find_spec(source)
        except ModuleNotFoundError as exc:
            raise CommandError(_not_found(source, exc.name)) from None
        except Exception as exc:  # a parent package that raises at import
            raise CommandError(_failed(source, exc, None)) from None
        if spec is None:
            raise CommandError(_not_found(source, source))
        if source in sys.modules:
            return sys.modules[source]
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        if spec.loader is not None:  # else a namespace package: nothing to run
            spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        sys.modules.pop(spec.name, None)  # a failed import leaves nothing importable
        if not isinstance(exc, FunctionDefinitionError):
            raise CommandError(_failed(source, exc, spec.origin)) from None
        if loaded is not None:
            return _run_statements(spec, source, loaded)
        message = f"broken tool definition in {source}{_at(exc, spec.origin)}: {exc}"
        raise CommandError(message, FAILED) from None
    return module


def _failed(source: str, exc: BaseException, filename: str | None) -> str:
    if isinstance(exc, SyntaxError):
        where = f" ({os.path.basename(exc.filename or '')}, line {exc.lineno})"
        return f"cannot import {source}: SyntaxError: {exc.msg}{where if exc.lineno else ''}"
    return f"importing {source} failed: {_brief(exc)}{_at(exc, filename)}"


def _file_spec(source: str) -> Any:
    path = os.path.abspath(source)
    if os.path.isdir(path):
        raise CommandError(f"{source} is a directory; name a .py file in it, or a module")
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
    return importlib.util.spec_from_file_location(name, path)  # a .py path always has one


def _not_found(source: str, missing: str | None) -> str:
    if missing and missing != source and not source.startswith(missing + "."):
        return f"importing {source} failed: no module named {missing!r}"
    return (
        f"no module named {source!r} (looked in the current directory and the installed "
        "packages; a path to a .py file works too)"
    )


def _brief(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


def _at(exc: BaseException, filename: str | None) -> str:
    """`` (line N)``, the last line of ``filename`` (of any file without it) that ``exc`` went through."""
    walked = traceback.walk_tb(exc.__traceback__)
    lines = [n for frame, n in walked if filename in (None, frame.f_code.co_filename)]
    return f" (line {lines[-1]})" if lines else ""


def _run_statements(spec: Any, source: str, loaded: Loaded) -> types.ModuleType:
    """Run the module as ``import`` would, one top-level statement at a time, noting failures.

    The command's one ``compile``/``exec``: the user's own module, nothing generated.
    """
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
            loaded.failed.append((node.lineno, _brief(exc)))
    sys.modules.pop(spec.name, None)  # as after any failed import: the half-made module goes
    return module


# -- what a value or a module holds --------------------------------------------------


def _functions_in(value: Any) -> list[Function] | None:
    """``value`` as Functions, when it is a Function, a Toolset or a list of Functions."""
    from ..toolset import Toolset  # with the first value looked at: a module target may need none

    if isinstance(value, Function):
        return [value]
    if isinstance(value, Toolset):
        return list(value)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Function) for v in value):
        return list(value)
    return None


def _kind(value: Any) -> str:
    return f"the class {value.__name__}" if isinstance(value, type) else f"a {type(value).__name__}"


def _as_tools(value: Any, where: str, lenient: bool = False) -> list[Function]:
    found = _functions_in(value)
    if found is not None:
        return found
    if isinstance(value, types.ModuleType):
        tools = _module_tools(value, where, lenient=lenient)
        if not tools and not lenient:
            raise CommandError(f"{where} has no tools; {_inventory(value, where)}")
        return tools
    if isinstance(value, (list, tuple)):
        if not value:
            raise CommandError(f"{where} is an empty list: no tools")
        i, bad = next((i, v) for i, v in enumerate(value) if not isinstance(v, Function))
        message = f"{where} is a list, but item {i} is {_kind(bad)}, not a Function; a list target holds Functions only"
        raise CommandError(message)
    if callable(value) and not isinstance(value, type):
        from ..decorator import tool

        try:
            return [tool(value)]
        except FunctionDefinitionError:
            raise
        except (TypeError, ValueError) as exc:
            raise CommandError(f"{where} cannot be made a tool: {exc}") from None
    message = f"{where} is {_kind(value)}, not a tool (a Function, a Toolset, a list of Functions or a function)"
    raise CommandError(message)


def _module_tools(module: types.ModuleType, where: str, *, lenient: bool = False) -> list[Function]:
    exported = getattr(module, "__all__", None)
    out: list[Function] = []
    if exported is not None:
        for name in exported:
            if hasattr(module, name):
                out.extend(_functions_in(getattr(module, name)) or ())
            elif not lenient:
                raise CommandError(f"{where} lists {name!r} in __all__ but has no such attribute")
    else:
        defined = _defined_names(module)
        for name, value in vars(module).items():
            if not isinstance(value, Function):
                continue
            # without the source, the body's module is the best witness of where a tool was made
            made_here = getattr(value.function, "__module__", module.__name__) == module.__name__
            if name in defined if defined is not None else made_here:
                out.append(value)
    return list({id(fn): fn for fn in out}.values())


def _defined_names(module: types.ModuleType) -> set[str] | None:
    """Names the module's own top-level statements bind (not its imports); ``None``: no source."""
    filename = getattr(module, "__file__", None)
    if not filename or not filename.endswith(".py"):
        return None
    try:
        with open(filename, encoding="utf-8") as f:
            table = symtable.symtable(f.read(), filename, "exec")
    except (OSError, SyntaxError, ValueError):
        return None
    return {symbol.get_name() for symbol in table.get_symbols() if symbol.is_assigned()}


def _names(names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


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
    groups = [k for k, v in public.items() if not isinstance(v, Function) and _functions_in(v)]
    functions = [
        k
        for k, v in public.items()
        if isinstance(v, types.FunctionType) and getattr(v, "__module__", None) == value.__name__
    ]
    why = " (a module's tools are those defined in it or listed in its __all__)"
    said = [
        ("its tools are", mine, ""),
        ("it has lists of tools:", groups, f" (name one as {where}:NAME)"),
        ("it imports the tools", imported, why),
        ("it has the functions", functions, f" (name one as {where}:NAME to make it a tool)"),
    ]
    parts = [f"{text} {_names(names)}{why}" for text, names, why in said if names]
    if not parts:
        return f"it has {_names(sorted(public))}" if public else "it is empty"
    return "; ".join(parts)
