"""toolparse: turn the models you already have into LLM tools, and parse what the LLM sends back.

Everything public is importable from here: ``import toolparse as tp``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _log  # noqa: F401 - the NullHandler on "toolparse" when logging is loaded
from .adapter import Adapter
from .arguments import Limits
from .context import Context, approved
from .contract import Error, Interrupt, Ok, Outcome, ParseResult, ToolError, error, interrupt, ok
from .errors import FunctionDefinitionError, NoAdapterError
from .function import Function, get_display_text
from .params import EMPTY, FunctionParam, SignatureParam
from .problems import NOT_GIVEN, ArgumentProblem, InvalidArguments, invalid_arguments
from .results import ContentPart, ImagePart, TextPart, ToolCall, ToolResult

if TYPE_CHECKING:  # type checkers see the names imported on first use (__getattr__)
    from . import providers as providers
    from .calls import aexecute_tool_calls, execute_tool_calls
    from .checking import CheckSummary, check_calls
    from .decorator import tool
    from .hookspecs import hookimpl
    from .plugins import PluginManager, make_plugin_manager, plugin_manager
    from .toolset import Toolset

#: public names whose modules load on first use, so that ``import toolparse``
#: costs what defining and running a Function needs: the plugin system
#: (pluggy) loads with the first ``args_schema`` or batch, the decorator with
#: the first ``@tool``, the tool-call loop and the offline check with their
#: first use
_FIRST_USE = {
    "CheckSummary": ".checking",
    "PluginManager": ".plugins",
    "Toolset": ".toolset",
    "aexecute_tool_calls": ".calls",
    "check_calls": ".checking",
    "execute_tool_calls": ".calls",
    "hookimpl": ".hookspecs",
    "make_plugin_manager": ".plugins",
    "plugin_manager": ".plugins",
    "tool": ".decorator",
}

__version__: str  # the installed distribution's version, read on first use (__getattr__)


def __getattr__(name: str) -> object:
    # ``tp.providers`` is imported on first use too: most programs never export a schema
    if name in _FIRST_USE or name == "providers":
        import importlib

        found: object = importlib.import_module(_FIRST_USE.get(name, ".providers"), __name__)
        if name != "providers":
            found = getattr(found, name)
            globals()[name] = found  # later look-ups find it here, as an import would leave it
        return found
    if name == "__version__":
        # one source: core/pyproject.toml. importlib.metadata is imported on first use only, as
        # it costs more than the rest of ``import toolparse``
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("toolparse")
        except PackageNotFoundError:  # a source tree on sys.path, never installed
            found = "0+unknown"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module 'toolparse' has no attribute {name!r}")


__all__ = [
    "EMPTY",
    "NOT_GIVEN",
    "Adapter",
    "ArgumentProblem",
    "CheckSummary",
    "ContentPart",
    "Context",
    "Error",
    "Function",
    "FunctionDefinitionError",
    "FunctionParam",
    "ImagePart",
    "Interrupt",
    "InvalidArguments",
    "Limits",
    "NoAdapterError",
    "Ok",
    "Outcome",
    "ParseResult",
    "PluginManager",
    "SignatureParam",
    "TextPart",
    "ToolCall",
    "ToolError",
    "ToolResult",
    "Toolset",
    "__version__",
    "aexecute_tool_calls",
    "approved",
    "check_calls",
    "error",
    "execute_tool_calls",
    "get_display_text",
    "hookimpl",
    "interrupt",
    "invalid_arguments",
    "make_plugin_manager",
    "ok",
    "plugin_manager",
    "tool",
]
