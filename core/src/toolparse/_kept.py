"""An adapter's compiled forms, kept for the tools defined after the first.

Many tools are defined over one source (a model class used by several tools,
or a tool defined again per request). An adapter that keeps what compiling a
source gave hands each later tool a copy of the schema (a tool may change its
own) and the same parser, with a ``key`` so the core shares what it builds
from the schema too (see :class:`~toolparse.adapter.Compiled`, its ``key``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import threading

    from .adapter import Compiled

__all__ = ["KeptForms", "copied"]


def copied(value: Any) -> Any:
    """A copy of a JSON Schema's containers (its leaves are immutable JSON values)."""
    if type(value) is dict:
        return {key: copied(sub) for key, sub in value.items()}
    if type(value) is list:
        return [copied(sub) for sub in value]
    return value


class KeptForms:
    """Compiled forms kept per key: the last ``limit`` used, safe to share between threads.

    The key must hold everything the compiled form depends on (the source
    class, the policy, the adapter's own settings), as for
    the ``key`` of :class:`~toolparse.adapter.Compiled`, which each tool's copy carries.
    """

    __slots__ = ("_forms", "_limit", "_lock")

    def __init__(self, limit: int = 256) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit!r}")
        self._limit = limit
        self._forms: OrderedDict[Hashable, Compiled] = OrderedDict()
        # tools may be defined from several threads (one per request): the
        # eviction reads the oldest key while another thread may insert one.
        # (imported here: ``import toolparse`` loads this module, not threads)
        import threading

        self._lock: threading.Lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._forms)

    def __contains__(self, key: object) -> bool:
        return key in self._forms

    def get(self, key: Hashable, *, parser: bool = True) -> Compiled | None:
        """A new tool's own compiled form of ``key``, or ``None`` when none is kept.

        :param parser: whether the tool asked for a parser (``False``: the
            copy has none).
        """
        with self._lock:
            found = self._forms.get(key)
            if found is None:
                return None
            self._forms.move_to_end(key)
        return _for_tool(found, key, parser)

    def keep(self, key: Hashable, compiled: Compiled, *, parser: bool = True) -> Compiled:
        """Keep ``compiled`` (with its parser) under ``key``; the tool's own copy of it.

        The least recently used form goes once ``limit`` are kept.
        """
        with self._lock:
            self._forms[key] = compiled
            self._forms.move_to_end(key)
            if len(self._forms) > self._limit:
                self._forms.popitem(last=False)
        return _for_tool(compiled, key, parser)


def _for_tool(found: Compiled, key: Hashable, parser: bool) -> Compiled:
    # the tool's own schema containers, the kept parser, and the key that says
    # this compiled form is the same as the others of its key (built by its
    # own class: toolparse.adapter re-exports this module, so no import back)
    return type(found)(
        copied(found.schema),
        found.parser if parser else None,
        accepted=found.accepted,
        required=found.required,
        key=key,
        nulls_after_reject=found.nulls_after_reject,
        verdict=found.verdict if parser else None,
    )
