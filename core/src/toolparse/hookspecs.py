"""Hook specifications: every hook toolparse calls, documented.

Plugins implement these with :data:`toolparse.hookimpl`. A plugin is any object
or module with hook implementations; a distribution declares it with one line::

    [project.entry-points.toolparse]
    myplugin = "my_package"

Every hook here has a section in ``docs/plugins.md`` and a test of its own; a
test fails when either is missing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pluggy import HookimplMarker, HookspecMarker

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from .adapter import Adapter
    from .function import Function
    from .results import ToolCall, ToolResult

__all__ = ["hookimpl", "hookspec"]

hookspec = HookspecMarker("toolparse")
#: Marks a plugin's hook implementations: ``@toolparse.hookimpl``.
hookimpl = HookimplMarker("toolparse")


# -- registration ----------------------------------------------------------------


@hookspec
def toolparse_register_adapters(register: Callable[[Adapter], None]) -> None:
    """Register the adapters this plugin provides.

    Call ``register(adapter)`` once per adapter. An adapter registered later is
    asked first, so a plugin loaded after another (or marked
    ``@hookimpl(tryfirst=True)``) can take over sources the other accepts.

    Called once per plugin manager, the first time an adapter is needed, and
    again after a plugin is registered or unregistered. Two adapters of one
    name are an error (``toolparse.plugins.PluginError``), not a silent shadow.

    :param register: callback taking one adapter (see :class:`toolparse.Adapter`).
    """


@hookspec
def toolparse_register_providers(register: Callable[[Any], None]) -> None:
    """Register the provider formats this plugin provides.

    Call ``register(provider)`` once per provider; a provider is an object
    with ``name`` and the methods of :class:`toolparse.providers.Provider`.
    A provider registered later replaces one of the same name.

    Called once per plugin manager, the first time a provider is needed.

    :param register: callback taking one provider.
    """


# -- selection -------------------------------------------------------------------


@hookspec(firstresult=True)
def toolparse_select_adapter(source: object, candidates: Sequence[Adapter]) -> Adapter | None:
    """Choose the adapter for a tool's ``args_schema``.

    firstresult: the first implementation that returns an adapter wins. The
    core's default implementation (``trylast``) returns the first candidate
    whose ``accepts(source)`` is true; implement this hook to override the
    choice for some sources.

    Called once per tool, at definition.

    :param source: the ``args_schema`` object.
    :param candidates: every registered adapter, the one to ask first first.
    :returns: the adapter to use, or ``None`` to let the next implementation decide.
    """


@hookspec(firstresult=True)
def toolparse_field_schema(
    adapter: str, field: object, schema: Mapping[str, Any]
) -> dict[str, Any] | None:
    """Give the JSON Schema of a field or type an adapter cannot map precisely.

    firstresult. Adapters that write their own JSON Schema (marshmallow fields,
    attrs and plain types) ask this for every field with what they would emit,
    so a plugin can describe a custom field class exactly. An adapter of the
    one-step form gets the hook as ``compile``'s ``field_schema`` argument,
    bound to the tool's plugin manager; one of the two-method form calls
    ``toolparse.plugins.field_schema``.

    Called at tool definition, once per field.

    :param adapter: the adapter's name (``"marshmallow"``, ``"attrs"``, ``"plain"``).
    :param field: the field object or type annotation.
    :param schema: what the adapter would emit by itself (do not mutate it).
    :returns: the schema to use instead, or ``None`` to keep the adapter's own.
    """


# -- execution -------------------------------------------------------------------


@hookspec(firstresult=True)
def toolparse_format_exception(exception: BaseException, function: Function) -> str | None:
    """Word the message the model reads when a tool body or parser raised.

    firstresult. The default is ``ERROR: (Type) message at file.py:42: func``.
    Use it to hide details of some exceptions or to add advice. Not called for
    :class:`toolparse.ToolError`, whose message is sent as written.

    Called on the error path only, once per exception.

    :param exception: the exception raised.
    :param function: the tool that raised it.
    :returns: the message, or ``None`` for the default.
    """


@hookspec
def toolparse_tool_executed(
    call: ToolCall, function: Function | None, result: ToolResult, duration: float, late: bool
) -> None:
    """Observe every tool call that has a call id, on every path (logs, metrics, traces).

    Called once per call, after it finished, in the order the calls finish:
    rejected arguments, unknown tools (``function`` is ``None``) and timeouts
    included; from ``execute_tool_calls`` (so Toolsets and the MCP server)
    and from the LangChain, pydantic-ai and OpenAI Agents bridges (through
    the Function's plugin manager). When no plugin implements this hook it is
    not called at all, so observing costs nothing until a plugin asks for it.
    ``Function.execute`` on its own does not call it: it is the single-call
    primitive, kept lean.

    :param call: the tool call as the model made it.
    :param function: the tool, or ``None`` when no tool has that name.
    :param result: the result that goes back to the model.
    :param duration: seconds spent on this call.
    :param late: ``True`` for the outcome of a sync body that finished after
        its timeout: the model was already told it timed out (that result
        was reported with ``late=False``), and this one says what the body
        did after all. It is called from the worker thread the body ran in.
        ``True`` too for a body still running when its batch was cancelled
        (a sync body, or an ``async def`` one that swallowed its cancellation
        and was abandoned): no result went to the model.
    """
