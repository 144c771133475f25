"""The tools of a batch: the name → Function table, and the look-up of a call's tool.

A batch looks each call's tool up by its name first; only a miss builds the
provider aliases (``math_factorial`` for ``math.factorial``), since most
models call tools by the names they were given. A :class:`~toolparse.Toolset`
brings both tables built at definition, so a batch over it builds neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from . import messages
from ._aliases import alias_routes
from .errors import FunctionDefinitionError

if TYPE_CHECKING:
    from .function import Function
    from .results import ToolCall
    from .toolset import Toolset

__all__ = ["Lookup", "tables"]


def tables(functions: Iterable[Function] | Toolset) -> tuple[dict[str, Function], Any]:
    """The name → Function map, and the source of alias routes (built on a miss).

    :raises FunctionDefinitionError: two of ``functions`` share a name.
    """
    if isinstance(functions, (list, tuple)):
        fns: Sequence[Function] = functions
    else:
        table = getattr(functions, "_table", None)
        if table is not None:
            return table, functions  # a Toolset: both built once, at definition
        fns = list(functions)
    table = {fn.name: fn for fn in fns}
    if len(table) != len(fns):
        _duplicates(fns)
    return table, fns


def _duplicates(functions: Iterable[Function]) -> None:
    # only reached when the table came out shorter: the common case pays for
    # one len() instead of a set of the names
    seen: set[str] = set()
    for fn in functions:
        if fn.name in seen:
            raise FunctionDefinitionError([("functions", messages.duplicate_tool(fn.name))])
        seen.add(fn.name)


class Lookup:
    """Finds the Function of a call: by name, else by a provider alias of its name.

    :param table: the name → Function map of :func:`tables`.
    :param source: a Toolset (its routes are built) or the Functions (routes built on a miss).
    """

    __slots__ = ("routes", "source", "table")

    def __init__(self, table: dict[str, Function], source: Any) -> None:
        self.table = table
        self.source = source
        self.routes: dict[str, Function] | None = None

    def find(self, name: object) -> Function | None:
        """The tool called ``name`` (or exported under it); ``None`` for no tool or no string."""
        if type(name) is str:
            found = self.table.get(name)
            if found is not None:
                return found
            if self.routes is None:
                routes = getattr(self.source, "_routes", None)
                if routes is None:
                    routes = alias_routes(self.table.values())
                self.routes = routes
            return self.routes.get(name)
        return None

    def names(self, call: ToolCall) -> list[str]:
        """The names the model can call the tools by (as exported to its provider)."""
        # the providers package loads on this error path only (no cycle: it imports no calls)
        from .providers import _callable_names

        return _callable_names(self.source, call)
