"""The parser: ``schema.load`` itself, its errors as one shared ``Error``."""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError

from toolparse import ArgumentProblem, Ok, ParseResult, invalid_arguments
from toolparse.adapter import new_outcome as _new

from ._errors import problems
from ._schema import Converted
from ._shape import drop_unknown, has_nested_objects, unknown_paths
from ._tables import quick

__all__ = ["make_parser"]


def make_parser(
    schema: Schema,
    converted: Converted,
    policy: str,
    accepted: tuple[str, ...],
    dumpers: dict[type, Schema],
) -> Callable[[Mapping[str, Any]], ParseResult]:
    """The parser for one tool's schema instance.

    ``"report"`` keeps the schema's own ``unknown`` setting; ``"reject"``
    loads with ``unknown=RAISE`` and refuses unknown keys of nested objects
    too; ``"ignore"`` loads with ``unknown=EXCLUDE`` and drops unknown keys of
    nested objects before loading. ``dumpers`` learns which schema dumps the
    objects a ``@post_load`` builds (for ``serialize``).
    """
    hooks = _post_load_hooks(schema)
    known = _built_type(hooks)
    if known is not None:
        dumpers.setdefault(known, schema)
    load: Callable[[Any], Any] = schema.load
    if policy == "reject":
        load = functools.partial(schema.load, unknown=RAISE)
    elif policy == "ignore":
        load = functools.partial(schema.load, unknown=EXCLUDE)
    shape = converted.shape
    tables = converted.tables

    def fail(
        exc: ValidationError | None, arguments: Mapping[str, Any], extra: list[ArgumentProblem]
    ) -> ParseResult:
        found: list[ArgumentProblem] | None = None
        more = 0
        if exc is not None:
            # the common failure from the tables; anything else, the walk
            found = quick(exc.messages, arguments, tables)
            if found is None:
                found, more = problems(
                    exc.messages,
                    shape,
                    arguments,
                    required_messages=converted.required_messages,
                    unknown_messages=converted.unknown_messages,
                )
        problems_found = [*found, *extra] if found and extra else found or extra
        return invalid_arguments(
            problems_found, arguments=arguments, accepted=accepted, cause=exc, more=more
        )

    def learn(value: Any) -> None:
        # the first object of a new type a @post_load builds: remember the
        # schema that dumps it (once per type; a dict is not a model)
        kind = type(value)
        if kind is not dict and kind not in dumpers:
            dumpers[kind] = schema

    learns = bool(hooks)
    nested = has_nested_objects(shape)

    if policy == "reject" and nested:

        def parse(arguments: Mapping[str, Any]) -> ParseResult:
            paths: list[tuple[str | int, ...]] = []
            unknown_paths(shape, arguments, (), paths)
            extra = [ArgumentProblem.unrecognized(p) for p in paths]
            try:
                value = load(arguments)
            except ValidationError as exc:
                return fail(exc, arguments, extra)
            if extra:
                return fail(None, arguments, extra)
            if learns:
                learn(value)
            return _new(Ok, (value, None))

    elif policy == "ignore" and nested:

        def parse(arguments: Mapping[str, Any]) -> ParseResult:
            kept = drop_unknown(shape, arguments)
            try:
                value = load(kept)
            except ValidationError as exc:
                return fail(exc, kept, [])
            if learns:
                learn(value)
            return _new(Ok, (value, None))

    else:

        def parse(arguments: Mapping[str, Any]) -> ParseResult:
            try:
                value = load(arguments)
            except ValidationError as exc:
                found = quick(exc.messages, arguments, tables)
                if found is None:
                    return fail(exc, arguments, [])
                return invalid_arguments(found, arguments=arguments, accepted=accepted, cause=exc)
            if learns:
                learn(value)
            return _new(Ok, (value, None))

    return parse


def _post_load_hooks(schema: Schema) -> list[Callable[..., Any]]:
    """The schema's ``@post_load`` methods (marshmallow 3 and 4 tag them differently)."""
    kind = type(schema)
    resolved = getattr(kind, "_hooks", None)
    if isinstance(resolved, Mapping):
        # what marshmallow resolved when the class was made: {tag: [(name, ...), ...]}
        # (marshmallow 3 keys it by (tag, pass_many))
        found: list[Callable[..., Any]] = []
        for tag, entries in resolved.items():
            if "post_load" not in str(tag):
                continue
            for entry in entries:
                name = entry[0] if isinstance(entry, tuple) else entry
                method = getattr(kind, str(name), None)
                if callable(method):
                    found.append(method)
        return found
    found = []
    for name in dir(kind):
        method = getattr(kind, name, None)
        tags = getattr(method, "__marshmallow_hook__", None)
        if not callable(method) or not isinstance(tags, Mapping):
            continue
        if any("post_load" in str(tag) for tag in tags):
            found.append(method)
    return found


def _built_type(hooks: list[Callable[..., Any]]) -> type | None:
    """The class a ``@post_load`` hook is annotated to return, if any."""
    for method in hooks:
        kind = _return_type(method)
        if isinstance(kind, type) and kind not in (dict, object):
            return kind
    return None


def _return_type(method: Callable[..., Any]) -> Any:
    annotations = getattr(method, "__annotations__", None)
    if not isinstance(annotations, Mapping) or "return" not in annotations:
        return None
    found = annotations["return"]
    if isinstance(found, str):
        # the common spelling, "-> Order" under postponed annotations: one name
        # in the method's module (typing.get_type_hints resolves every one)
        space = getattr(method, "__globals__", {})
        if found.isidentifier() and isinstance(space.get(found), type):
            return space[found]
        try:
            return typing.get_type_hints(method).get("return")
        except Exception:
            return None
    return found
