"""The marshmallow adapter: a ``Schema`` class or instance as a tool's ``args_schema``."""

from __future__ import annotations

import copy
import functools
import json
import threading
import typing
from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError

from toolparse import ArgumentProblem, Ok, ParseResult, invalid_arguments

from ._errors import problems
from ._schema import Converted, convert
from ._shape import drop_unknown, has_nested_objects, unknown_paths

__all__ = ["MarshmallowAdapter"]

_POLICIES = ("report", "reject", "ignore")
_new = tuple.__new__  # builds an Ok without its Python-level __new__ (every call)


class _Compiled:
    """One tool's schema instance and everything derived from it, built once."""

    __slots__ = ("accepted", "converted", "policy", "schema", "source")

    def __init__(self, source: Any, policy: str) -> None:
        self.source = source
        self.policy = policy
        self.schema = _instance(source)
        self.converted: Converted = convert(self.schema, policy=policy)
        self.accepted = tuple(self.converted.json_schema["properties"])


def _instance(source: Any) -> Schema:
    schema: Schema = source() if isinstance(source, type) else source
    if schema.many:
        raise ValueError(
            f"{type(schema).__name__} was created with many=True, so it loads a list; "
            "tool arguments are one JSON object: pass the schema class, or an instance "
            "without many=True"
        )
    return schema


class MarshmallowAdapter:
    """Turns a marshmallow ``Schema`` (class or instance) into a tool's schema and parser.

    The JSON Schema comes from this package's converter (marshmallow has none);
    the parser is ``schema.load`` itself, so marshmallow's coercions,
    validators, ``@validates_schema`` and ``@post_load`` all apply, and the
    tool body receives what ``load`` returns. A class is instantiated once per
    tool; an instance is used as it is (its ``only``, ``exclude``,
    ``partial``, ``unknown`` and ``context`` included).
    """

    name = "marshmallow"

    def __init__(self) -> None:
        # json_schema() and parser() are called one after the other for the
        # same tool: the instance built for one is handed to the other, so a
        # schema class is instantiated once per tool
        self._recent = threading.local()
        #: type a schema's @post_load builds -> that schema, for serialize()
        self._dumpers: dict[type, Schema] = {}

    def accepts(self, source: object) -> bool:
        """A ``Schema`` subclass or instance."""
        try:
            return isinstance(source, Schema) or (
                isinstance(source, type) and issubclass(source, Schema)
            )
        except Exception:
            return False

    def _compiled(self, source: Any, policy: str) -> _Compiled:
        if policy not in _POLICIES:
            raise ValueError(
                f"unknown_arguments must be one of {', '.join(_POLICIES)}, got {policy!r}"
            )
        recent: _Compiled | None = getattr(self._recent, "value", None)
        if recent is not None and recent.source is source and recent.policy == policy:
            self._recent.value = None
            return recent
        compiled = _Compiled(source, policy)
        self._recent.value = compiled
        return compiled

    def json_schema(self, source: Any, *, unknown_arguments: str = "report") -> dict[str, Any]:
        """The JSON Schema of what ``schema.load`` accepts (see the converter)."""
        return copy.deepcopy(self._compiled(source, unknown_arguments).converted.json_schema)

    def parser(
        self, source: Any, *, unknown_arguments: str = "report"
    ) -> Callable[[Mapping[str, Any]], ParseResult]:
        """The parser: ``schema.load``, its errors as one shared ``Error``.

        ``"report"`` keeps the schema's own ``unknown`` setting; ``"reject"``
        loads with ``unknown=RAISE`` and refuses unknown keys of nested objects
        too; ``"ignore"`` loads with ``unknown=EXCLUDE`` and drops unknown keys
        of nested objects before loading.
        """
        compiled = self._compiled(source, unknown_arguments)
        schema = compiled.schema
        converted = compiled.converted
        hooks = _post_load_hooks(schema)
        known = _built_type(hooks)
        dumpers = self._dumpers
        if known is not None:
            dumpers.setdefault(known, schema)
        policy = compiled.policy
        load: Callable[[Any], Any] = schema.load
        if policy == "reject":
            load = functools.partial(schema.load, unknown=RAISE)
        elif policy == "ignore":
            load = functools.partial(schema.load, unknown=EXCLUDE)
        shape = converted.shape
        accepted = compiled.accepted

        def fail(
            exc: ValidationError | None, arguments: Mapping[str, Any], extra: list[ArgumentProblem]
        ) -> ParseResult:
            found = (
                []
                if exc is None
                else problems(
                    exc.messages,
                    shape,
                    arguments,
                    required_messages=converted.required_messages,
                    unknown_messages=converted.unknown_messages,
                )
            )
            return invalid_arguments(
                [*found, *extra], arguments=arguments, accepted=accepted, cause=exc
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
                    return fail(exc, arguments, [])
                if learns:
                    learn(value)
                return _new(Ok, (value, None))

        return parse

    # -- results ------------------------------------------------------------------

    def serialize(self, value: object) -> str | None:
        """JSON text for an object a tool's schema builds in ``@post_load``.

        marshmallow cannot tell which schema dumps an arbitrary object, so
        only the types that a loaded schema's ``@post_load`` hook is annotated
        to return are known; they are dumped with that schema. Anything else:
        ``None`` (not mine).
        """
        schema = self._dumpers.get(type(value))
        if schema is None:
            return None
        try:
            return json.dumps(schema.dump(value), ensure_ascii=False, allow_nan=False, default=str)
        except (TypeError, ValueError, AttributeError):
            return None


def _post_load_hooks(schema: Schema) -> list[Callable[..., Any]]:
    """The schema's ``@post_load`` methods (marshmallow 3 and 4 tag them differently)."""
    found: list[Callable[..., Any]] = []
    for name in dir(type(schema)):
        method = getattr(type(schema), name, None)
        tags = getattr(method, "__marshmallow_hook__", None)
        if not callable(method) or not isinstance(tags, Mapping):
            continue
        if any("post_load" in str(tag) for tag in tags):
            found.append(method)
    return found


def _built_type(hooks: list[Callable[..., Any]]) -> type | None:
    """The class a ``@post_load`` hook is annotated to return, if any."""
    for method in hooks:
        try:
            hints = typing.get_type_hints(method)
        except Exception:
            continue
        kind = hints.get("return")
        if isinstance(kind, type) and kind not in (dict, object):
            return kind
    return None
