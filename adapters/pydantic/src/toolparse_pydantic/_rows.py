"""pydantic 2's common rejection as rows: one ``(path, reason, received, kind)`` per error.

The core renders rows without building the problems (see
:func:`toolparse.invalid_rows`); the errors rows cannot say (a union's member,
a deeper name, a union's tag) go through the :class:`~._mapper.Mapper` as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolparse import NOT_GIVEN
from toolparse.adapter import REQUIRED
from toolparse.problems import ProblemRow

from ._errors import _LEAVES, _NAMES, _TAGS, _walk
from ._reasons import _CTX_KEY, CONTEXTUAL, FIXED, TYPE_KINDS, _remembered, reason

if TYPE_CHECKING:
    from ._mapper import Mapper

__all__ = ["problem_rows"]

# not a wrong value at its own key: a name (listed by name) or a union's tag
# (a problem at the tag's key)
_NOT_PLAIN = _NAMES | _TAGS


def problem_rows(
    errors: Sequence[Mapping[str, Any]], arguments: Any, mapper: Mapper
) -> list[ProblemRow] | None:
    """:meth:`Mapper._every` as rows; ``None`` where it would do more than build one per error.

    That is a union's member (its type words may join the next one's), a
    missing or unknown name deeper than the top level, a union's tag, and
    arguments that are not a ``dict``.
    """
    if type(arguments) is not dict:
        return None  # (a Function's arguments are a dict: the rest is the general way)
    out: list[ProblemRow] = []
    append = out.append
    for err in errors:
        kind = err["type"]
        loc = err["loc"]
        text = FIXED.get(kind)
        if text is not None and len(loc) == 1 and loc[0] in arguments:
            value = err.get("input", NOT_GIVEN)
            if type(value) not in _LEAVES and isinstance(value, Mapping):
                value = NOT_GIVEN
            append((loc, text, value, "invalid"))
            continue
        if kind == "missing" and len(loc) == 1 and type(loc[0]) is str:
            append((loc, REQUIRED, NOT_GIVEN, "missing"))
            continue
        if kind in _NOT_PLAIN:
            return None  # (no fixed reason is a name's or a tag's)
        # loc's steps all into decoded JSON: the path is loc (_walk's
        # answer, without its call and its list)
        data: Any = arguments
        for part in loc:
            if type(part) is str:
                if type(data) is dict and part in data:
                    data = data[part]
                    continue
            elif type(data) is list and type(part) is int and 0 <= part < len(data):
                data = data[part]
                continue
            path, _, whole = _walk(loc, arguments, key_at_end=False)
            break
        else:
            path, whole = loc, True
        fixed = text is not None
        if text is None:
            # what _other does for a reason of its own (a bound, a choice)
            ctx = err.get("ctx")
            if ctx is None:
                if kind in CONTEXTUAL:
                    # (the error's index reads its context from the exception:
                    # with none given, the error holds all there is)
                    text = mapper._reason(kind, err, 0, None, [])
                else:
                    text = reason(kind, ctx, err["msg"])
            else:
                # reason's own memo read first, without its call (a bound's
                # reason: the most common one with a context)
                key = _CTX_KEY.get(kind)
                text = ""
                if key is not None and key in ctx:
                    value = ctx[key]
                    try:
                        text = _remembered.get((kind, type(value), value)) or ""
                    except TypeError:  # an unhashable value: reason's own way
                        pass
                if not text:
                    text = reason(kind, ctx, err["msg"])
        elif not whole and kind in TYPE_KINDS:
            return None
        if path:
            # what _add and _other do (_received, written out): pydantic's
            # errors always hold their input; _other's default, None, kept
            value = err.get("input", NOT_GIVEN if fixed else None)
            if type(value) not in _LEAVES and isinstance(value, Mapping):
                value = NOT_GIVEN
        else:
            value = NOT_GIVEN
        append((path, text, value, "invalid"))
    return out
