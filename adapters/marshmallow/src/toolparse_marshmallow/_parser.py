"""The parser: ``schema.load`` itself, its errors read once into one shared ``Error``."""

from __future__ import annotations

import copyreg
import functools
from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, missing

from toolparse import ArgumentProblem, Ok, ParseResult, invalid_arguments

from ._errors import problems
from ._shape import Level, unknown_keys

__all__ = ["make_parser"]

# marshmallow's ``missing`` has no ``__reduce__``, so pickle copies it, and a copy is not
# ``missing``: a Schema class sent by value (cloudpickle sends a tool defined in ``__main__``
# to a worker that way) would load an absent field as that copy. Pickled by its name, it
# stays the one sentinel, as the pickle docs advise for singletons.
if "__reduce__" not in vars(type(missing)):
    copyreg.pickle(type(missing), lambda _: "missing")


def make_parser(
    schema: Schema,
    root: Level,
    policy: str,
    accepted: tuple[str, ...],
    dumpers: dict[type, Schema],
) -> Callable[[Mapping[str, Any]], ParseResult]:
    """The parser for one tool's schema instance.

    ``"report"`` keeps the schema's own ``unknown`` setting; ``"reject"``
    loads with ``unknown=RAISE`` and refuses the unknown keys of nested
    objects too; ``"ignore"`` loads with ``unknown=EXCLUDE`` and drops the
    unknown keys of nested objects before loading. ``dumpers`` learns which
    schema dumps the objects a ``@post_load`` builds (for ``serialize``).
    """
    load: Callable[[Any], Any] = schema.load
    if policy == "reject":
        load = functools.partial(schema.load, unknown=RAISE)
    elif policy == "ignore":
        load = functools.partial(schema.load, unknown=EXCLUDE)

    def rejected(
        exc: ValidationError | None, arguments: Mapping[str, Any], extra: list[ArgumentProblem]
    ) -> ParseResult:
        found, more = ([], 0) if exc is None else problems(exc.messages, root, arguments)
        return invalid_arguments(
            [*found, *extra], arguments=arguments, accepted=accepted, cause=exc, more=more
        )

    def learnt(value: Any) -> Ok[Any]:
        # an object of a new type that a @post_load built: the schema that dumps
        # it (a mapping or a builtin is not a model)
        kind = type(value)
        if kind not in dumpers and kind.__module__ != "builtins" and not isinstance(value, Mapping):
            dumpers.setdefault(kind, schema)
        return Ok(value)

    checked, drop = policy != "report", policy == "ignore"

    def parse(arguments: Mapping[str, Any]) -> ParseResult:
        extra: list[ArgumentProblem] = []
        if checked:
            arguments, paths = unknown_keys(root, arguments, drop=drop)
            extra = [] if drop else [ArgumentProblem.unrecognized(path) for path in paths]
        try:
            value = load(arguments)
        except ValidationError as exc:
            return rejected(exc, arguments, extra)
        if extra:
            return rejected(None, arguments, extra)
        return Ok(value) if type(value) is dict else learnt(value)

    return parse
