"""What the plain parser's converters return on failure, and its leaf converters.

The leaves (JSON scalars, fixed choices, a field another adapter validates) speak with the
adapter SDK's shared words.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..adapter import JSON_TYPES, MAX_PROBLEMS, one_of_reason, type_reason
from ..contract import Error, Ok
from ..problems import NOT_GIVEN, ArgumentProblem, ProblemKind, invalid_arguments
from ._nodes import AnyNode, ChoiceNode, CustomNode, Node, ScalarNode

__all__ = ["MISSING", "OBJECT", "Converter", "Failed", "fail", "joined", "leaf", "rejection"]

Converter = Callable[[Any], Any]

#: what ``dict.get`` gives for a name not sent
MISSING: Any = object()
OBJECT = type_reason("object")
_NUMBER = type_reason("number")


class Failed:
    """What a converter returns instead of a value when it found problems.

    Each problem is ``[reversed_path, reason, received, kind]``: a parent
    appends its key to the reversed path (cheaper than prepending). ``more``
    counts the problems found past those kept.
    """

    __slots__ = ("more", "problems")

    def __init__(self, problems: list[list[Any]], more: int = 0) -> None:
        self.problems = problems
        self.more = more


def fail(reason: str, received: Any = NOT_GIVEN, kind: ProblemKind = "invalid") -> Failed:
    return Failed([[[], reason, received, kind]])


def joined(
    failed: Failed | None, more: Failed, key: str | int, limit: int = MAX_PROBLEMS
) -> Failed:
    """``more``'s problems moved below ``key`` and added to ``failed``; past ``limit``, counted.

    (A list of 200,000 wrong items costs a converter call each, and no more.)
    """
    problems = more.problems
    if failed is not None and len(failed.problems) >= limit:
        failed.more += len(problems) + more.more
        return failed
    for problem in problems:
        problem[0].append(key)
    if failed is None:
        return more  # (a child keeps no more problems than its parent may)
    kept = failed.problems
    kept += problems
    failed.more += more.more
    if len(kept) > limit:
        failed.more += len(kept) - limit
        del kept[limit:]
    return failed


def rejection(failed: Failed, arguments: Any, accepted: tuple[str, ...]) -> Error:
    """The one ``Error`` of a call whose arguments failed (unknown top-level names named too)."""
    problems = [
        ArgumentProblem(tuple(reversed(path)), reason, received, kind)
        for path, reason, received, kind in failed.problems
    ]
    return invalid_arguments(problems, arguments=arguments, accepted=accepted, more=failed.more)


def leaf(node: Node, as_sent: bool) -> Converter | None:
    """The converter of a scalar, a choice, ``Any`` or a custom type (``None``: none of those)."""
    if isinstance(node, ScalarNode):
        if node.type is float:
            return _number_as_sent if as_sent else _number
        return _scalar(node.type)
    if isinstance(node, ChoiceNode):
        return _choice(node)
    if isinstance(node, CustomNode) and node.parser is not None:
        return _delegated(node.parser)
    return _identity if isinstance(node, (AnyNode, CustomNode)) else None


def _identity(value: Any) -> Any:
    return value


@functools.cache  # (one per JSON type: every Function's parameters share them)
def _scalar(kind: type) -> Converter:
    reason = type_reason(JSON_TYPES[kind])

    def convert_scalar(value: Any) -> Any:
        return value if type(value) is kind else fail(reason, value)

    return convert_scalar


def _number(value: Any) -> Any:
    kind = type(value)
    if kind is float:
        return value
    if kind is int:
        try:
            return float(value)
        except OverflowError:  # an integer of hundreds of digits
            return fail("must be a number within the range of a float", value)
    return fail(_NUMBER, value)


def _number_as_sent(value: Any) -> Any:
    """:func:`_number`'s check, the value left as sent (an integer stays an integer)."""
    checked = _number(value)
    return checked if type(checked) is Failed else value


def _choice(node: ChoiceNode) -> Converter:
    # keyed by JSON type as well as value: true == 1 and 1 == 1.0 in Python
    table = {(type(v), v): parsed for v, parsed in node.choices}
    types = frozenset(type(v) for v, _ in node.choices)
    reason = one_of_reason([v for v, _ in node.choices])

    def convert_choice(value: Any) -> Any:
        kind = type(value)
        found = table.get((kind, value), MISSING) if kind in types else MISSING
        return fail(reason, value) if found is MISSING else found

    return convert_choice


def _delegated(parser: Callable[[Any], Any]) -> Converter:
    """The converter of a field another installed adapter validates: its problems kept, moved below."""

    def convert_delegated(value: Any) -> Any:
        if type(value) is not dict:
            return fail(OBJECT, value)
        out = parser(value)
        if isinstance(out, Ok):
            return value if out.value is None else out.value
        found = getattr(out.exception, "problems", None) or [ArgumentProblem((), out.message)]
        return Failed([[list(reversed(p.path)), p.reason, p.received, p.kind] for p in found])

    return convert_delegated
