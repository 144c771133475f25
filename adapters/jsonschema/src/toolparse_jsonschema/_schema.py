"""Checking a JSON Schema at definition: dialect, metaschema, object shape, references.

Everything here runs once, when a tool is defined, and reports problems as a
:class:`toolparse.FunctionDefinitionError` naming the keyword and its path, so
a broken schema never reaches the model.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import jsonschema  # jsonschema ships no type information
import referencing
import referencing.jsonschema
from jsonschema.protocols import Validator  # jsonschema ships no type information
from referencing.exceptions import Unresolvable

from toolparse import FunctionDefinitionError

__all__ = [
    "DIALECTS",
    "Definition",
    "check",
    "path_text",
    "plain",
    "subschemas",
    "without_false_subschemas",
]


@dataclass(frozen=True)
class Dialect:
    """One supported JSON Schema draft."""

    name: str
    validator: type[Validator]
    specification: referencing.Specification[Any]


#: ``$schema`` URIs (without a trailing ``#``) and the drafts they select.
DIALECTS: dict[str, Dialect] = {
    "https://json-schema.org/draft/2020-12/schema": Dialect(
        "2020-12", jsonschema.Draft202012Validator, referencing.jsonschema.DRAFT202012
    ),
    "https://json-schema.org/draft/2019-09/schema": Dialect(
        "2019-09", jsonschema.Draft201909Validator, referencing.jsonschema.DRAFT201909
    ),
    "http://json-schema.org/draft-07/schema": Dialect(
        "7", jsonschema.Draft7Validator, referencing.jsonschema.DRAFT7
    ),
    "http://json-schema.org/draft-06/schema": Dialect(
        "6", jsonschema.Draft6Validator, referencing.jsonschema.DRAFT6
    ),
    "http://json-schema.org/draft-04/schema": Dialect(
        "4", jsonschema.Draft4Validator, referencing.jsonschema.DRAFT4
    ),
}
_DEFAULT = DIALECTS["https://json-schema.org/draft/2020-12/schema"]
#: keywords whose value is a reference to resolve
_REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")


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


class RemoteReferenceRefused(Exception):
    """A ``$ref`` pointed outside the schema (toolparse never fetches schemas)."""


def _refuse(uri: str) -> NoReturn:
    # the registry's retrieve function: called for any URI the schema does not
    # contain itself, and refuses instead of touching the network or the disk
    raise RemoteReferenceRefused(uri)


def plain(value: Any) -> Any:
    """A JSON-data copy of ``value``: mappings become dicts, tuples lists."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def path_text(path: Sequence[str | int]) -> str:
    """A path inside a schema as ``properties.age.type`` (``(schema)`` for the root)."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "(schema)"


def check(source: Mapping[str, Any], *, object_only: bool = True) -> Definition:
    """Check ``source`` and return its :class:`Definition`.

    Raises :class:`~toolparse.FunctionDefinitionError` for a schema that is not
    valid under its draft's metaschema, that does not describe an object, or
    that refers to anything outside itself. (``object_only=False`` lets any
    schema through the object check: the test suite's schemas are not all
    object schemas.)
    """
    schema = plain(source)
    bad_keys = [key for key in _keys(schema) if not isinstance(key, str)]
    if bad_keys:
        _fail([("(schema)", f"every key must be a string, found {bad_keys[0]!r}")])
    dialect = _dialect(schema)
    _check_metaschema(schema, dialect)
    if object_only:
        _check_object(schema)
    registry, base_uri = _check_references(schema, dialect)
    return Definition(schema, dialect, registry, base_uri)


def _fail(errors: Sequence[tuple[str, str]]) -> NoReturn:
    raise FunctionDefinitionError(list(errors))


def _keys(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _dialect(schema: dict[str, Any]) -> Dialect:
    uri = schema.get("$schema")
    if uri is None:
        return _DEFAULT
    if isinstance(uri, str):
        found = DIALECTS.get(uri.rstrip("#"))
        if found is not None:
            return found
    supported = ", ".join(f"{d.name} ({uri})" for uri, d in DIALECTS.items())
    _fail([("$schema", f"{uri!r:.80} is not a supported draft; use one of: {supported}")])


def _check_metaschema(schema: dict[str, Any], dialect: Dialect) -> None:
    cls = dialect.validator
    meta_cls = jsonschema.validators.validator_for(cls.META_SCHEMA, default=cls)
    meta = meta_cls(cls.META_SCHEMA, format_checker=meta_cls.FORMAT_CHECKER)
    errors = sorted(meta.iter_errors(schema), key=lambda e: _sort_key(e.absolute_path))
    if errors:
        _fail([(path_text(e.absolute_path), _short(e.message)) for e in errors])


def _sort_key(path: Sequence[str | int]) -> tuple[tuple[int, Any], ...]:
    return tuple((0, p) if isinstance(p, int) else (1, str(p)) for p in path)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_object(schema: dict[str, Any]) -> None:
    kind = schema.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        return
    if kind is None and isinstance(schema.get("properties"), dict):
        return
    _fail(
        [
            (
                "type" if kind is not None else "(schema)",
                "the arguments of a tool are an object: the schema needs "
                '"type": "object" (or "properties") at the top level'
                + (f", not {kind!r}" if kind is not None else ""),
            )
        ]
    )


def _check_references(
    schema: dict[str, Any], dialect: Dialect
) -> tuple[referencing.Registry[Any], str]:
    resource = dialect.specification.create_resource(schema)
    root = resource.id() or ""
    registry: referencing.Registry[Any] = (
        # `retrieve` is an attrs alias of a private field, which mypy does not see
        referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg, unused-ignore]
        .with_resource(root, resource)
        .crawl()
    )
    problems: list[tuple[str, str]] = []
    for node, path, resolver in subschemas(resource, registry, root):
        for keyword in _REF_KEYWORDS:
            ref = node.get(keyword)
            if isinstance(ref, str):
                problem = _lookup(resolver, ref)
                if problem is not None:
                    problems.append((path_text([*path, keyword]), problem))
    if problems:
        _fail(problems)
    return registry, root


def subschemas(
    resource: referencing.Resource[Any], registry: referencing.Registry[Any], base_uri: str
) -> Iterator[tuple[dict[str, Any], list[str | int], Any]]:
    """Every subschema of ``resource`` (itself first), its path, and its resolver.

    The draft says which values are subschemas (data under ``const``,
    ``enum`` or ``default`` is none, whatever keys it holds); the resolver
    is the one its references resolve with (under a nested ``$id``, that
    resource's).
    """
    # the metaschemas ship with jsonschema: a $ref to one needs no retrieval
    from jsonschema_specifications import REGISTRY  # untyped

    resolver = REGISTRY.combine(registry).resolver(base_uri=base_uri)
    todo: list[tuple[Any, list[str | int], Any, dict[int, Any]]] = [(resource, [], resolver, {})]
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
        if isinstance(node, dict):
            items: Any = node.items()
        elif isinstance(node, list):
            items = enumerate(node)
        else:
            continue
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


#: keywords whose values are subschemas the library descends into with a path
#: of their own: by name (a mapping of names to subschemas) or by index (a list)
_BY_NAME = ("properties", "patternProperties")
_BY_INDEX = ("prefixItems", "items")


def without_false_subschemas(schema: dict[str, Any], specification: Any) -> dict[str, Any]:
    """A copy of ``schema`` where a ``false`` property or item schema reads ``{"not": {}}``.

    Both reject everything, but the library loses the property name (or item
    index) of an error raised by a ``false`` subschema, and would report
    ``properties: {"x": false}`` at the parent object. ``{"not": {}}`` keeps
    the path. Only the schema used to explain errors is rewritten; the model
    sees the schema as written.
    """
    copied: dict[str, Any] = copy.deepcopy(schema)
    todo = [specification.create_resource(copied)]
    while todo:
        resource = todo.pop()
        contents = resource.contents
        if isinstance(contents, dict):
            for keyword in _BY_NAME:
                value = contents.get(keyword)
                if isinstance(value, dict):
                    for key, sub in value.items():
                        if sub is False:
                            value[key] = {"not": {}}
            for keyword in _BY_INDEX:
                # (an "items" mapping is one subschema, its keys keywords, not names)
                value = contents.get(keyword)
                if isinstance(value, list):
                    for i, sub in enumerate(value):
                        if sub is False:
                            value[i] = {"not": {}}
        todo.extend(resource.subresources())
    return copied
