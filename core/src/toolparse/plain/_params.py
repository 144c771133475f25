"""Checking arguments against a Function's ``FunctionParam`` declarations.

The declarations are read into the built-in adapter's nodes once, when the
Function is defined, and compiled by the same compiler as a dataclass's
parser: the same rules (no coercion but an integer for a number) and the
same wording. The check only finds problems; the body receives the
arguments as the model sent them, except that under ``"ignore"`` the names a
nested object does not declare are dropped, as the top-level ones are.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..arguments import Arguments
from ..contract import Error
from ..params import FunctionParam
from ..problems import ArgumentProblem, invalid_arguments
from ._joins import joined
from ._nodes import AnyNode, ChoiceNode, FieldInfo, ListNode, Node, ObjectNode, ScalarNode
from ._parse import _Compiler
from ._scalars import _Failed

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


Pruner = Callable[[Any], Any]


def _pruner(node: Node) -> Pruner | None:
    """What drops the undeclared names inside a value of ``node`` (``None``: it has no object).

    It runs on a value the check passed, and returns that very value when
    nothing is dropped, a copy without the undeclared names otherwise.
    """
    if isinstance(node, ListNode):
        item = _pruner(node.item)
        return None if item is None else _list_pruner(item)
    if not isinstance(node, ObjectNode):
        return None
    names = frozenset(f.name for f in node.fields)
    inner = tuple((f.name, p) for f in node.fields if (p := _pruner(f.node)) is not None)

    def prune_object(value: Any) -> Any:
        if type(value) is not dict:
            return value
        out = value if names.issuperset(value) else {k: v for k, v in value.items() if k in names}
        for name, prune in inner:
            x = out.get(name, _MISSING)
            if x is _MISSING:
                continue
            y = prune(x)
            if y is not x:
                if out is value:
                    out = dict(value)
                out[name] = y
        return out

    return prune_object


def _list_pruner(item: Pruner) -> Pruner:
    def prune_list(value: Any) -> Any:
        if type(value) is not list:
            return value
        out = [item(x) for x in value]
        return value if all(map(operator.is_, out, value)) else out

    return prune_list


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
    there were any the function returns the :class:`~toolparse.Arguments`
    the body gets instead (a copy: what the model sent is left as it was).
    """
    compiler = _Compiler(policy)
    # the compiler remembers nodes by identity: every node stays alive while it compiles
    nodes = [(p.name, _node(p)) for p in params]
    fields = tuple((name, compiler.fast(node), compiler.convert(node)) for name, node in nodes)
    accepted = tuple(accepted)
    pruners = (
        tuple((name, p) for name, node in nodes if (p := _pruner(node)) is not None)
        if policy == "ignore"
        else ()
    )

    def check(arguments: Mapping[str, Any]) -> Error | Arguments | None:
        failed: _Failed | None = None
        get = arguments.get
        for name, fast, convert in fields:
            value = get(name, _MISSING)
            if value is _MISSING or type(value) is fast:
                continue
            result = convert(value)
            if type(result) is _Failed:
                failed = joined(failed, result, name)
        if failed is None:
            return _pruned(arguments) if pruners else None
        problems = [
            ArgumentProblem(tuple(reversed(path)), reason, received, kind)
            for path, reason, received, kind in failed.problems
        ]
        # (the unknown names the renderer finds: a call may send tens of thousands)
        return invalid_arguments(problems, arguments=arguments, accepted=accepted, more=failed.more)

    def _pruned(arguments: Mapping[str, Any]) -> Arguments | None:
        changed: Arguments | None = None
        for name, prune in pruners:
            value = arguments.get(name, _MISSING)
            if value is _MISSING:
                continue
            kept = prune(value)
            if kept is not value:
                if changed is None:
                    changed = Arguments(arguments)
                changed[name] = kept
        return changed

    return check
