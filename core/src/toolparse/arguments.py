"""Turning what the model sent into an arguments mapping, within limits."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from . import messages
from .contract import Error

__all__ = ["ArgumentKeyError", "Arguments", "Limits"]


class Limits:
    """How large and how deeply nested the arguments of one call may be.

    :param max_bytes: the largest JSON text accepted, in bytes (UTF-8).
    :param max_depth: the deepest nesting of objects and lists accepted (the
        arguments object itself is depth 1).

    Pass one as ``Function(..., limits=Limits(...))``. The size limit applies to
    JSON text; the depth limit to decoded mappings as well.
    """

    __slots__ = ("max_bytes", "max_depth")

    def __init__(self, max_bytes: int = 1024 * 1024, max_depth: int = 256) -> None:
        if max_bytes < 2 or max_depth < 1:
            raise ValueError("limits must allow at least an empty object")
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    def __repr__(self) -> str:
        return f"Limits(max_bytes={self.max_bytes}, max_depth={self.max_depth})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Limits):
            return NotImplemented
        return (self.max_bytes, self.max_depth) == (other.max_bytes, other.max_depth)

    def __hash__(self) -> int:
        return hash((self.max_bytes, self.max_depth))


DEFAULT_LIMITS = Limits()
_NESTING = frozenset((dict, list, tuple))


def depth_over(value: Mapping[Any, Any], limit: int) -> int:
    """A depth over ``limit`` reached by ``value``, or 0 when within it.

    Level by level, not recursively: a value too deep for the stack is measured too.
    Only dicts, lists and tuples nest (what JSON decodes to).
    """
    level: list[Any] = [value]
    depth = 1
    while True:
        level = [
            child
            for item in level
            for child in (item.values() if type(item) is dict else item)
            if type(child) in _NESTING
        ]
        if not level:
            return 0
        depth += 1
        if depth > limit:
            return depth


# The depth of JSON text, read from its bytes at C speed: only brackets and
# quotes are kept (escapes taken out first, so every quote left delimits a
# string), strings are cut out, and each pass takes away the innermost pairs.
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(c for c in range(256) if c not in b'[]{}"')
_STRING = re.compile(rb'"[^"]*"')
# each byte's step in depth once only brackets are left: "[" in, "]" out
_STEP = tuple(1 if c == ord("[") else -1 if c == ord("]") else 0 for c in range(256))
#: the passes that peel one level each before one linear pass takes over: cheap
#: for the usual shallow text, and no pass per level for many deep siblings
_PASSES = 8
#: below this many characters per allowed level, counting brackets is the cheaper bound
_SCAN_FROM = 64


def text_depth_over(data: str | bytes, limit: int) -> int:
    """A depth over ``limit`` reached by the valid JSON text ``data``, or 0 when within it.

    What :func:`depth_over` says of the decoded value, without walking it
    (which costs about half of decoding).
    """
    kept = _structure(data)
    # each level past the first is first reached by two opening brackets in a
    # row, at a place of its own: "[[" (counted without overlap, so twice)
    # bounds the depth with no pass at all
    if len(kept) // 2 <= limit or 1 + 2 * kept.count(b"[[") <= limit:
        return 0
    for done in range(_PASSES):
        # each pass takes exactly one level off the deepest brackets (its innermost pair)
        if done + len(kept) // 2 <= limit:
            return 0
        if done > limit:
            return limit + 1  # the first level past it, as depth_over says
        kept = kept.replace(b"[]", b"")
    return limit + 1 if _PASSES + _deepest(kept) > limit else 0


def _deepest(kept: bytes | bytearray) -> int:
    """The depth of brackets alone: the running sum's peak, in one pass."""
    return max(accumulate(map(_STEP.__getitem__, kept)), default=0)


# the brackets at odd places of the kept bytes, marked: "[" as "(", "]" as ")"
_MARK_ODD = bytes.maketrans(b"[]", b"()")
_UNMARK = bytes.maketrans(b"()", b"[]")


def _structure(text: str | bytes) -> bytes | bytearray:
    """The brackets of structure of JSON text (``{}`` read as ``[]``), strings cut out.

    Once escapes are out, every quote delimits a string, so a bracket is
    outside the strings when an even number of quotes comes before it. The
    ``k``-th bracket at place ``p`` has ``p - k`` quotes before it: when every
    bracket's place has the parity of its rank, no string holds a bracket and
    the brackets are the structure. That is read with a few passes of the
    bytes' own methods, instead of taking out every pair of quotes one by one.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if b"\\" in data:
        # a backslash pair is one escaped backslash; then \" is a quote inside a string
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = data.translate(_BRACKETS, _NOT_STRUCTURE)
    if b'"' not in kept:
        return kept
    marked = bytearray(kept)
    marked[1::2] = kept[1::2].translate(_MARK_ODD)
    ranked = marked.translate(None, b'"')
    if not ranked[::2].translate(None, b"[]") and not ranked[1::2].translate(None, b"()"):
        return ranked.translate(_UNMARK)
    # a string holds a bracket: two quotes side by side delimit none (removing
    # a pair keeps every later quote's parity), then the strings left go
    kept = kept.replace(b'""', b"")
    return _STRING.sub(b"", kept) if b'"' in kept else kept


#: the decoder ``json.loads`` uses when given no options (the same defaults)
_DECODER = json.JSONDecoder()


def decode(arguments: object, tool: str, limits: Limits) -> dict[str, Any] | Error:
    """Normalise ``arguments`` to a dict, or explain to the model why not.

    ``None`` is ``{}``; a JSON string is decoded; a mapping is copied into a
    plain dict (never mutated). Anything else, invalid JSON, a non-object,
    or arguments over the limits give an :class:`~toolparse.Error`.
    """
    if type(arguments) is dict:
        return arguments
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        return _decoded(arguments, tool, limits)
    if isinstance(arguments, (bytes, bytearray)):
        return _decoded(bytes(arguments).decode("utf-8", "replace"), tool, limits)
    if isinstance(arguments, Mapping):
        # a mapping is handed on as it is (the walk would cost more than most
        # parsers); a parser that runs out of stack on it gets too_deep (recursion_error)
        return dict(arguments)
    return Error(messages.not_an_object(tool, arguments))


def _decoded(text: str, tool: str, limits: Limits) -> dict[str, Any] | Error:
    """JSON text decoded to a dict, within ``limits``."""
    # "surrogatepass": a lone surrogate (valid in a str, not in UTF-8) is
    # counted, never raised on; the decoder below then judges the text
    data: bytes | None = None
    if text.isascii() or len(text) * 4 <= limits.max_bytes:
        size = len(text)  # one byte a character, or within the limit whatever they are
    else:
        data = text.encode("utf-8", "surrogatepass")
        size = len(data)
    if size > limits.max_bytes:
        return Error(messages.too_large(tool, size, limits.max_bytes))
    if not text.strip():
        return {}
    try:
        # json.loads itself, less its checks of what it was given: a text
        # that starts with a byte-order mark goes through it for its message
        value = _DECODER.decode(text) if text[0] != "\ufeff" else json.loads(text)
    except RecursionError:  # deeper than the decoder goes: the depth read from the text
        return Error(messages.too_deep(tool, _deepest(_structure(text)), limits.max_depth))
    except ValueError as exc:
        reason = getattr(exc, "msg", None) or str(exc)
        if isinstance(exc, json.JSONDecodeError):
            reason = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        elif "digits" in reason:
            # Python's own limit on integer text, worded for the model (no
            # hint about a setting it cannot change)
            reason = f"an integer has more than {sys.get_int_max_str_digits() or 4300} digits"
        return Error(messages.invalid_json(tool, reason), exc)
    if not isinstance(value, dict):
        return Error(messages.not_an_object(tool, value))
    limit = limits.max_depth
    # a short text: so few brackets cannot nest too deeply (a level takes two
    # characters, so most calls are not even counted); a long one is read
    chars = len(text)
    if chars > 2 * limit + 1 and (
        chars > _SCAN_FROM * limit or text.count("{") + text.count("[") > limit
    ):
        deep = text_depth_over(text if data is None else data, limit)
        if deep:
            return Error(messages.too_deep(tool, deep, limit))
    return value


def recursion_error(tool: str, arguments: Mapping[Any, Any], limits: Limits) -> str | None:
    """The message for a parser that ran out of stack, when the arguments are to blame."""
    deep = depth_over(arguments, limits.max_depth)
    return messages.too_deep(tool, deep, limits.max_depth) if deep else None


class ArgumentKeyError(KeyError):
    """A tool body read an argument name that was not sent."""

    def __init__(self, key: object, arguments: Mapping[Any, Any]) -> None:
        super().__init__(key)
        self.key = key
        self.arguments = arguments


class Arguments(dict):  # type: ignore[type-arg]
    """The dict a tool body receives when no parser is set.

    A plain ``dict`` in every way, except that reading a missing key raises
    :class:`ArgumentKeyError`, which lets the core tell "the model used the
    wrong name" apart from a ``KeyError`` on some other mapping.
    """

    __slots__ = ()

    def __missing__(self, key: object) -> Any:
        raise ArgumentKeyError(key, self)
