"""Routing calls made under a provider's alias of a tool name back to the tool."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .function import Function

__all__ = ["Aliases", "alias_clashes", "alias_routes", "exported_aliases"]

#: ``(provider, [(tool, the name that provider gets it under), ...])``, for each
#: built-in provider; a tool the provider cannot take is left out
Aliases = list[tuple[str, list[tuple["Function", str]]]]


def exported_aliases(functions: Iterable[Function]) -> Aliases:
    """The name each built-in provider exports each tool under, worked out once.

    Pass the result to :func:`alias_clashes` and :func:`alias_routes` so that
    a set of tools checked and routed at definition reads each rule once.
    """
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
    """``(first tool, second tool, provider, alias)`` for tools a provider would export alike.

    Each pair of tools is named once, for the first provider they clash under.
    """
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
    """Every provider alias of these tools' names that is not itself a tool name → its tool.

    An alias two tools share routes to neither (a :class:`Toolset` refuses
    such a pair at definition). ``aliases``: what :func:`exported_aliases`
    gave for these tools (else it is worked out here).
    """
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
