"""Checking a JSON Schema at definition: dialect, metaschema, object shape, references.

Everything here runs once, when a tool is defined, and reports problems as a
:class:`toolparse.FunctionDefinitionError` naming the keyword and its path, so
a broken schema never reaches the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NoReturn

import jsonschema  # jsonschema ships no type information
import referencing
import referencing.jsonschema
from jsonschema.protocols import Validator  # jsonschema ships no type information
from referencing.exceptions import Unresolvable

from toolparse import FunctionDefinitionError

__all__ = ["DIALECTS", "Definition", "check", "path_text", "subschemas"]


@dataclass(frozen=True)
class Dialect:
    """One supported JSON Schema draft."""

    name: str
    validator: type[Validator]
    specification: referencing.Specification[Any]


#: ``$schema`` URIs (without a trailing ``#``) and the drafts they select.
DIALECTS: dict[str, Dialect] = {
    cls.META_SCHEMA["$schema"].rstrip("#"): Dialect(
        name, cls, referencing.jsonschema.specification_with(cls.META_SCHEMA["$schema"])
    )
    for name, cls in (
        ("2020-12", jsonschema.Draft202012Validator),
        ("2019-09", jsonschema.Draft201909Validator),
        ("7", jsonschema.Draft7Validator),
        ("6", jsonschema.Draft6Validator),
        ("4", jsonschema.Draft4Validator),
    )
}
_DEFAULT = DIALECTS["https://json-schema.org/draft/2020-12/schema"]


@dataclass(frozen=True)
class Definition:
    """A schema that passed every definition check, ready to compile."""

    #: the schema as plain JSON data (dicts, lists), detached from the caller's
    schema: dict[str, Any]
    dialect: Dialect
    #: the schema as its own resource; retrieving anything else raises
    registry: referencing.Registry[Any]
    #: the schema's base URI (its ``$id``, or ``""``)
    base_uri: str

    @classmethod
    def of(cls, schema: dict[str, Any], dialect: Dialect) -> Definition:
        """``schema`` under ``dialect``, as its own registry's one resource."""
        resource = dialect.specification.create_resource(schema)
        base_uri = resource.id() or ""
        # `retrieve` is an attrs alias of a private field, which mypy does not see
        registry = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg, unused-ignore]
        return cls(schema, dialect, registry.with_resource(base_uri, resource).crawl(), base_uri)

    def root(self) -> dict[str, Any]:
        """The object schema the arguments follow: the schema, or its root ``$ref``'s target.

        (A root that says nothing else of the arguments: zod's output.)
        """
        ref = self.schema.get("$ref")
        if not isinstance(ref, str) or "type" in self.schema or "properties" in self.schema:
            return self.schema
        try:
            found = self.registry.resolver(base_uri=self.base_uri).lookup(ref).contents
        except Unresolvable:
            return self.schema
        return found if isinstance(found, dict) else self.schema

    @cached_property
    def order(self) -> dict[str, int]:
        """Each property name's place, in declaration order, the arguments' first.

        The order problems are listed in.
        """
        names: dict[str, int] = {}
        level: list[Any] = [self.root(), self.schema]
        while level:
            for node in level:
                props = node.get("properties") if isinstance(node, dict) else None
                for name in props if isinstance(props, dict) else ():
                    names.setdefault(name, len(names))
            level = [
                child
                for node in level
                for child in (node.values() if isinstance(node, dict) else node)
                if isinstance(child, (dict, list))
            ]
        return names


class RemoteReferenceRefused(Exception):
    """A ``$ref`` pointed outside the schema (toolparse never fetches schemas)."""


def _refuse(uri: str) -> NoReturn:
    # the registry's retrieve function: called for any URI the schema does not
    # contain itself, and refuses instead of touching the network or the disk
    raise RemoteReferenceRefused(uri)


def _plain(value: Any) -> Any:
    """A JSON-data copy of ``value``: mappings become dicts, tuples lists."""
    if isinstance(value, Mapping):
        bad = next((key for key in value if not isinstance(key, str)), None)
        if bad is not None:
            _fail([("(schema)", f"every key must be a string, found {bad!r}")])
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def path_text(path: Sequence[str | int]) -> str:
    """A path inside a schema as ``properties.age.type`` (``(schema)`` for the root)."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text or "(schema)"


def check(source: Mapping[str, Any], *, object_only: bool = True) -> Definition:
    """Check ``source`` and return its :class:`Definition`.

    Raises :class:`~toolparse.FunctionDefinitionError` for a schema that is not
    valid under its draft's metaschema, that does not describe an object, or
    that refers to anything outside itself. (``object_only=False`` lets any
    schema through the object check: the test suite's are not all objects'.)
    """
    schema = _plain(source)
    dialect = _dialect(schema)
    _check_metaschema(schema, dialect)
    definition = Definition.of(schema, dialect)
    if object_only:
        _check_object(definition.root())
    problems = [
        (path_text([*path, keyword]), problem)
        for node, path, resolver in subschemas(definition)
        for keyword in ("$ref", "$dynamicRef", "$recursiveRef")
        if isinstance(node.get(keyword), str)
        for problem in [_lookup(resolver, node[keyword])]
        if problem is not None
    ]
    if problems:
        _fail(problems)
    return definition


def _fail(errors: Sequence[tuple[str, str]]) -> NoReturn:
    raise FunctionDefinitionError(list(errors))


def _dialect(schema: dict[str, Any]) -> Dialect:
    uri = schema.get("$schema")
    if uri is None:
        return _DEFAULT
    found = DIALECTS.get(uri.rstrip("#")) if isinstance(uri, str) else None
    if found is None:
        supported = ", ".join(f"{d.name} ({uri})" for uri, d in DIALECTS.items())
        _fail([("$schema", f"{uri!r:.80} is not a supported draft; use one of: {supported}")])
    return found


def _check_metaschema(schema: dict[str, Any], dialect: Dialect) -> None:
    # jsonschema-rs' check is linear where the library's takes seconds for
    # thousands of properties; the library explains a schema it refuses
    if _valid_for_rs(schema, dialect):
        return
    cls = dialect.validator
    meta_cls = jsonschema.validators.validator_for(cls.META_SCHEMA, default=cls)
    meta = meta_cls(cls.META_SCHEMA, format_checker=meta_cls.FORMAT_CHECKER)
    errors = sorted(
        meta.iter_errors(schema),
        key=lambda e: [(0, p) if isinstance(p, int) else (1, str(p)) for p in e.absolute_path],
    )
    if errors:
        cut = [m if len(m) <= 200 else m[:197] + "..." for m in (e.message for e in errors)]
        _fail([(path_text(e.absolute_path), m) for e, m in zip(errors, cut, strict=True)])


def _valid_for_rs(schema: dict[str, Any], dialect: Dialect) -> bool:
    """Whether jsonschema-rs, when installed, finds ``schema`` valid under its metaschema.

    Its check does not compile patterns as Python's ``re`` does (the library's
    does, for the ``regex`` format): a schema with a pattern ``re`` refuses is
    not called valid here.
    """
    try:
        from jsonschema_rs import meta
    except ImportError:
        return False
    uri = dialect.validator.META_SCHEMA["$schema"]
    checked = schema if "$schema" in schema else {**schema, "$schema": uri}
    try:
        if not meta.is_valid(checked):
            return False
    except Exception:  # a schema it cannot read: the library decides
        return False
    return all(_compiles(pattern) for pattern in _patterns(schema))


def _patterns(node: Any) -> Iterator[str]:
    """Every string that may be a pattern in ``node`` (a value named so as data too)."""
    todo = [node]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            if isinstance(node.get("patternProperties"), dict):
                yield from node["patternProperties"]
            todo += node.values()
        elif isinstance(node, list):
            todo += node


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError, ValueError, Warning):
        return False
    return True


def _check_object(schema: dict[str, Any]) -> None:
    kind = schema.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        return
    if kind is None and isinstance(schema.get("properties"), dict):
        return
    text = 'the arguments of a tool are an object: the schema needs "type": "object" (or "properties") at the top level'
    _fail([("type", f"{text}, not {kind!r}") if kind is not None else ("(schema)", text)])


def subschemas(definition: Definition) -> Iterator[tuple[dict[str, Any], list[str | int], Any]]:
    """Every subschema of ``definition`` (the root first), its path, and its resolver.

    The draft says which values are subschemas (data under ``const``,
    ``enum`` or ``default`` is none, whatever keys it holds); the resolver is
    the one its references resolve with (under a nested ``$id``, that
    resource's). The metaschemas ship with jsonschema: references to them resolve.
    """
    from jsonschema_specifications import REGISTRY  # untyped

    resolver = REGISTRY.combine(definition.registry).resolver(base_uri=definition.base_uri)
    root = definition.dialect.specification.create_resource(definition.schema)
    todo: list[tuple[Any, list[str | int], Any, dict[int, Any]]] = [(root, [], resolver, {})]
    while todo:
        node, path, resolver, subs = todo.pop()
        if isinstance(node, referencing.Resource):
            resolver = resolver.in_subresource(node) if path else resolver
            subs = {id(sub.contents): sub for sub in node.subresources()}
            node = node.contents
            if isinstance(node, dict):
                yield node, path, resolver
        elif id(node) in subs:
            todo.append((subs[id(node)], path, resolver, subs))
            continue
        items = node.items() if isinstance(node, dict) else enumerate(node)
        # (reversed: the stack gives them back in the schema's own order)
        todo.extend(
            (value, [*path, key], resolver, subs)
            for key, value in reversed(list(items))
            if isinstance(value, (dict, list))
        )


def _lookup(resolver: Any, ref: str) -> str | None:
    """Why ``ref`` cannot be used, or ``None`` when it resolves inside the schema."""
    try:
        resolver.lookup(ref)
    except Unresolvable as exc:
        cause: BaseException | None = exc
        while cause is not None:
            if isinstance(cause, RemoteReferenceRefused):
                return (
                    f"{ref!r:.100} points outside the schema, and toolparse never "
                    "fetches schemas (no network, no files): put the referenced "
                    'schema under "$defs" and refer to it as "#/$defs/<name>"'
                )
            # newer referencing chains the causes, older only the contexts
            cause = cause.__cause__ or cause.__context__
        return f"{ref!r:.100} does not point to anything inside the schema"
    return None
