"""Checking arguments against a Function's ``FunctionParam`` declarations.

The declarations are read into the built-in adapter's nodes once, when the
Function is defined, and compiled by the same compiler as a dataclass's
parser: the same rules (no coercion but an integer for a number) and the
same wording. The check only finds problems; the body receives the
arguments as the model sent them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..contract import Error
from ..params import FunctionParam
from ..problems import ArgumentProblem, render_problems
from ._nodes import AnyNode, ChoiceNode, FieldInfo, ListNode, Node, ObjectNode, ScalarNode
from ._parse import _Compiler, _Failed, _merge

__all__ = ["params_checker"]

_SCALAR_TYPES: Mapping[str, type] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
}

_MISSING: Any = object()


def _node(param: FunctionParam) -> Node:
    """The node for what one parameter declares."""
    if param.enum:
        return ChoiceNode([(v, v) for v in param.enum], None)
    if param.type == "array":
        if param.item_type is None:
            return ListNode(AnyNode())
        if param.item_type == "object":
            return ListNode(_object(param.object_properties))
        return ListNode(ScalarNode(_SCALAR_TYPES[param.item_type]))
    if param.type == "object":
        return _object(param.object_properties)
    return ScalarNode(_SCALAR_TYPES[param.type])


def _object(params: Sequence[FunctionParam]) -> ObjectNode:
    node = ObjectNode(dict, is_dataclass=False)  # kept a dict, as a TypedDict is
    node.description = None
    node.fields = [
        FieldInfo(p.name, None, _node(p), required=p.required, description=p.description)
        for p in params
    ]
    return node


def params_checker(
    params: Sequence[FunctionParam], accepted: Sequence[str], policy: str
) -> Callable[[Mapping[str, Any]], Error | None]:
    """Compile the check of ``params``' values, once.

    The returned function gets arguments whose required keys are already
    there (the required-key check runs first) and returns the one Error that
    names every problem, or ``None`` when every declared value fits. Unknown
    top-level names are the policy's, checked before; when the call is
    rejected they are named too. Nested objects accept only their declared
    properties (their schema is closed).
    """
    compiler = _Compiler(policy)
    # the compiler remembers nodes by identity: every node stays alive while it compiles
    nodes = [(p.name, _node(p)) for p in params]
    fields = tuple((name, compiler.fast(node), compiler.convert(node)) for name, node in nodes)
    accepted = tuple(accepted)
    accepted_set = frozenset(accepted)

    def check(arguments: Mapping[str, Any]) -> Error | None:
        failed: _Failed | None = None
        get = arguments.get
        for name, fast, convert in fields:
            value = get(name, _MISSING)
            if value is _MISSING or type(value) is fast:
                continue
            result = convert(value)
            if type(result) is _Failed:
                failed = _merge(failed, result, name)
        if failed is None:
            return None
        problems = [
            ArgumentProblem(tuple(reversed(path)), reason, received, kind)
            for path, reason, received, kind in failed.problems
        ]
        problems.extend(
            ArgumentProblem.unrecognized(key)
            for key in arguments
            if isinstance(key, str) and key not in accepted_set
        )
        return render_problems(problems, arguments, accepted, None)

    return check
