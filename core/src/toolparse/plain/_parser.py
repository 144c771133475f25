"""The strict parser of a plain-type node tree: small closures built once per tool.

Each node becomes one function ``convert(value) -> parsed``; a call runs those and looks at
no annotation. A converter that finds problems returns a :class:`Failed` holding them; a
container moves what its children found below their key or index and carries on, so every
problem in the arguments is found in one pass.

The only conversion is an integer where a number is expected (``3`` becomes ``3.0``):
``true`` is not an integer, ``"3"`` is not a number, ``3`` is not a string.

A Function's ``FunctionParam`` declarations are read into the same nodes and compiled by the same
compiler (:func:`params_checker`): the same rules and wording, the values checked and left as sent.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..adapter import JSON_TYPES, MAX_PROBLEMS, REQUIRED, TYPE_WORDS, type_reason
from ..arguments import Arguments
from ..contract import Error, Ok, ParseResult
from ..params import FunctionParam
from . import _nodes as nodes
from ._converters import MISSING, OBJECT, Converter, Failed, fail, joined, leaf, rejection

__all__ = ["compile_parser", "params_checker"]

#: every JSON value type, in the order a union's members are looked up by
_ALL_JSON = (*JSON_TYPES, list, dict)
#: what a union calls a JSON type in its reason (an array is "a list" there)
_WORDS = {**TYPE_WORDS, "list": TYPE_WORDS["array"]}
_TYPE_NAMES = frozenset(_WORDS) - {"array"}
_LIST = type_reason("array")
_new = tuple.__new__


def compile_parser(root: nodes.ObjectNode, policy: str) -> Callable[[dict[str, Any]], ParseResult]:
    """Compile the parser of a dataclass or TypedDict node tree, under the tool's ``policy``."""
    convert = Compiler(policy).convert(root, top=True)
    accepted = tuple(f.name for f in root.fields)

    def parse(arguments: dict[str, Any]) -> ParseResult:
        try:
            result = convert(arguments)
        except RecursionError:
            result = fail("is nested too deeply")
        if type(result) is Failed:
            return rejection(result, arguments, accepted)
        return _new(Ok, (result, None))  # (Ok(result) without its Python-level constructor)

    return parse


def _fast(node: nodes.Node) -> type | None:
    """The JSON type a value of ``node`` is taken as it is in after a type test (``None``: none).

    A container calls its item's converter only for another type: a valid list of a
    thousand strings costs a type test each.
    """
    node = nodes.bare(node)
    return node.type if isinstance(node, nodes.ScalarNode) else None


class Compiler:
    """Builds the converters of one tree (each class's once; a recursive one's through a slot).

    ``as_sent``: the values are checked, not converted (a Function's declared
    parameters): an integer stays an integer where a number is expected.
    """

    def __init__(self, policy: str, *, as_sent: bool = False) -> None:
        # "ignore" drops nested objects' unknown keys (the core drops the top-level ones first);
        # otherwise they are refused (a dataclass cannot take them)
        self.refuse = policy != "ignore"
        self.as_sent = as_sent
        self.done: dict[tuple[nodes.ObjectNode, bool], Converter] = {}

    def convert(self, node: nodes.Node, *, top: bool = False) -> Converter:
        node = nodes.bare(node)
        if not isinstance(node, nodes.ObjectNode):
            return leaf(node, self.as_sent) or self.build(node)
        done = self.done.get((node, top))
        if done is None:
            # a recursive class meets itself while being compiled: its slot
            # holds a forwarder first, then the real converter
            slot: list[Converter] = []
            self.done[node, top] = lambda value: slot[0](value)
            slot.append(self.record(node, top))
            done = self.done[node, top] = slot[0]
        return done

    def build(self, node: nodes.Node) -> Converter:
        if isinstance(node, nodes.ListNode):
            return self.array(node)
        if isinstance(node, nodes.TupleNode):
            return self.fixed_array(node)
        if isinstance(node, nodes.DictNode):
            return self.mapping(node)
        assert isinstance(node, nodes.UnionNode)
        return self.union(node)

    def array(self, node: nodes.ListNode) -> Converter:
        item, fast, as_tuple = self.convert(node.item), _fast(node.item), node.as_tuple
        # items of one JSON type taken as they are: a type test tells each valid or not
        exact = {fast} if fast is not None and fast is not float else None

        def convert_list(value: Any) -> Any:
            if type(value) is not list:
                return fail(_LIST, value)
            if exact is not None and exact.issuperset(map(type, value)):
                return tuple(value) if as_tuple else list(value)
            out: list[Any] = []
            failed: Failed | None = None
            for i, x in enumerate(value):
                if type(x) is fast:
                    out.append(x)
                    continue
                if type(r := item(x)) is not Failed:
                    out.append(r)
                    continue
                failed = joined(failed, r, i)
                if exact is not None and len(failed.problems) >= MAX_PROBLEMS:
                    # full: the rest are only counted, a type test each
                    failed.more += sum(type(y) is not fast for y in value[i + 1 :])
                    break
            if failed is not None:
                return failed
            return tuple(out) if as_tuple else out

        return convert_list

    def fixed_array(self, node: nodes.TupleNode) -> Converter:
        items = [self.convert(item) for item in node.items]
        n = len(items)
        reason = f"must be a list of exactly {n} item{'' if n == 1 else 's'}"

        def convert_tuple(value: Any) -> Any:
            if type(value) is not list or len(value) != n:
                return fail(reason, value)
            out: list[Any] = []
            failed: Failed | None = None
            for i, (convert, x) in enumerate(zip(items, value, strict=True)):
                r = convert(x)
                if type(r) is Failed:
                    failed = joined(failed, r, i)
                else:
                    out.append(r)
            return failed if failed is not None else tuple(out)

        return convert_tuple

    def mapping(self, node: nodes.DictNode) -> Converter:
        item, fast = self.convert(node.value), _fast(node.value)

        def convert_dict(value: Any) -> Any:
            if type(value) is not dict:
                return fail(OBJECT, value)
            out: dict[str, Any] = {}
            failed: Failed | None = None
            for k, x in value.items():
                if type(x) is fast:
                    out[k] = x
                    continue
                r = item(x)
                if type(r) is Failed:
                    failed = joined(failed, r, k)
                else:
                    out[k] = r
            return failed if failed is not None else out

        return convert_dict

    def record(self, node: nodes.ObjectNode, top: bool) -> Converter:
        fields = tuple(
            (f.name, _fast(f.node), self.convert(f.node), f.required) for f in node.fields
        )
        names = frozenset(f.name for f in node.fields)
        make = node.cls if node.is_dataclass else None
        # the top level keeps every problem of its own: its missing names go on their own line
        limit = sys.maxsize if top else MAX_PROBLEMS
        # a nested object's unknown names say what it accepts, since no other line does; the
        # top level's go on a line of their own, which names only text keys (none when nothing
        # is accepted): the others are then problems of their own, in the order sent
        accepted = ", ".join(f.name for f in node.fields)
        unknown = "is not accepted" if top else f"is not accepted (accepted: {accepted})"
        refuse = self.refuse

        def refused(value: dict[str, Any], failed: Failed | None) -> Failed:
            for key in value:
                if key not in names and (not top or not names or not isinstance(key, str)):
                    failed = joined(failed, fail(unknown, kind="unrecognized"), key, limit)
            return Failed([]) if failed is None else failed

        def convert_object(value: Any) -> Any:
            if type(value) is not dict:
                return fail(OBJECT, value)
            out: dict[str, Any] = {}
            failed: Failed | None = None
            for name, fast, convert, required in fields:
                x = value.get(name, MISSING)
                if x is MISSING:
                    if required:
                        failed = joined(failed, fail(REQUIRED, kind="missing"), name, limit)
                elif type(x) is fast:
                    out[name] = x
                elif type(r := convert(x)) is Failed:
                    failed = joined(failed, r, name, limit)
                else:
                    out[name] = r
            # (every name sent converted: no unknown name, nothing else to look at)
            if len(out) != len(value) and refuse and not names.issuperset(value):
                failed = refused(value, failed)
            if failed is not None:
                return failed
            if make is None:
                return out
            try:
                return make(**out)
            except (ValueError, TypeError) as exc:  # what its __post_init__ refused
                return fail(str(exc) or "is not valid")

        return convert_object

    def union(self, node: nodes.UnionNode) -> Converter:
        shapes = [(self.convert(m), *_shape(m)) for m in node.members]
        # for each JSON type: the members that take it as it is, in declaration
        # order, then those that convert it (an integer for a number); and,
        # for a type only one member takes, how to name the others after its reason
        table: dict[type, tuple[Converter, ...]] = {}
        others: dict[type, str] = {}
        for kind in _ALL_JSON:
            found = [m for m in shapes if kind in m[1]] + [m for m in shapes if kind in m[2]]
            if found:
                table[kind] = tuple(m[0] for m in found)
                rest = dict.fromkeys(
                    n for m in shapes if all(m is not f for f in found) for n in m[3]
                )
                others[kind] = ", or " + ", ".join(_WORDS.get(n, n) for n in rest) if rest else ""
        names = list(dict.fromkeys(n for m in shapes for n in m[3]))
        if _TYPE_NAMES.issuperset(names):
            # JSON types only: the shared words, "must be an integer or a string"
            reason = "must be " + " or ".join(_WORDS[n] for n in names)
        else:
            reason = "must be one of: " + ", ".join(names)

        def convert_union(value: Any) -> Any:
            kind = type(value)
            candidates = table.get(kind)
            if candidates is None:
                return fail(reason, value)
            best: Any = None
            for convert in candidates:
                r = convert(value)
                if type(r) is not Failed:
                    return r
                if best is None or len(r.problems) + r.more < len(best.problems) + best.more:
                    best = r
            if any(problem[0] for problem in best.problems):
                return best  # a problem inside the value says the most
            if len(candidates) == 1:
                # the one member of the value's JSON type said what is wrong (a
                # value not among the choices, a wrong length): keep it, and
                # name the other members
                return fail(best.problems[0][1] + others[kind], value)
            return fail(reason, value)

        return convert_union


def _shape(node: nodes.Node) -> tuple[set[type], set[type], list[str]]:
    """The JSON types ``node`` takes as they are, those it converts, and how a union names it."""
    node = nodes.bare(node)
    if isinstance(node, nodes.ScalarNode):
        return {node.type}, {int} if node.type is float else set(), [JSON_TYPES[node.type]]
    if isinstance(node, (nodes.ListNode, nodes.TupleNode)):
        return {list}, set(), ["list"]  # the shared word for a JSON array
    if isinstance(node, (nodes.DictNode, nodes.ObjectNode)):
        return {dict}, set(), ["object"]
    if isinstance(node, nodes.ChoiceNode):
        values = [v for v, _ in node.choices]
        return {type(v) for v in values}, set(), [json.dumps(v, ensure_ascii=False) for v in values]
    if isinstance(node, nodes.UnionNode):
        shapes = [_shape(m) for m in node.members]
        exact = set().union(*(s[0] for s in shapes))
        converted = set().union(*(s[1] for s in shapes)) - exact
        return exact, converted, [name for s in shapes for name in s[2]]
    return set(_ALL_JSON), set(), ["any value"]  # Any, or a type another adapter or a plugin owns


#: the Python type of each JSON type a FunctionParam may declare
_SCALAR_TYPES: Mapping[str, type] = {name: kind for kind, name in JSON_TYPES.items()}


def _node(param: FunctionParam) -> nodes.Node:
    """The node for what one parameter declares."""
    if param.enum:
        return nodes.ChoiceNode([(v, v) for v in param.enum])
    if param.type == "object":
        return _object(param)
    if param.type != "array":
        return nodes.ScalarNode(_SCALAR_TYPES[param.type])
    if param.item_type is None:
        return nodes.ListNode(nodes.AnyNode())
    if param.item_type == "object":
        return nodes.ListNode(_object(param))
    return nodes.ListNode(nodes.ScalarNode(_SCALAR_TYPES[param.item_type]))


def _object(param: FunctionParam) -> nodes.ObjectNode:
    """The object ``param`` declares, kept a dict (as a TypedDict is)."""
    fields = [nodes.FieldInfo(p.name, None, _node(p), p.required) for p in param.object_properties]
    return nodes.ObjectNode(dict, is_dataclass=False, fields=fields)


def _param_fast(node: nodes.Node) -> tuple[type | None, frozenset[Any] | None]:
    """The type a valid value of ``node`` has, and the values it may take, when one type tells.

    A value of that type (and among the values) fits without its converter:
    an enum of one JSON type has no ``true == 1`` or ``1 == 1.0`` to tell apart.
    """
    if isinstance(node, nodes.ScalarNode):
        return node.type, None
    if isinstance(node, nodes.ChoiceNode) and len(kinds := {type(v) for v, _ in node.choices}) == 1:
        return kinds.pop(), frozenset(v for v, _ in node.choices)
    return None, None


def _later(compiler: Compiler, node: nodes.Node) -> Converter:
    """``node``'s converter, compiled when a value first needs it (most values never do)."""
    slot: list[Converter] = []

    def convert(value: Any) -> Any:
        if not slot:
            slot.append(compiler.convert(node))
        return slot[0](value)

    return convert


def params_checker(
    params: Sequence[FunctionParam], accepted: Sequence[str], policy: str
) -> Callable[[Mapping[str, Any]], Error | Arguments | None]:
    """Compile the check of ``params``' values, once.

    The returned function gets arguments whose required keys are already
    there (the required-key check runs first) and returns the one Error that
    names every problem, or ``None`` when every declared value fits. Unknown
    top-level names are the policy's, checked before; when the call is
    rejected they are named too. Nested objects accept only their declared
    properties (their schema is closed) under ``"report"`` and ``"reject"``;
    under ``"ignore"`` the names they do not declare are dropped, and when
    there were any the function returns the ``Arguments``
    the body gets instead (a copy: what the model sent is left as it was).
    """
    compiler = Compiler(policy, as_sent=True)
    declared = [(p.name, _node(p)) for p in params]
    fields = tuple(
        (name, fast, values, _later(compiler, node) if fast else compiler.convert(node))
        for name, node in declared
        for fast, values in [_param_fast(node)]
    )
    accepted = tuple(accepted)

    def check(arguments: Mapping[str, Any]) -> Error | None:
        failed: Failed | None = None
        get = arguments.get
        for name, fast, values, convert in fields:
            value = get(name, MISSING)
            if value is MISSING or (type(value) is fast and (values is None or value in values)):
                continue
            result = convert(value)
            if type(result) is Failed:
                failed = joined(failed, result, name, sys.maxsize)
        return None if failed is None else rejection(failed, arguments, accepted)

    nested = [f for f, p in zip(fields, params, strict=True) if "object" in (p.type, p.item_type)]
    if policy != "ignore" or not nested:
        return check

    def check_dropping(arguments: Mapping[str, Any]) -> Error | Arguments | None:
        # a value that fits, converted again: the same value without the undeclared names
        found = check(arguments)
        if found is not None:
            return found
        kept = {
            name: new
            for name, _, _, convert in nested
            if (value := arguments.get(name, MISSING)) is not MISSING
            and (new := convert(value)) != value
        }
        return Arguments({**arguments, **kept}) if kept else None

    return check_dropping
