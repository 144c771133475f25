"""Routing calls made under a provider's alias of a tool name back to the tool."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .function import Function

__all__ = ["alias_routes", "rules"]


def rules() -> list[tuple[str, Any]]:
    """``(provider, name rule)`` of each built-in provider."""
    # the providers load on first use: most programs never export a schema
    from .providers import name_rules

    return name_rules()


def alias_routes(functions: Iterable[Function]) -> dict[str, Function]:
    """Every provider alias of these tools' names that is not itself a tool name → its tool.

    An alias two tools share routes to neither (a :class:`Toolset` refuses
    such a pair at definition).
    """
    functions = list(functions)
    names = {fn.name for fn in functions}
    routes: dict[str, Function] = {}
    clashes: set[str] = set()
    for provider, rule in rules():
        for fn in functions:
            try:
                alias = rule.alias(fn.name, provider)
            except ValueError:
                continue  # cannot be offered to this provider: nothing to route
            if alias == fn.name or alias in names:
                continue
            other = routes.get(alias)
            if other is not None and other is not fn:
                clashes.add(alias)
            routes[alias] = fn
    for alias in clashes:
        del routes[alias]
    return routes
