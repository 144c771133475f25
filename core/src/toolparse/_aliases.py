"""Routing calls made under a provider's alias of a tool name back to the tool."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .function import Function
    from .messages._index import NameIndex

__all__ = ["Aliases", "ToolNames", "alias_clashes", "alias_routes", "exported_aliases", "kept"]

#: ``(provider, [(tool, the name that provider gets it under), ...])``, for each
#: built-in provider; a tool the provider cannot take is left out
Aliases = list[tuple[str, list[tuple["Function", str]]]]


def exported_aliases(functions: Iterable[Function]) -> Aliases:
    """The name each built-in provider exports each tool under: each rule read once."""
    # the providers load on first use: most programs never export a schema
    from .providers import name_rules

    functions = list(functions)
    found: Aliases = []
    for provider, rule in name_rules():
        exported: list[tuple[Function, str]] = []
        for fn in functions:
            try:
                exported.append((fn, rule.alias(fn.name, provider)))
            except ValueError:
                continue  # cannot be offered to this provider: nothing to route
        found.append((provider, exported))
    return found


def alias_clashes(aliases: Aliases) -> list[tuple[str, str, str, str]]:
    """``(first tool, second tool, provider, alias)``, once per pair a provider exports alike."""
    clashes: list[tuple[str, str, str, str]] = []
    reported: set[tuple[str, str]] = set()
    for provider, exported in aliases:
        seen: dict[str, str] = {}
        for fn, alias in exported:
            other = seen.get(alias)
            if other is not None and (other, fn.name) not in reported:
                reported.add((other, fn.name))
                clashes.append((other, fn.name, provider, alias))
            seen.setdefault(alias, fn.name)
    return clashes


def alias_routes(
    functions: Iterable[Function], aliases: Aliases | None = None
) -> dict[str, Function]:
    """Each provider alias that is not a tool name → its tool (one two tools share: neither)."""
    functions = list(functions)
    names = {fn.name for fn in functions}
    routes: dict[str, Function] = {}
    clashes: set[str] = set()
    for _provider, exported in aliases if aliases is not None else exported_aliases(functions):
        for fn, alias in exported:
            if alias != fn.name and alias not in names and routes.setdefault(alias, fn) is not fn:
                clashes.add(alias)
    for alias in clashes:
        del routes[alias]
    return routes


class ToolNames:
    """The names a list of tools answers to (routes, per provider, indexed), made on first use."""

    __slots__ = ("_callable", "_exported", "_found", "_table", "functions")

    def __init__(
        self,
        functions: Sequence[Function],
        table: dict[str, Function],
        routes: dict[str, Function] | None = None,
    ) -> None:
        self.functions, self._table, self._found = functions, table, routes
        self._exported: dict[str, dict[str, str]] = {}  # provider -> exported name -> tool name
        self._callable: dict[str, list[str] | NameIndex] = {}  # provider -> names to suggest

    def __iter__(self) -> Iterator[Function]:
        return iter(self.functions)

    @property
    def _routes(self) -> dict[str, Function]:
        if self._found is None:
            self._found = alias_routes(self.functions)
        return self._found

    def _names_for(self, provider: str, rule: Any) -> dict[str, str]:
        """Exported name -> tool name for one provider (worked out once)."""
        found = self._exported.get(provider)
        if found is None:
            from .providers import _exported_names

            found = self._exported[provider] = _exported_names(self.functions, provider, rule)
        return found


#: the tables of the last long lists of tools seen, by their tools (a tuple of them: Functions
#: compare and hash by identity, so a key names these very objects, and an entry holds them)
_KEPT: dict[tuple[Function, ...], ToolNames] = {}


def kept(tools: list[Function], table: dict[str, Function] | None = None) -> ToolNames | None:
    """The tables kept for a list of these very tools; with ``table``, keep them."""
    key = tuple(tools)
    if table is None:
        return _KEPT.get(key)
    if len(_KEPT) >= 8:  # the first kept goes first
        _KEPT.pop(next(iter(_KEPT), key), None)
    found = _KEPT[key] = ToolNames(tools, table)
    return found
