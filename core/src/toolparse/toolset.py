"""``Toolset``: a fixed set of tools, checked once, for the whole tool-call loop."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from . import messages
from ._aliases import ToolNames, alias_clashes, alias_routes, exported_aliases
from ._repair import DEFAULT, Repair, definition_problem
from .calls import aexecute_tool_calls, execute_tool_calls
from .errors import FunctionDefinitionError
from .function import Function

if TYPE_CHECKING:
    from .plugins import PluginManager
    from .providers import Provider, ToolCallStream
    from .results import ToolCall, ToolResult

__all__ = ["Toolset"]

_SCALARS = frozenset({str, int, float, bool, type(None)})


def _copied(value: Any) -> Any:
    """A deep copy of an export: JSON values walked here (``copy.deepcopy`` is 3x slower)."""
    kind = type(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    return value if kind in _SCALARS else copy.deepcopy(value)


class Toolset:
    """A fixed set of tools: unique names and aliases, checked once, and the loop's methods.

    ``Toolset(functions)`` checks at definition that no two tools share a
    name, and that no two share the alias a provider would export them under
    (``a.b`` and ``a_b`` are both ``a_b`` for OpenAI); either raises
    :class:`~toolparse.FunctionDefinitionError` naming both tools. The
    name → tool map and the alias routes are built once. A Toolset is
    immutable and iterates over its Functions, so it goes wherever a list of
    Functions goes.

    :param functions: the tools (Functions, or another Toolset).
    :param repair: the ``repair=`` of every tool that did not choose one (see
        :class:`~toolparse.Function`); the others keep theirs.
    """

    __slots__ = ("_exports", "_names", "functions")

    functions: tuple[Function, ...]
    _names: ToolNames  # what is worked out on first use: per provider, the names and the export
    _exports: dict[tuple[int, bool | None], tuple[Provider, list[Any]]]

    def __init__(self, functions: Iterable[Function], *, repair: Repair | None = DEFAULT) -> None:
        fns = tuple(functions)
        errors: list[tuple[str, str]] = []
        table: dict[str, Function] = {}
        for i, fn in enumerate(fns):
            if not isinstance(fn, Function):
                errors.append((f"functions[{i}]", f"expected a Function, got {fn!r:.60}"))
            elif fn.name in table:
                errors.append(("functions", messages.duplicate_tool(fn.name)))
            else:
                table[fn.name] = fn
        if (problem := definition_problem(repair)) is not None:
            errors.append(("repair", problem))
        if errors:
            raise FunctionDefinitionError(errors, subject="Toolset")
        if repair is not DEFAULT:  # chosen (even "safe"): given to each tool that chose none
            fns = tuple(
                fn.replace(repair=repair) if type(fn._given["repair"]) is type(DEFAULT) else fn
                for fn in fns
            )
            table = {fn.name: fn for fn in fns}
        found = exported_aliases(fns)  # every provider's rule read once, for both uses
        clashes = [("functions", messages.alias_clash(*c)) for c in alias_clashes(found)]
        if clashes:
            raise FunctionDefinitionError(clashes, subject="Toolset")
        set_ = object.__setattr__
        set_(self, "functions", fns)
        set_(self, "_names", ToolNames(fns, table, alias_routes(fns, found)))
        set_(self, "_exports", {})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Toolset is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        # the tools only: the tables and anything cached are built again on load
        return (Toolset, (self.functions,))

    def __iter__(self) -> Iterator[Function]:
        return iter(self.functions)

    def __len__(self) -> int:
        return len(self.functions)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __repr__(self) -> str:
        return f"Toolset({', '.join(self._names._table)})"

    def get(self, name: str) -> Function | None:
        """The tool called ``name``, or exported under the alias ``name``; else ``None``."""
        return self._names._table.get(name) or self._names._routes.get(name)

    def names(self) -> list[str]:
        """The tool names, in definition order."""
        return list(self._names._table)

    # -- the loop ------------------------------------------------------------

    def to_tools(self, provider: str | Provider, *, strict: bool | None = None) -> list[Any]:
        """The value of the request's ``tools`` for ``provider``.

        Worked out once per provider and ``strict``: each call returns a new
        copy of it, the caller's to change.

        :param strict: strict mode for every tool; ``None`` keeps each tool's own.
        """
        from .providers import _provider, to_tools

        found = _provider(provider, self.functions[0]._pm if self.functions else None)
        key = (id(found), None if strict is None else bool(strict))
        kept = self._exports.get(key)
        if kept is None or kept[0] is not found:  # (an id the provider's after it is gone)
            kept = self._exports[key] = (found, to_tools(self.functions, found, strict=strict))
        copied: list[Any] = _copied(kept[1])
        return copied

    def parse_tool_calls(self, payload: Any, provider: str | Provider) -> list[ToolCall]:
        """The calls in a response, with aliased names mapped back to the tool names."""
        from .providers import parse_tool_calls

        return parse_tool_calls(payload, provider, functions=self)

    def execute(
        self,
        calls: Iterable[ToolCall],
        context: Any = None,
        *,
        timeout: float | None = None,
        max_concurrency: int | None = None,
        plugin_manager: PluginManager | None = None,
    ) -> list[ToolResult]:
        """:func:`toolparse.execute_tool_calls` over this toolset."""
        return execute_tool_calls(
            self,
            calls,
            context,
            timeout=timeout,
            max_concurrency=max_concurrency,
            plugin_manager=plugin_manager,
        )

    async def aexecute(
        self,
        calls: Iterable[ToolCall],
        context: Any = None,
        *,
        timeout: float | None = None,
        max_concurrency: int | None = None,
        plugin_manager: PluginManager | None = None,
    ) -> list[ToolResult]:
        """:func:`toolparse.aexecute_tool_calls` over this toolset."""
        return await aexecute_tool_calls(
            self,
            calls,
            context,
            timeout=timeout,
            max_concurrency=max_concurrency,
            plugin_manager=plugin_manager,
        )

    def to_result_message(
        self, results: Iterable[ToolResult], provider: str | Provider
    ) -> list[dict[str, Any]]:
        """The message(s) carrying ``results`` back (see :func:`toolparse.providers.to_result_message`)."""
        from .providers import to_result_message

        return to_result_message(results, provider)

    def stream(self, provider: str | Provider) -> ToolCallStream:
        """A :class:`~toolparse.providers.ToolCallStream` of one streamed response, for these tools."""
        from .providers import ToolCallStream

        return ToolCallStream(provider, self)

    def _names_for(self, provider: str, rule: Any) -> dict[str, str]:
        """Exported name → tool name for one provider (cached)."""
        return self._names._names_for(provider, rule)
