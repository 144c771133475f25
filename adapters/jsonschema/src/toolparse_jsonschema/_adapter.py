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
from typing import Any

from toolparse import FunctionDefinitionError, ParseResult
from toolparse.adapter import AdapterBase, Compiled, FieldSchema, UnknownArguments

__all__ = ["JsonSchema", "JsonSchemaAdapter", "engine_parser"]


class JsonSchema(Mapping[str, Any]):
    """A JSON Schema for ``args_schema``, with options for the jsonschema adapter.

    A plain dict passed as ``args_schema`` uses the defaults; wrap it to change
    them::

        Function("weather", body, args_schema=JsonSchema(schema, apply_defaults=True))

    It reads as the schema itself (a read-only mapping), so everything that
    accepts a JSON Schema dict accepts it too.

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
        search that takes longer rejects the value as not checked in time.
    :param pattern_budget: seconds all those searches of one call may take
        together; once spent, every further search is out of time.
    """

    __slots__ = ("_apply_defaults", "_fast", "_pattern_budget", "_pattern_timeout", "_schema")

    def __init__(
        self,
        schema: Mapping[str, Any],
        *,
        apply_defaults: bool = False,
        fast: bool | None = None,
        pattern_timeout: float = 0.1,
        pattern_budget: float = 1.0,
    ) -> None:
        if not isinstance(schema, Mapping):
            raise TypeError(f"schema must be a JSON Schema dict, got {type(schema).__name__}")
        if not isinstance(apply_defaults, bool):
            raise TypeError("apply_defaults must be True or False")
        if fast not in (None, True, False):
            raise TypeError("fast must be None, True or False")
        for name, value in (
            ("pattern_timeout", pattern_timeout),
            ("pattern_budget", pattern_budget),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"{name} must be a number of seconds greater than 0")
        self._schema = schema
        self._apply_defaults = apply_defaults
        self._fast = fast
        self._pattern_timeout = float(pattern_timeout)
        self._pattern_budget = float(pattern_budget)

    @property
    def schema(self) -> Mapping[str, Any]:
        """The wrapped JSON Schema."""
        return self._schema

    @property
    def apply_defaults(self) -> bool:
        """Whether absent properties get their ``default`` before the body runs."""
        return self._apply_defaults

    @property
    def fast(self) -> bool | None:
        """``jsonschema-rs``: ``None`` when installed, ``True`` always, ``False`` never."""
        return self._fast

    @property
    def pattern_timeout(self) -> float:
        """Seconds one pattern search of the ``jsonschema`` library may take."""
        return self._pattern_timeout

    @property
    def pattern_budget(self) -> float:
        """Seconds the pattern searches of one call may take together."""
        return self._pattern_budget

    def __getitem__(self, key: str) -> Any:
        return self._schema[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._schema)

    def __len__(self) -> int:
        return len(self._schema)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JsonSchema):
            return self._options() == other._options()
        return super().__eq__(other)

    def _options(self) -> tuple[Any, ...]:
        return (
            self._schema,
            self._apply_defaults,
            self._fast,
            self._pattern_timeout,
            self._pattern_budget,
        )

    __hash__ = None  # type: ignore[assignment]  # a mutable schema inside: unhashable like a dict

    def __repr__(self) -> str:
        names = ("apply_defaults", "fast", "pattern_timeout", "pattern_budget")
        shown = zip(names, self._options()[1:], (False, None, 0.1, 1.0), strict=True)
        options = "".join(f", {name}={value}" for name, value, default in shown if value != default)
        return f"JsonSchema({dict(self._schema)!r}{options})"


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
        properties, required = schema.get("properties"), schema.get("required")
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
        )


def engine_parser(
    definition: Any, source: Mapping[str, Any]
) -> Callable[[dict[str, Any]], ParseResult]:
    """The parser of a checked schema (a ``_schema.Definition``), on the engine chosen for it."""
    from ._defaults import plan
    from ._formats import format_checker
    from ._patterns import Matcher, PatternRefused
    from ._pure import pure_parser
    from ._rs import RsUnavailable, rs_parser, rs_validator
    from ._schema import path_text, subschemas

    options = source if isinstance(source, JsonSchema) else JsonSchema(source)
    properties = definition.schema.get("properties")
    #: one tuple, so the renderer words its "Accepted parameters" line once
    accepted = tuple(sorted(properties)) if isinstance(properties, dict) else ()
    defaults = None
    if options.apply_defaults:
        defaults = plan(definition.schema, definition.registry.resolver(definition.base_uri))
    if options.fast is not False:
        checked = frozenset(format_checker(definition.dialect.validator).checkers)
        try:
            validator = rs_validator(definition, checked)
        except RsUnavailable as exc:
            if options.fast:
                raise FunctionDefinitionError([("fast", str(exc))]) from exc
        else:
            return rs_parser(definition, validator, defaults, accepted)
    # every pattern compiled now: one that cannot be searched under the time
    # bound is refused here, never searched without it
    matcher = Matcher(options.pattern_timeout, options.pattern_budget)
    for node, path, _ in subschemas(definition):
        for keyword, pattern in (
            ("pattern", node.get("pattern")),
            *(("patternProperties", p) for p in node.get("patternProperties") or ()),
        ):
            try:
                if isinstance(pattern, str):
                    matcher.prepare(pattern)
            except PatternRefused as exc:
                raise FunctionDefinitionError([(path_text([*path, keyword]), str(exc))]) from None
    return pure_parser(definition, matcher, defaults, accepted)
