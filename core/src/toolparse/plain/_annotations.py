"""Plain Python annotations, read once into a tree of nodes (see ``_nodes``).

Types no rule here covers go to the ``toolparse_field_schema`` hook the
adapter's compile step was given; what it describes passes through
unvalidated, anything else is a definition error naming the field.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import inspect
import sys
import types
import typing
from typing import Any, get_origin

from ..adapter import JSON_TYPES, FieldSchema
from ..errors import FunctionDefinitionError, install_hint
from . import _nodes as nodes

__all__ = ["analyse", "is_plain_dataclass", "is_typeddict"]

_NO_DEFAULT = type(dataclasses.MISSING)
_SEQUENCES = (list, collections.abc.Sequence, collections.abc.MutableSequence)
_MAPPINGS = (dict, collections.abc.Mapping, collections.abc.MutableMapping)
_COVERED = (
    "the built-in adapter covers str, int, float, bool, None, list, dict[str, ...], tuple, "
    "Literal, Enum, unions, TypedDict, dataclasses, Annotated and Any (a "
    "toolparse_field_schema plugin can describe other types)"
)


def analyse(source: type, field_schema: FieldSchema, policy: str = "report") -> nodes.ObjectNode:
    """Read a dataclass or TypedDict class into its node tree.

    When ``field_schema`` can ``delegate`` (the core's hook can), a type another installed
    adapter accepts is compiled by that adapter first, under ``policy``. Raises
    :class:`~toolparse.FunctionDefinitionError` naming every field that cannot be described.
    """
    reader = _Reader(field_schema, policy)
    root = reader.record(source)
    if reader.errors:
        raise FunctionDefinitionError(reader.errors)
    return root


def _markers(name: str) -> set[object]:
    """A TypedDict qualifier, from ``typing`` and from an imported backport."""
    modules = (typing, sys.modules.get("typing_extensions"))
    return {m for module in modules if (m := getattr(module, name, None)) is not None}


def is_typeddict(obj: object) -> bool:
    """Whether ``obj`` is a TypedDict class (``typing``'s or a backport's)."""
    return (
        isinstance(obj, type)
        and issubclass(obj, dict)
        and hasattr(obj, "__required_keys__")
        and hasattr(obj, "__total__")
    )


def is_plain_dataclass(obj: object) -> bool:
    """Whether ``obj`` is a dataclass class that is not a pydantic dataclass."""
    return (
        isinstance(obj, type)
        and dataclasses.is_dataclass(obj)
        and not hasattr(obj, "__pydantic_fields__")
    )


class _Reader:
    """One analysis: the class nodes made so far, and the problems found."""

    def __init__(self, field_schema: FieldSchema, policy: str) -> None:
        self.field_schema = field_schema
        # nested objects are closed unless the tool ignores unknown keys
        self.policy = "ignore" if policy == "ignore" else "reject"
        self.objects: dict[type, nodes.ObjectNode] = {}
        self.errors: list[tuple[str, str]] = []
        self.required = _markers("Required")
        self.not_required = _markers("NotRequired")
        self.qualifiers = self.required | self.not_required | _markers("ReadOnly")

    def record(self, cls: type) -> nodes.ObjectNode:
        node = self.objects.get(cls)
        if node is not None:
            return node
        is_dataclass = dataclasses.is_dataclass(cls)
        node = nodes.ObjectNode(cls, is_dataclass, description=_class_doc(cls))
        # registered before its fields are read, so a field of the same
        # class (directly or further down) finds this node: a cycle, not a loop
        self.objects[cls] = node
        # classes met so far are visible by name, so string annotations of
        # classes defined inside a function (recursive ones included) resolve
        local = {c.__name__: c for c in self.objects}
        try:
            hints = typing.get_type_hints(cls, localns=local, include_extras=True)
        except Exception as exc:  # eval of annotations: NameError, TypeError, ...
            reason = f"cannot resolve its annotations ({exc}); define the classes it names at module level"
            self.errors.append((cls.__qualname__, reason))
            return node
        if is_dataclass:
            self._dataclass_fields(node, hints)
        else:
            self._typeddict_fields(node, hints)
        return node

    def _dataclass_fields(self, node: nodes.ObjectNode, hints: dict[str, Any]) -> None:
        fields: dict[str, dataclasses.Field[Any]] = getattr(node.cls, "__dataclass_fields__", {})
        for f in fields.values():  # (InitVar pseudo-fields too: ``__init__`` takes them)
            hint = hints.get(f.name, Any)
            if not f.init or hint is typing.ClassVar or get_origin(hint) is typing.ClassVar:
                continue
            if isinstance(hint, dataclasses.InitVar):
                hint = hint.type
            meta = f.metadata.get("description")  # (it wins over an Annotated description)
            text = meta if isinstance(meta, str) else None
            # (a copy of the sentinel, as a class cloudpickle sent by value holds, is one too)
            required = all(isinstance(v, _NO_DEFAULT) for v in (f.default, f.default_factory))
            child = self.read(hint, f"{node.cls.__qualname__}.{f.name}")
            node.fields.append(nodes.FieldInfo(f.name, hint, child, required, text, f.default))

    def _typeddict_fields(self, node: nodes.ObjectNode, hints: dict[str, Any]) -> None:
        required_keys: frozenset[str] = getattr(node.cls, "__required_keys__", frozenset())
        for name, hint in hints.items():
            required = name in required_keys
            # the qualifiers decide when present: the class attribute can be
            # wrong for string annotations (``from __future__ import annotations``)
            inner = hint
            while get_origin(inner) in self.qualifiers:
                if get_origin(inner) in self.required:
                    required = True
                elif get_origin(inner) in self.not_required:
                    required = False
                inner = typing.get_args(inner)[0]
            where = f"{node.cls.__qualname__}.{name}"
            node.fields.append(nodes.FieldInfo(name, hint, self.read(inner, where), required))

    def read(self, tp: Any, where: str) -> nodes.Node:
        """Read annotation ``tp`` (``where`` names the field, for errors)."""
        if tp is Any or tp is object:
            return nodes.AnyNode()
        if tp is None:
            return nodes.ScalarNode(type(None))
        if isinstance(tp, type) and tp in JSON_TYPES:
            return nodes.ScalarNode(tp)
        origin = get_origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Annotated:  # (described by the first plain string of its metadata)
            node = self.read(args[0], where)
            text = next((item for item in args[1:] if isinstance(item, str)), None)
            return node if text is None else nodes.DescribedNode(node, text)
        if origin in self.qualifiers or origin is typing.Final:
            return self.read(args[0], where) if args else nodes.AnyNode()
        if origin is typing.Union or origin is types.UnionType:
            members: list[nodes.Node] = []
            for arg in args:
                member = self.read(arg, where)
                # Union flattens itself, but an Annotated member can hide a union
                members.extend(member.members if isinstance(member, nodes.UnionNode) else [member])
            return members[0] if len(members) == 1 else nodes.UnionNode(members)
        if origin is typing.Literal:
            return self._literal(tp, args, where)
        return self._container(tp, origin, args, where)

    def _container(self, tp: Any, origin: Any, args: tuple[Any, ...], where: str) -> nodes.Node:
        """A tuple, sequence or mapping annotation, or else a type by name."""
        if tp is typing.Tuple or tp is tuple:  # noqa: UP006 - the bare alias is accepted
            return nodes.ListNode(nodes.AnyNode(), as_tuple=True)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return nodes.ListNode(self.read(args[0], where), as_tuple=True)
            return nodes.TupleNode([self.read(a, where) for a in args])
        if tp in _SEQUENCES or origin in _SEQUENCES:
            return nodes.ListNode(self.read(args[0], where) if args else nodes.AnyNode())
        if tp not in _MAPPINGS and origin not in _MAPPINGS:
            return self._named(tp, where)
        if not args:
            return nodes.DictNode(nodes.AnyNode())
        if args[0] is not str and args[0] is not Any:
            reason = "JSON object keys are strings, so the key type must be str"
            self.errors.append((where, f"{_type_name(tp)}: {reason}"))
        return nodes.DictNode(self.read(args[1], where))

    def _named(self, tp: Any, where: str) -> nodes.Node:
        """A type by name: an alias, an enum, a dataclass or TypedDict, or one a plugin describes."""
        supertype = getattr(tp, "__supertype__", None)  # typing.NewType
        if supertype is not None:
            return self.read(supertype, where)
        if type(tp).__name__ == "TypeAliasType":  # ``type X = ...`` (3.12+)
            return self.read(tp.__value__, where)
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            bad = [m for m in tp if not _is_json_leaf(m.value)]
            if bad:
                kinds = "must be strings, numbers, booleans or None"
                text = f"the values of enum {_type_name(tp)} {kinds} (not {bad[0].value!r})"
                self.errors.append((where, text))
            return nodes.ChoiceNode([(m.value, m) for m in tp if m not in bad])
        if is_plain_dataclass(tp) or is_typeddict(tp):
            return self.record(tp)
        return self._custom(tp, where)

    def _literal(self, tp: Any, args: tuple[Any, ...], where: str) -> nodes.Node:
        choices: list[tuple[Any, Any]] = []
        for value in args:
            if isinstance(value, enum.Enum) and _is_json_leaf(value.value):
                choices.append((value.value, value))
            elif _is_json_leaf(value):
                choices.append((value, value))
            else:
                text = f"{_type_name(tp)}: the literal {value!r} is not a JSON value"
                self.errors.append((where, text))
        return nodes.ChoiceNode(choices)

    def _custom(self, tp: Any, where: str) -> nodes.Node:
        delegate = getattr(self.field_schema, "delegate", None)
        if delegate is not None and isinstance(tp, type):
            # a type another installed adapter owns is validated by that adapter
            try:
                compiled = delegate(tp, self.policy)
            except Exception as exc:
                self.errors.append((where, f"{_type_name(tp)}: {exc}"))
                return nodes.AnyNode()
            if compiled is not None and compiled.parser is not None:
                return nodes.CustomNode(tp, compiled.schema, compiled.parser)
        empty: dict[str, Any] = {}
        schema = self.field_schema(tp, empty)
        if schema is not empty:
            return nodes.CustomNode(tp, schema)
        name = _type_name(tp)
        if isinstance(tp, (str, typing.ForwardRef)):
            text = f"the annotation {name} could not be resolved; {_COVERED}"
        elif (extra := install_hint(tp)) is not None:  # a known library's type: name its extra
            fix = f'pip install "toolparse[{extra}]"'
            text = f"the type {name} needs the {extra} adapter, which is not installed: {fix}"
        else:
            text = f"the type {name} is not supported; {_COVERED}"
        self.errors.append((where, text))
        return nodes.AnyNode()


def _class_doc(cls: type) -> str | None:
    """The class's own docstring, not the signature ``@dataclass`` writes when there is none."""
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or not doc.strip():
        return None
    if dataclasses.is_dataclass(cls) and doc.startswith(f"{cls.__name__}("):
        return None
    return inspect.cleandoc(doc)


def _is_json_leaf(value: object) -> bool:
    return not isinstance(value, enum.Enum) and type(value) in JSON_TYPES


def _type_name(tp: object) -> str:
    """Name a type readably, for a definition error."""
    if isinstance(tp, str):
        return repr(tp)
    if isinstance(tp, typing.ForwardRef):
        return repr(tp.__forward_arg__)
    if isinstance(tp, type) and not typing.get_args(tp):
        module = tp.__module__
        return tp.__qualname__ if module == "builtins" else f"{module}.{tp.__qualname__}"
    return repr(tp).replace("typing.", "")
