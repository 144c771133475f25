"""Repairing what models commonly get wrong in arguments: ``Function(repair=...)``.

``"safe"`` decodes an object or an array sent as its JSON text where the
schema wants one (the null-restoring walk, built to repair: see
:mod:`toolparse.nulls`); ``"json"`` also mends malformed argument text with the
``json-repair`` library, once the text failed to decode. Every repair is a
record on the ``toolparse.repair`` logger and, while a list is set in
:data:`recording` (the tracing sets one per span), an entry in that list.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from contextvars import ContextVar
from importlib.util import find_spec
from typing import Any, Literal, cast

from .arguments import Limits, depth_over
from .contract import Error
from .messages import path_text
from .nulls import Notes, Restorer, repaired

__all__ = [
    "DEFAULT",
    "REPAIRS",
    "Mender",
    "Repair",
    "definition_problem",
    "is_default",
    "recording",
    "text_mender",
]

Repair = Literal["safe", "json"]
REPAIRS: tuple[Repair, ...] = ("safe", "json")


class _Default(str):
    """``"safe"`` left as the default: a Toolset's ``repair=`` replaces it, a chosen one stays."""

    __slots__ = ()


#: ``repair="safe"``, not chosen (equal to ``"safe"`` and read as it)
DEFAULT: Repair = cast("Repair", _Default("safe"))


def is_default(repair: object) -> bool:
    """Whether ``repair`` is the default, not chosen (it survives pickling)."""
    return type(repair) is _Default


log = logging.getLogger("toolparse.repair")

#: while it holds a list, each repair made in this context is appended to it, in words
#: (``"assignee: JSON text decoded"``); a tracer sets one around a call and puts it on
#: the span as ``toolparse.repairs``
recording: ContextVar[list[str] | None] = ContextVar("toolparse_repairs", default=None)


def definition_problem(repair: object) -> str | None:
    """What is wrong with a ``repair=`` value, or ``None``."""
    if repair is not None and repair not in REPAIRS:
        return f"must be 'safe', 'json' or None, got {repair!r:.40}"
    if repair == "json" and find_spec("json_repair") is None:
        return 'the "json" repair needs the json-repair library: pip install "toolparse[repair]"'
    return None


def report(tool: str, made: list[str]) -> None:
    """Log the repairs made to one call's arguments, and record them where asked."""
    log.info("repaired the arguments of tool %r: %s", tool, "; ".join(made))
    found = recording.get()
    if found is not None:
        found.extend(made)


class Mender:
    """One tool's repair step: the repairing walk, whose decodings are reported.

    Called like the :class:`~toolparse.nulls.Restorer` it wraps (``deep`` too).
    """

    __slots__ = ("deep", "name", "walk")

    def __init__(self, walk: Restorer, name: str) -> None:
        self.walk = walk
        self.name = name
        self.deep = walk.deep

    def __call__(self, arguments: dict[str, Any]) -> dict[str, Any]:
        notes: Notes = []
        out = self.walk(arguments, notes)
        if notes and (paths := repaired(notes)):
            report(self.name, [f"{path_text(path)}: JSON text decoded" for path in paths])
        return out


def text_mender(name: str, limits: Limits) -> Callable[[object, Error], dict[str, Any] | Error]:
    """The ``"json"`` step: ``mend(arguments, failed)`` repairs text that failed to decode.

    Only text the decoder refused as JSON is repaired; what cannot become an
    object within ``limits`` keeps the decoder's ``failed`` answer.
    """

    def mend(arguments: object, failed: Error) -> dict[str, Any] | Error:
        exc = failed.exception
        if not isinstance(arguments, (str, bytes, bytearray)) or not isinstance(exc, ValueError):
            return failed
        from json_repair import repair_json  # the definition checked that it is installed

        try:
            text = arguments if isinstance(arguments, str) else bytes(arguments).decode("utf-8")
            value = repair_json(text, return_objects=True, skip_json_loads=True)
        except Exception:  # (a library's failure on hostile text is no repair)
            return failed
        # an object with something in it (an empty one is what hopeless text becomes)
        if not isinstance(value, dict) or not value or depth_over(value, limits.max_depth):
            return failed
        why = str(exc)
        if isinstance(exc, json.JSONDecodeError):
            why = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        report(name, [f"malformed JSON text repaired ({why})"])
        return value

    return mend
