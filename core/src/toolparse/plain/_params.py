"""Checking arguments against a Function's ``FunctionParam`` declarations.

The declarations are read into the built-in adapter's nodes once, when the
Function is defined, and compiled by the same compiler as a dataclass's
parser: the same rules (no conversion but an integer for a number) and the
same wording. The check only finds problems; the body receives the
arguments as the model sent them, except that under ``"ignore"`` the names a
nested object does not declare are dropped, as the top-level ones are.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..adapter import JSON_TYPES
from ..arguments import Arguments
from ..contract import Error
from ..params import FunctionParam
from ._converters import Failed, joined, rejection
from ._nodes import AnyNode, ChoiceNode, FieldInfo, ListNode, Node, ObjectNode, ScalarNode
from ._parser import Compiler

__all__ = ["params_checker"]

#: the Python type of each JSON type a FunctionParam may declare
_SCALAR_TYPES: Mapping[str, type] = {name: kind for kind, name in JSON_TYPES.items()}

_MISSING: Any = object()


def _node(param: FunctionParam) -> Node:
    """The node for what one parameter declares."""
    if param.enum:
        return ChoiceNode([(v, v) for v in param.enum])
    if param.type == "object":
        return _object(param)
    if param.type != "array":
        return ScalarNode(_SCALAR_TYPES[param.type])
    if param.item_type is None:
        return ListNode(AnyNode())
    if param.item_type == "object":
        return ListNode(_object(param))
    return ListNode(ScalarNode(_SCALAR_TYPES[param.item_type]))


def _object(param: FunctionParam) -> ObjectNode:
    """The object ``param`` declares, kept a dict (as a TypedDict is)."""
    fields = [FieldInfo(p.name, None, _node(p), p.required) for p in param.object_properties]
    return ObjectNode(dict, is_dataclass=False, fields=fields)


def _fast(node: Node) -> tuple[type | None, frozenset[Any] | None]:
    """The type a valid value of ``node`` has, and the values it may take, when one type tells.

    A value of that type (and among the values) fits without its converter:
    an enum of one JSON type has no ``true == 1`` or ``1 == 1.0`` to tell apart.
    """
    if isinstance(node, ScalarNode):
        return node.type, None
    if isinstance(node, ChoiceNode) and len(kinds := {type(v) for v, _ in node.choices}) == 1:
        return kinds.pop(), frozenset(v for v, _ in node.choices)
    return None, None


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
    nodes = [(p.name, _node(p)) for p in params]
    fields = tuple((name, *_fast(node), compiler.convert(node)) for name, node in nodes)
    accepted = tuple(accepted)

    def check(arguments: Mapping[str, Any]) -> Error | None:
        failed: Failed | None = None
        get = arguments.get
        for name, fast, values, convert in fields:
            value = get(name, _MISSING)
            if value is _MISSING or (type(value) is fast and (values is None or value in values)):
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
            if (value := arguments.get(name, _MISSING)) is not _MISSING
            and (new := convert(value)) != value
        }
        return Arguments({**arguments, **kept}) if kept else None

    return check_dropping
