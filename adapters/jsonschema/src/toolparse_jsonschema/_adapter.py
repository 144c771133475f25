"""The jsonschema adapter: a raw JSON Schema, fully validated by one engine per schema.

``args_schema=<a JSON Schema dict>`` (or a :class:`JsonSchema` wrapping one with
options) gives the model that very schema and checks every call against it,
reporting every problem at once. The engine is chosen once, at definition:
``jsonschema-rs`` when it is installed and takes the schema (:mod:`._rs`), else
the ``jsonschema`` library (:mod:`._pure`).

This module imports neither library: :meth:`JsonSchemaAdapter.accepts` runs for
every tool, and importing :class:`JsonSchema` stays cheap.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from dataclasses import KW_ONLY, astuple, dataclass, fields
from typing import Any

from toolparse import FunctionDefinitionError, ParseResult
from toolparse.adapter import AdapterBase, Compiled, FieldSchema, UnknownArguments

__all__ = ["JsonSchema", "JsonSchemaAdapter", "engine_parser"]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class JsonSchema(Mapping[str, Any]):
    """A JSON Schema for ``args_schema``, with options for the jsonschema adapter.

    A plain dict passed as ``args_schema`` uses the defaults; wrap it to change
    them::

        Function("weather", body, args_schema=JsonSchema(schema, apply_defaults=True))

    It reads as the schema itself (a read-only mapping), so everything that
    accepts a JSON Schema dict accepts it too; the options read as attributes.

    :param schema: the JSON Schema, an object schema (``"type": "object"`` or
        with ``"properties"``).
    :param apply_defaults: fill the ``default`` of every property the model
        left out into the arguments the tool body receives (top level, and
        inside nested objects that were sent).
    :param fast: the engine: ``jsonschema-rs`` when it is installed and takes
        the schema (``None``, the default), always (``True``: a definition
        error when it cannot) or never (``False``: the ``jsonschema`` library).
    :param pattern_timeout: seconds one ``pattern`` search of the ``jsonschema``
        library may take (``patternProperties`` and property names too); a
        search that takes longer twice (once may be a busy machine's doing)
        rejects the value as not checked in time.
    :param pattern_budget: seconds all those searches of one call may take
        together; once spent, every further search is out of time.
    """

    schema: Mapping[str, Any]
    _: KW_ONLY
    apply_defaults: bool = False
    fast: bool | None = None
    pattern_timeout: float = 0.1
    pattern_budget: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.schema, Mapping):
            raise TypeError(f"schema must be a JSON Schema dict, got {type(self.schema).__name__}")
        if not isinstance(self.apply_defaults, bool):
            raise TypeError("apply_defaults must be True or False")
        if self.fast not in (None, True, False):
            raise TypeError("fast must be None, True or False")
        for name in ("pattern_timeout", "pattern_budget"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"{name} must be a number of seconds greater than 0")
            object.__setattr__(self, name, float(value))  # (frozen: set once, here)

    def __getitem__(self, key: str) -> Any:
        return self.schema[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.schema)

    def __len__(self) -> int:
        return len(self.schema)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JsonSchema):
            return astuple(self) == astuple(other)
        return Mapping.__eq__(self, other)  # (slots make a new class: no bare super())

    __hash__ = None  # type: ignore[assignment]  # a mutable schema inside: unhashable like a dict

    def __repr__(self) -> str:
        shown = [(f.name, getattr(self, f.name), f.default) for f in fields(self)[1:]]
        options = "".join(f", {name}={value}" for name, value, default in shown if value != default)
        return f"JsonSchema({dict(self.schema)!r}{options})"


class JsonSchemaAdapter(AdapterBase):
    """The adapter for raw JSON Schema: any mapping given as ``args_schema``.

    The exported schema is the user's own (a copy); the parser hands the body
    the arguments dict, with defaults filled in when asked.
    """

    name = "jsonschema"

    def accepts(self, source: object) -> bool:
        """Every mapping is a JSON Schema (one that is not an object schema is refused)."""
        return isinstance(source, Mapping)

    def build(
        self,
        source: Mapping[str, Any],
        *,
        unknown_arguments: UnknownArguments,
        field_schema: FieldSchema | None,
        parser: bool,
    ) -> Compiled:
        """Check the schema once against its metaschema; the schema, and its parser.

        The schema's own ``additionalProperties`` stands at every level (the
        core applies the policy to the top-level names); the schema is the
        user's own, so ``field_schema`` is not consulted.
        """
        from ._schema import check

        definition = check(source.schema if isinstance(source, JsonSchema) else source)
        parse = engine_parser(definition, source) if parser else None
        # the engine keeps the checked schema; the core may close the copy it exports
        schema = copy.deepcopy(definition.schema) if parse is not None else definition.schema
        root = definition.root()
        properties, required = root.get("properties"), root.get("required")
        return Compiled(
            schema,
            parse,
            # a raw schema's names are sorted (the order the messages use)
            accepted=sorted(properties) if isinstance(properties, dict) else [],
            required=[n for n in required if isinstance(n, str)]
            if isinstance(required, list)
            else [],
            # either engine checks this very schema: a null it does not admit
            # is rejected, so only a rejected call needs the restore
            nulls_after_reject=parse is not None,
            verdict=getattr(parse, "verdict", None),
        )


def engine_parser(
    definition: Any, source: Mapping[str, Any]
) -> Callable[[dict[str, Any]], ParseResult]:
    """The parser of a checked schema (a ``_schema.Definition``), on the engine chosen for it."""
    from ._defaults import plan
    from ._pure import format_checker, pure_parser
    from ._rs import RsUnavailable, rs_parser
    from ._schema import subschemas

    options = source if isinstance(source, JsonSchema) else JsonSchema(source)
    properties = definition.root().get("properties")
    #: one tuple, so the renderer words its "Accepted parameters" line once
    accepted = tuple(sorted(properties)) if isinstance(properties, dict) else ()
    defaults = None
    if options.apply_defaults:  # (references to a metaschema resolve too)
        defaults = plan(definition.schema, next(subschemas(definition))[2])
    bounds = (options.pattern_timeout, options.pattern_budget)
    if options.fast is not False:
        checked = frozenset(format_checker(definition.dialect.validator).checkers)
        # the pure engine explains what jsonschema-rs' errors would cost too much to
        fallback = _pure_explainer(definition, bounds, accepted)
        try:
            return rs_parser(definition, checked, defaults, accepted, fallback)
        except RsUnavailable as exc:
            if options.fast:
                raise FunctionDefinitionError([("fast", str(exc))]) from exc
    return pure_parser(definition, bounds, defaults, accepted)


def _pure_explainer(
    definition: Any, bounds: tuple[float, float], accepted: tuple[str, ...]
) -> Callable[[dict[str, Any]], ParseResult]:
    """The pure engine's ``Error`` for a call jsonschema-rs rejected (its parser made on first need)."""
    from toolparse import ArgumentProblem, Ok, invalid_arguments

    from ._pure import pure_parser

    made: list[Callable[[dict[str, Any]], ParseResult]] = []

    def explain(arguments: dict[str, Any]) -> ParseResult:
        if not made:
            try:
                made.append(pure_parser(definition, bounds, None, accepted))
            except FunctionDefinitionError:  # a pattern only jsonschema-rs can search
                made.append(Ok)
        result = made[0](arguments)
        if type(result) is not Ok:
            return result
        # the engines disagree: jsonschema-rs rejected what the pure engine takes
        problem = ArgumentProblem((), "does not match the schema")
        return invalid_arguments([problem], arguments=arguments, accepted=accepted)

    return explain
