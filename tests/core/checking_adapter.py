"""A test adapter whose parser checks the very schema it exports, for the plan's shortcuts.

What the adapter says of its parser (``Compiled.nulls_after_reject``,
``verdict``, ``closed``) lets the plan skip steps; each fact is true of this
parser, so every shortcut must give the verdict the plain order gives (the
restoring step first, then the parser, then the policy). The parser counts
its calls and keeps a copy of each arguments dict it is given; so does the
verdict.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import strategies as st

import toolparse as tp
import toolparse.problems as problems_module
from toolparse.adapter import Compiled, type_reason
from toolparse.problems import ArgumentProblem, invalid_arguments

__all__ = [
    "ACCEPTED",
    "CALLS",
    "AsyncChecker",
    "Checker",
    "CheckingAdapter",
    "checked_function",
    "counted_renders",
    "counted_restores",
    "schema",
    "verdict_of",
]

_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "tag": {"type": "string"},
        "meta": {"type": "object", "properties": {"x": {"type": "integer"}}},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"n": {"type": "integer"}, "note": {"type": "string"}},
                "required": ["n"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["id"],
}

#: the top-level names, in the schema's order (the core's and the messages')
ACCEPTED = tuple(_SCHEMA["properties"])


def schema(closed: bool = False) -> dict[str, Any]:
    """The tool's schema; ``closed``: no top-level name outside :data:`ACCEPTED`."""
    found = copy.deepcopy(_SCHEMA)
    if closed:
        found["additionalProperties"] = False
    return found


_KINDS: dict[str, type] = {"integer": int, "string": str, "array": list, "object": dict}


def _problems(value: Any, node: dict[str, Any], path: tuple[Any, ...]) -> Iterator[ArgumentProblem]:
    """Every place ``value`` breaks ``node`` (a strict checker: a bool is no integer)."""
    kind = node.get("type")
    if type(value) is not _KINDS[kind]:
        yield ArgumentProblem(path, type_reason(kind))
        return
    if kind == "array":
        for i, item in enumerate(value):
            yield from _problems(item, node["items"], (*path, i))
    elif kind == "object":
        props = node.get("properties", {})
        for name in node.get("required", []):
            if name not in value:
                yield ArgumentProblem.missing((*path, name))
        for name, item in value.items():
            if name in props:
                yield from _problems(item, props[name], (*path, name))
            elif node.get("additionalProperties") is False:
                yield ArgumentProblem.unrecognized((*path, name))


class Checker:
    """The schema's own checker as a parser (every problem at once), counting its calls."""

    def __init__(self, closed: bool = False) -> None:
        self.schema = schema(closed)
        self.seen: list[dict[str, Any]] = []
        self.judged: list[dict[str, Any]] = []
        self.explained: list[dict[str, Any]] = []

    @property
    def calls(self) -> int:
        """How many calls the parser parsed."""
        return len(self.seen)

    def __call__(self, args: dict[str, Any]) -> tp.ParseResult:
        self.seen.append(copy.deepcopy(args))
        found = list(_problems(args, self.schema, ()))
        if not found:
            return tp.ok()
        return invalid_arguments(found, arguments=args, accepted=ACCEPTED)

    def verdict(self, args: dict[str, Any]) -> bool:
        """The parser's verdict alone: ``True`` exactly when it returns ``Ok(None)``."""
        self.judged.append(copy.deepcopy(args))
        return not any(_problems(args, self.schema, ()))

    def explain(self, args: dict[str, Any]) -> tp.ParseResult:
        """The parser's answer for a call the verdict refused, which must have a problem."""
        self.explained.append(copy.deepcopy(args))
        found = list(_problems(args, self.schema, ()))
        if not found:
            raise AssertionError(f"explained a valid call: {args!r}")
        return invalid_arguments(found, arguments=args, accepted=ACCEPTED)


class AsyncChecker(Checker):
    """The same checker as an ``async def`` parser."""

    async def __call__(self, args: dict[str, Any]) -> tp.ParseResult:  # type: ignore[override]
        await asyncio.sleep(0)
        return Checker.__call__(self, args)


class CheckingAdapter:
    """An adapter whose parser checks the schema it exports, saying what it chooses of it."""

    name = "checking"

    def __init__(
        self,
        parser: Checker,
        *,
        after: bool = True,
        verdict: Callable[[dict[str, Any]], Any] | bool = False,
        closed: bool = False,
        explain: bool = False,
    ) -> None:
        self.parser = parser
        self.after = after
        self.verdict = parser.verdict if verdict is True else (verdict or None)
        self.closed = closed
        self.explain = parser.explain if explain else None

    def accepts(self, source: object) -> bool:
        return source == "checked"

    def compile(self, source: object, **_: Any) -> Compiled:
        return Compiled(
            copy.deepcopy(self.parser.schema),
            self.parser,
            accepted=ACCEPTED,
            nulls_after_reject=self.after,
            verdict=self.verdict,
            closed=self.closed,
            explain=self.explain,
        )


def checked_function(
    body: Callable[..., Any] = lambda a: a,
    parser: Checker | None = None,
    *,
    after: bool = True,
    verdict: Callable[[dict[str, Any]], Any] | bool = False,
    closed: bool = False,
    explain: bool = False,
    schema_closed: bool | None = None,
    **kwargs: Any,
) -> tp.Function:
    """A Function over :class:`CheckingAdapter` (its schema closed when ``closed``, unless told)."""
    parser = parser or Checker(closed if schema_closed is None else schema_closed)
    adapter: Any = CheckingAdapter(
        parser, after=after, verdict=verdict, closed=closed, explain=explain
    )
    return tp.Function("t", body, args_schema="checked", adapter=adapter, **kwargs)


def counted_restores(fn: tp.Function) -> list[Any]:
    """Wrap the Function's restoring step; the list receives each arguments dict it is given."""
    space = fn._parse.__globals__
    seen: list[Any] = []
    restore: Callable[[Any], Any] = space["restore"]

    def counting(args: Any) -> Any:
        seen.append(args)
        return restore(args)

    space["restore"] = counting
    return seen


@contextmanager
def counted_renders() -> Iterator[list[int]]:
    """Count the rejections rendered while open (each text is written by ``problems.invalid``)."""
    count: list[int] = []
    original = problems_module.invalid

    def counting(*args: Any, **kwargs: Any) -> Any:
        count.append(1)
        return original(*args, **kwargs)

    problems_module.invalid = counting  # type: ignore[assignment]
    try:
        yield count
    finally:
        problems_module.invalid = original


def verdict_of(result: Any) -> tuple[str, Any]:
    """What the model reads of a result (an Error's exception compares by identity)."""
    return ("error", result.message) if isinstance(result, tp.Error) else ("ok", result[0])


# calls as a model sends them to this schema: nulls anywhere, wrong types, an
# unknown name and a near-typo of one ("tga"), values and their lists nested
_LEAF = st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=2), st.booleans())
_ITEM = st.dictionaries(st.sampled_from(["n", "note", "zz"]), _LEAF, max_size=3)
CALLS = st.fixed_dictionaries(
    {},
    optional={
        "id": st.one_of(st.integers(0, 3), _LEAF),
        "tag": st.one_of(st.text(max_size=2), _LEAF),
        "meta": st.one_of(_LEAF, st.dictionaries(st.sampled_from(["x", "y"]), _LEAF, max_size=2)),
        "items": st.one_of(_LEAF, st.lists(st.one_of(_ITEM, _LEAF), max_size=3)),
        "extra": _LEAF,
        "tga": _LEAF,
    },
)
