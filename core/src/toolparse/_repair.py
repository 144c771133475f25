"""``Function(repair=...)``: the repair steps, each told on the ``toolparse.repair`` logger."""

from __future__ import annotations

from contextvars import ContextVar
from importlib.util import find_spec
from typing import Any, Literal, cast

from .arguments import Limits, depth_over
from .contract import Error
from .messages import path_text
from .nulls import Restorer

__all__ = ["DEFAULT", "Mender", "Repair", "definition_problem", "recording"]

Repair = Literal["safe", "json"]
#: while it holds a list, each repair made in this context is added to it, in words: a tracer
#: sets one around a call, and puts what it holds on the span as ``toolparse.repairs``
recording: ContextVar[list[str] | None] = ContextVar("toolparse_repairs", default=None)


class _Default(str):  # "safe" as the default, not chosen: a Toolset's repair= replaces it
    __slots__ = ()


DEFAULT: Repair = cast("Repair", _Default("safe"))


def definition_problem(repair: object) -> str | None:
    """What is wrong with a ``repair=`` value, or ``None``."""
    if repair is not None and repair not in ("safe", "json"):
        return f"must be 'safe', 'json' or None, got {repair!r:.40}"
    if repair == "json" and find_spec("json_repair") is None:
        return 'the "json" repair needs the json-repair library: pip install "toolparse[repair]"'
    return None


def report(tool: str, made: list[str]) -> None:  # (logged, and recorded where asked)
    from ._log import logger  # (on the first repair: logging loads threading)

    logger("toolparse.repair").info("repaired the arguments of tool %r: %s", tool, "; ".join(made))
    if (found := recording.get()) is not None:
        found.extend(made)


class Mender:
    """One tool's repair steps: the repairing walk (called like it), and ``text``."""

    __slots__ = ("deep", "limits", "name", "plain", "walk")

    def __init__(self, walk: Restorer | None, plain: Restorer | None, name: str, limits: Limits):
        self.walk = None if walk is None else walk.walk
        self.plain, self.name, self.limits = plain, name, limits
        self.deep = None if walk is None else walk.deep

    def __call__(self, arguments: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = self.walk(arguments, 0)  # type: ignore[misc]
        paths = _decoded(arguments, out, ()) if out is not arguments else []
        if paths and self.plain is not None:  # what it decodes too (free-form) is no repair
            paths = _decoded(self.plain(arguments), out, ())
        if paths:
            report(self.name, [f"{path_text(p)}: JSON text decoded" for p in paths])
        return out

    def text(self, arguments: object, failed: Error) -> dict[str, Any] | Error:
        """Argument text the decoder refused as JSON, mended (else ``failed``, as it was)."""
        exc = failed.exception
        if not isinstance(exc, ValueError):  # (only text is refused as JSON)
            return failed
        from json_repair import repair_json  # (the definition checked that it is installed)

        try:
            text = (
                arguments.decode() if isinstance(arguments, (bytes, bytearray)) else str(arguments)
            )
            value = repair_json(text, return_objects=True, skip_json_loads=True)
        except Exception:  # a library's failure on hostile text is no repair
            return failed
        # an empty object is what hopeless text becomes
        if not isinstance(value, dict) or not value or depth_over(value, self.limits.max_depth):
            return failed
        report(self.name, [f"malformed JSON text repaired ({getattr(exc, 'msg', exc)})"])
        return value


def _decoded(before: Any, after: Any, path: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    """Where the walk turned text into an object or an array (it changed ``before``)."""
    if type(before) is str:
        return [path] if type(after) is not str else []
    pairs: Any = ()
    if type(before) is dict is type(after):
        pairs = ((k, before.get(k), v) for k, v in after.items())
    elif type(before) is list is type(after):
        pairs = zip(range(len(after)), before, after, strict=False)
    return [p for k, b, a in pairs if a is not b for p in _decoded(b, a, (*path, k))]
