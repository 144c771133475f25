"""Plain Python annotations, read once into a tree of nodes (see ``_nodes``).

Types no rule here covers go to the ``toolparse_field_schema`` hook the
adapter's compile step was given; what it describes passes through
unvalidated, anything else is a definition error naming the field.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import sys
import types
import typing
from typing import Any

from ..adapter import JSON_TYPES, FieldSchema
from ..errors import FunctionDefinitionError, install_hint
from ._nodes import (
    SCALARS,
    AnyNode,
    ChoiceNode,
    CustomNode,
    DescribedNode,
    DictNode,
    FieldInfo,
    ListNode,
    Node,
    ObjectNode,
    ScalarNode,
    TupleNode,
    UnionNode,
    is_plain_dataclass,
    is_typeddict,
)

__all__ = ["analyse"]

_SEQUENCES = (list, collections.abc.Sequence, collections.abc.MutableSequence)
_MAPPINGS = (dict, collections.abc.Mapping, collections.abc.MutableMapping)
_JSON_LEAVES = tuple(JSON_TYPES)


class _Reader:
    """State of one analysis: the class nodes made so far and the problems."""

    def __init__(self, field_schema: FieldSchema, policy: str) -> None:
        self.field_schema = field_schema
        # nested objects are closed unless the tool ignores unknown keys
        self.policy = "ignore" if policy == "ignore" else "reject"
        self.objects: dict[type, ObjectNode] = {}
        self.errors: list[tuple[str, str]] = []
        # TypedDict qualifiers, from typing and from an imported backport
        self.required: set[object] = set()
        self.not_required: set[object] = set()
        self.qualifiers: set[object] = set()
        for module in (typing, sys.modules.get("typing_extensions")):
            for name, bucket in (
                ("Required", self.required),
                ("NotRequired", self.not_required),
                ("ReadOnly", self.qualifiers),
            ):
                marker = getattr(module, name, None)
                if marker is not None:
                    bucket.add(marker)
                    self.qualifiers.add(marker)

    # -- classes ---------------------------------------------------------------

    def record(self, cls: type) -> ObjectNode:
        node = self.objects.get(cls)
        if node is not None:
            return node
        node = ObjectNode(cls, is_dataclass=dataclasses.is_dataclass(cls))
        # registered before its fields are read, so a field of the same
        # class (directly or further down) finds this node: a cycle, not a loop
        self.objects[cls] = node
        hints = self._hints(cls)
        if hints is None:
            return node
        if node.is_dataclass:
            self._dataclass_fields(node, hints)
        else:
            self._typeddict_fields(node, hints)
        return node

    def _hints(self, cls: type) -> dict[str, Any] | None:
        # classes met so far are visible by name, so string annotations of
        # classes defined inside a function (recursive ones included) resolve
        local = {c.__name__: c for c in self.objects}
        try:
            return typing.get_type_hints(cls, localns=local, include_extras=True)
        except Exception as exc:  # eval of annotations: NameError, TypeError, ...
            self.errors.append(
                (
                    cls.__qualname__,
                    (
                        f"cannot resolve its annotations ({exc}); define the "
                        "classes it names at module level"
                    ),
                )
            )
            return None

    def _dataclass_fields(self, node: ObjectNode, hints: dict[str, Any]) -> None:
        fields: dict[str, dataclasses.Field[Any]] = getattr(node.cls, "__dataclass_fields__", {})
        for f in fields.values():
            hint = hints.get(f.name, Any)
            if not f.init or hint is typing.ClassVar or _origin(hint) is typing.ClassVar:
                continue
            if isinstance(hint, dataclasses.InitVar):
                hint = hint.type
            where = f"{node.cls.__qualname__}.{f.name}"
            inner, description = self._field_type(hint, where)
            meta = f.metadata.get("description") if f.metadata else None
            if isinstance(meta, str):
                description = meta  # the field's own metadata wins over Annotated
            has_default = f.default is not dataclasses.MISSING
            has_factory = f.default_factory is not dataclasses.MISSING
            node.fields.append(
                FieldInfo(
                    f.name,
                    hint,
                    self.read(inner, where),
                    required=not (has_default or has_factory),
                    description=description,
                    has_default=has_default,
                    default=f.default if has_default else None,
                )
            )

    def _typeddict_fields(self, node: ObjectNode, hints: dict[str, Any]) -> None:
        required_keys: frozenset[str] = getattr(node.cls, "__required_keys__", frozenset())
        for name, hint in hints.items():
            required = name in required_keys
            # the qualifiers decide when present: the class attribute can be
            # wrong for string annotations (``from __future__ import annotations``)
            inner = hint
            while _origin(inner) in self.qualifiers:
                if _origin(inner) in self.required:
                    required = True
                elif _origin(inner) in self.not_required:
                    required = False
                inner = typing.get_args(inner)[0]
            where = f"{node.cls.__qualname__}.{name}"
            inner, description = self._field_type(inner, where)
            node.fields.append(
                FieldInfo(
                    name,
                    hint,
                    self.read(inner, where),
                    required=required,
                    description=description,
                )
            )

    def _field_type(self, hint: Any, where: str) -> tuple[Any, str | None]:
        """Split ``Annotated[T, "description"]`` on a field into T and the text."""
        while _origin(hint) in self.qualifiers:
            hint = typing.get_args(hint)[0]
        if _origin(hint) is typing.Annotated:
            return hint.__origin__, _description(hint.__metadata__)
        return hint, None

    # -- annotations -------------------------------------------------------------

    def read(self, tp: Any, where: str) -> Node:
        """Read annotation ``tp`` (``where`` names the field, for errors)."""
        if tp is Any or tp is object:
            return AnyNode()
        if tp is None:
            tp = type(None)
        if isinstance(tp, type) and tp in SCALARS:
            return ScalarNode(tp)
        origin = _origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Annotated:
            node = self.read(tp.__origin__, where)
            text = _description(tp.__metadata__)
            return node if text is None else DescribedNode(node, text)
        if origin in self.qualifiers or origin is typing.Final:
            return self.read(args[0], where) if args else AnyNode()
        if origin is typing.Union or origin is types.UnionType:
            return self._union(args, where)
        if origin is typing.Literal:
            return self._literal(tp, args, where)
        return self._container(tp, origin, args, where) or self._named(tp, where)

    def _container(self, tp: Any, origin: Any, args: tuple[Any, ...], where: str) -> Node | None:
        """A tuple, sequence or mapping annotation (``None``: none of those)."""
        if tp is typing.Tuple or tp is tuple:  # noqa: UP006 - the bare alias is accepted
            return ListNode(AnyNode(), as_tuple=True)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return ListNode(self.read(args[0], where), as_tuple=True)
            return TupleNode([self.read(a, where) for a in args])
        if tp in _SEQUENCES or origin in _SEQUENCES:
            return ListNode(self.read(args[0], where) if args else AnyNode())
        if tp in _MAPPINGS or origin in _MAPPINGS:
            return self._dict(tp, args, where)
        return None

    def _named(self, tp: Any, where: str) -> Node:
        """A type by name: an alias, an enum, a dataclass or TypedDict, or one a plugin describes."""
        supertype = getattr(tp, "__supertype__", None)  # typing.NewType
        if supertype is not None:
            return self.read(supertype, where)
        if type(tp).__name__ == "TypeAliasType":  # ``type X = ...`` (3.12+)
            return self.read(tp.__value__, where)
        if isinstance(tp, type):
            if issubclass(tp, enum.Enum):
                return self._enum(tp, where)
            if is_plain_dataclass(tp) or is_typeddict(tp):
                return self.record(tp)
        return self._custom(tp, where)

    def _union(self, args: tuple[Any, ...], where: str) -> Node:
        members: list[Node] = []
        for arg in args:
            node = self.read(arg, where)
            # Union flattens itself, but an Annotated member can hide a union
            members.extend(node.members if isinstance(node, UnionNode) else [node])
        return members[0] if len(members) == 1 else UnionNode(members)

    def _literal(self, tp: Any, args: tuple[Any, ...], where: str) -> Node:
        choices: list[tuple[Any, Any]] = []
        for value in args:
            if isinstance(value, enum.Enum) and _is_json_leaf(value.value):
                choices.append((value.value, value))
            elif _is_json_leaf(value):
                choices.append((value, value))
            else:
                self.errors.append(
                    (
                        where,
                        f"{_type_name(tp)}: the literal {value!r} is not a JSON value",
                    )
                )
        return ChoiceNode(choices, None)

    def _enum(self, cls: type[enum.Enum], where: str) -> Node:
        bad = [m for m in cls if not _is_json_leaf(m.value)]
        if bad:
            self.errors.append(
                (
                    where,
                    (
                        f"the values of enum {_type_name(cls)} must be strings, "
                        f"numbers, booleans or None (not {bad[0].value!r})"
                    ),
                )
            )
        return ChoiceNode([(m.value, m) for m in cls if m not in bad], cls)

    def _dict(self, tp: Any, args: tuple[Any, ...], where: str) -> Node:
        if not args:
            return DictNode(AnyNode())
        key = args[0]
        if key is not str and key is not Any:
            self.errors.append(
                (
                    where,
                    (
                        f"{_type_name(tp)}: JSON object keys are strings, so the "
                        "key type must be str"
                    ),
                )
            )
        return DictNode(self.read(args[1], where))

    def _custom(self, tp: Any, where: str) -> Node:
        delegate = getattr(self.field_schema, "delegate", None)
        if delegate is not None and isinstance(tp, type):
            # a type another installed adapter owns is validated by that adapter
            try:
                compiled = delegate(tp, self.policy)
            except Exception as exc:
                self.errors.append((where, f"{_type_name(tp)}: {exc}"))
                return AnyNode()
            if compiled is not None and compiled.parser is not None:
                return CustomNode(tp, compiled.schema, compiled.parser)
        empty: dict[str, Any] = {}
        schema = self.field_schema(tp, empty)
        if schema is not empty:
            return CustomNode(tp, schema)
        hint = None if isinstance(tp, (str, typing.ForwardRef)) else install_hint(tp)
        if hint is not None:
            # a known library's type whose adapter is not installed: name the extra
            self.errors.append(
                (
                    where,
                    f"the type {_type_name(tp)} needs the {hint} adapter, which is not "
                    f'installed: pip install "toolparse[{hint}]"',
                )
            )
            return AnyNode()
        if isinstance(tp, (str, typing.ForwardRef)):
            reason = f"the annotation {_type_name(tp)} could not be resolved"
        else:
            reason = f"the type {_type_name(tp)} is not supported"
        self.errors.append(
            (
                where,
                (
                    f"{reason}; the built-in adapter covers str, int, float, bool, "
                    "None, list, dict[str, ...], tuple, Literal, Enum, unions, "
                    "TypedDict, dataclasses, Annotated and Any (a "
                    "toolparse_field_schema plugin can describe other types)"
                ),
            )
        )
        return AnyNode()


def analyse(source: type, field_schema: FieldSchema, policy: str = "report") -> ObjectNode:
    """Read a dataclass or TypedDict class into its node tree.

    ``field_schema`` is the ``toolparse_field_schema`` hook, asked about every
    type no rule here covers (it answers with the schema it was given when no
    plugin knows the type); when it can ``delegate`` (the core's hook can),
    a type another installed adapter accepts is compiled by that adapter
    first, under ``policy``. Raises :class:`~toolparse.FunctionDefinitionError` naming every field
    whose type the adapter cannot describe or parse.
    """
    reader = _Reader(field_schema, policy)
    root = reader.record(source)
    if reader.errors:
        raise FunctionDefinitionError(reader.errors)
    return root


# -- small helpers -------------------------------------------------------------------


def _origin(tp: object) -> Any:
    return typing.get_origin(tp)


def _description(metadata: tuple[Any, ...]) -> str | None:
    """Return the first plain string in ``Annotated`` metadata."""
    for item in metadata:
        if isinstance(item, str):
            return item
    return None


def _is_json_leaf(value: object) -> bool:
    if isinstance(value, enum.Enum):
        return False
    return type(value) in _JSON_LEAVES


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
