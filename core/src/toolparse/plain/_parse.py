"""The strict parser for a plain-type node tree, compiled into closures.

Each node becomes one small function ``convert(value) -> parsed`` built once
per tool; a call runs those functions and nothing else (no annotation is
looked at per call). A converter that finds problems returns a
:class:`_Failed` holding them instead of a value; a container prefixes its
key or index to the paths of what its children reported and carries on, so
every problem in the arguments is found in one pass.

The rules are strict: the only coercion is an integer where a number is
expected (``3`` becomes ``3.0``). ``true`` is not an integer, ``"3"`` is not
a number, ``3`` is not a string.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..adapter import REQUIRED
from ..contract import Ok, ParseResult
from ._delegated import delegated
from ._joins import Refused, joined, joined_capped, rejection
from ._nodes import (
    AnyNode,
    ChoiceNode,
    CustomNode,
    DescribedNode,
    DictNode,
    ListNode,
    Node,
    ObjectNode,
    ScalarNode,
    TupleNode,
    UnionNode,
)
from ._reasons import ALL_JSON, TYPE_NAMES, accepts, article, choice_reason, names_of
from ._scalars import (
    _EXACT,
    _LIST,
    _OBJECT,
    _SCALARS,
    KEPT,
    _fail,
    _Failed,
    _identity,
)

__all__ = ["compile_parser"]

Converter = Callable[[Any], Any]

_MISSING: Any = object()


class _Never:
    """No JSON value has this type: the "no shortcut" marker for fast checks."""


# -- the compiler ------------------------------------------------------------------


class _Compiler:
    def __init__(self, policy: str) -> None:
        # "ignore" drops unknown keys of nested objects; otherwise they are refused
        self.drop_unknown = policy == "ignore"
        self.done: dict[tuple[int, bool], Converter] = {}

    def fast(self, node: Node) -> type:
        """Return the one JSON type ``node`` keeps as it is, after a type check."""
        while isinstance(node, DescribedNode):
            node = node.node
        if isinstance(node, ScalarNode):
            return node.type
        return _Never

    def convert(self, node: Node, *, top: bool = False) -> Converter:
        while isinstance(node, DescribedNode):
            node = node.node
        key = (id(node), top)
        done = self.done.get(key)
        if done is not None:
            return done
        if isinstance(node, ObjectNode):
            # a recursive class meets itself while being compiled: the slot
            # is filled with a forwarder first, then with the real converter
            slot: list[Converter] = []
            self.done[key] = lambda value: slot[0](value)
            converter = self.record(node, top)
            slot.append(converter)
        else:
            converter = self.build(node)
        self.done[key] = converter
        return converter

    def build(self, node: Node) -> Converter:
        if isinstance(node, ScalarNode):
            return _SCALARS[node.type]
        if isinstance(node, CustomNode) and node.parser is not None:
            return delegated(node.parser, _Failed)
        if isinstance(node, (AnyNode, CustomNode)):
            return _identity
        if isinstance(node, ListNode):
            return self.array(node)
        if isinstance(node, TupleNode):
            return self.fixed_array(node)
        if isinstance(node, DictNode):
            return self.mapping(node)
        if isinstance(node, ChoiceNode):
            return self.choice(node)
        assert isinstance(node, UnionNode)
        return self.union(node)

    # -- containers ------------------------------------------------------------------

    def array(self, node: ListNode) -> Converter:
        item = self.convert(node.item)
        fast = self.fast(node.item)
        as_tuple = node.as_tuple
        if fast in _EXACT:
            return _exact_list(fast, as_tuple)

        def convert_list(value: Any) -> Any:
            if type(value) is not list:
                return _fail(_LIST, value)
            out: list[Any] = []
            append = out.append
            failed: _Failed | None = None
            for i, x in enumerate(value):
                if type(x) is fast:
                    append(x)
                    continue
                r = item(x)
                if type(r) is _Failed:
                    if failed is not None and len(failed.problems) >= KEPT:
                        failed.more += len(r.problems) + r.more  # full: counted only
                    else:
                        failed = joined_capped(failed, r, i)
                else:
                    append(r)
            if failed is not None:
                return failed
            return tuple(out) if as_tuple else out

        return convert_list

    def fixed_array(self, node: TupleNode) -> Converter:
        items = [self.convert(item) for item in node.items]
        n = len(items)
        reason = f"must be a list of exactly {n} item{'' if n == 1 else 's'}"

        def convert_tuple(value: Any) -> Any:
            if type(value) is not list or len(value) != n:
                return _fail(reason, value)
            out: list[Any] = []
            failed: _Failed | None = None
            for i, (convert, x) in enumerate(zip(items, value, strict=True)):
                r = convert(x)
                if type(r) is _Failed:
                    failed = joined(failed, r, i)
                else:
                    out.append(r)
            return failed if failed is not None else tuple(out)

        return convert_tuple

    def mapping(self, node: DictNode) -> Converter:
        item = self.convert(node.value)
        fast = self.fast(node.value)

        def convert_dict(value: Any) -> Any:
            if type(value) is not dict:
                return _fail(_OBJECT, value)
            out: dict[str, Any] = {}
            failed: _Failed | None = None
            for k, x in value.items():
                if type(x) is fast:
                    out[k] = x
                    continue
                r = item(x)
                if type(r) is _Failed:
                    failed = joined_capped(failed, r, k)
                else:
                    out[k] = r
            return failed if failed is not None else out

        return convert_dict

    def record(self, node: ObjectNode, top: bool) -> Converter:
        fields = tuple(
            (f.name, self.fast(f.node), self.convert(f.node), f.required) for f in node.fields
        )
        unknown = self._unknown(node, top)
        make = node.cls if node.is_dataclass else None
        # a nested object's problems are all lines of the message: past KEPT
        # they are counted; the top level's names go on lines of their own
        capped = not top

        def convert_object(value: Any) -> Any:
            if type(value) is not dict:
                return _fail(_OBJECT, value)
            out: dict[str, Any] = {}
            failed: _Failed | None = None
            seen = 0  # how many of the names sent are fields: fewer than all, some are unknown
            for name, fast, convert, required in fields:
                x = value.get(name, _MISSING)
                if x is _MISSING:
                    if required:
                        failed = joined(failed, _fail(REQUIRED, kind="missing"), name)
                    continue
                seen += 1
                if type(x) is fast:
                    out[name] = x
                else:
                    r = convert(x)
                    if type(r) is _Failed:
                        failed = joined(failed, r, name)
                    else:
                        out[name] = r
            if seen != len(value) and unknown is not None:
                failed = unknown(value, failed)
            if failed is not None:
                if capped and len(failed.problems) > KEPT:
                    failed.more += len(failed.problems) - KEPT
                    del failed.problems[KEPT:]
                return failed
            return out if make is None else _made(make, out)

        return convert_object

    def _unknown(self, node: ObjectNode, top: bool) -> Callable[[dict[str, Any], Any], Any] | None:
        """What an object's names it does not accept come to (``None``: they are dropped)."""
        if self.drop_unknown:
            return None
        names = frozenset(f.name for f in node.fields)
        if top:
            # the top level's unknown names are one entry of the message's own
            # line (see ``Refused``), not a problem each: a call may send tens of thousands
            return lambda value, failed: Refused(failed, [k for k in value if k not in names])
        # nested ones say what their object accepts, since no other line does
        reason = f"is not accepted (accepted: {', '.join(f.name for f in node.fields)})"

        def refused(value: dict[str, Any], failed: Any) -> Any:
            for key in value:
                if key not in names:
                    failed = joined_capped(failed, _fail(reason, kind="unrecognized"), key)
            return failed

        return refused

    # -- choices and unions ------------------------------------------------------------

    def choice(self, node: ChoiceNode) -> Converter:
        # keyed by JSON type as well as value: true == 1 and 1 == 1.0 in Python
        table = {(type(v), v): parsed for v, parsed in node.choices}
        types = frozenset(type(v) for v, _ in node.choices)
        reason = choice_reason([v for v, _ in node.choices])

        def convert_choice(value: Any) -> Any:
            kind = type(value)
            if kind in types:
                found = table.get((kind, value), _MISSING)
                if found is not _MISSING:
                    return found
            return _fail(reason, value)

        return convert_choice

    def union(self, node: UnionNode) -> Converter:
        members = [(m, self.convert(m)) for m in node.members]
        # for each JSON type: the members that take it as it is, in declaration
        # order, then those that coerce it (an integer for a float); and, for a
        # type only one member takes, how to name the others in its message
        table: dict[type, tuple[Converter, ...]] = {}
        others: dict[type, str] = {}
        for json_type in ALL_JSON:
            exact = [(m, c) for m, c in members if json_type in accepts(m)[0]]
            coerced = [(m, c) for m, c in members if json_type in accepts(m)[1]]
            found = exact + coerced
            if not found:
                continue
            table[json_type] = tuple(c for _, c in found)
            rest = [
                name
                for m, _ in members
                if all(m is not f for f, _ in found)
                for name in names_of(m)
            ]
            others[json_type] = (
                ", or " + ", ".join(map(article, dict.fromkeys(rest))) if rest else ""
            )
        names = list(dict.fromkeys(name for m, _ in members for name in names_of(m)))
        if TYPE_NAMES.issuperset(names):
            # JSON types only: the shared words, "must be an integer or a string"
            reason = "must be " + " or ".join(map(article, names))
        else:
            reason = "must be one of: " + ", ".join(names)

        def convert_union(value: Any) -> Any:
            kind = type(value)
            candidates = table.get(kind)
            if candidates is None:
                return _fail(reason, value)
            best: _Failed | None = None
            for convert in candidates:
                r = convert(value)
                if type(r) is not _Failed:
                    return r
                if best is None or len(r.problems) + r.more < len(best.problems) + best.more:
                    best = r
            assert best is not None
            if any(problem[0] for problem in best.problems):
                return best  # a problem inside the value says the most
            if len(candidates) == 1:
                # the one member of the model's JSON type said what is wrong
                # (a value not among the choices, a wrong length): keep it, and
                # name the other members
                problem = best.problems[0]
                return _fail(problem[1] + others[kind], value)
            return _fail(reason, value)

        return convert_union


def _exact_list(kind: type, as_tuple: bool) -> Converter:
    """A list of one JSON type taken as it is (no coercion): each item is a type test.

    A wrong item is recorded as its problem at once, with no converter call
    and no failure object of its own: a model may send thousands of them.
    """
    reason = _EXACT[kind]

    def convert_exact_list(value: Any) -> Any:
        if type(value) is not list:
            return _fail(_LIST, value)
        bad: list[list[Any]] | None = None
        for i, x in enumerate(value):
            if type(x) is not kind:
                if bad is None:
                    bad = []
                bad.append([[i], reason, x, "invalid"])
                if len(bad) == KEPT:
                    # the rest are counted: a type test each, nothing built
                    more = sum(type(y) is not kind for y in value[i + 1 :])
                    return _Failed(bad, more)
        if bad is not None:
            return _Failed(bad)
        return tuple(value) if as_tuple else list(value)

    return convert_exact_list


def compile_parser(root: ObjectNode, policy: str) -> Callable[[dict[str, Any]], ParseResult]:
    """Compile the parser for a dataclass or TypedDict node tree.

    ``policy`` is the tool's ``unknown_arguments``: under ``"ignore"`` unknown
    keys of nested objects are dropped, otherwise they are refused (a
    dataclass cannot take them). Top-level unknown names are always reported
    as unrecognized (the core drops them first under ``"ignore"``).
    """
    convert = _Compiler(policy).convert(root, top=True)
    accepted = tuple(f.name for f in root.fields)

    def parse(arguments: dict[str, Any]) -> ParseResult:
        try:
            result = convert(arguments)
        except RecursionError:
            result = _fail("is nested too deeply")
        found = type(result)
        if found is not _Failed and found is not Refused:
            return Ok(result)
        return rejection(result, arguments, accepted)

    return parse


def _made(make: Callable[..., Any], fields: dict[str, Any]) -> Any:
    """A dataclass of the checked fields, or the problem its ``__post_init__`` raised."""
    try:
        return make(**fields)
    except (ValueError, TypeError) as exc:
        return _fail(str(exc) or "is not valid")
