"""The jsonschema adapter: a raw JSON Schema, fully validated, by one engine per schema.

``args_schema=<a JSON Schema dict>`` (or a :class:`~toolparse_jsonschema.JsonSchema`
wrapping one) gives the model that very schema and checks every call against
it, reporting every problem at once. The engine is chosen once, at definition:
``jsonschema-rs`` when it is installed and takes the schema (:mod:`._rs`),
else the ``jsonschema`` library (:mod:`._pure`).

This module imports nothing from either library: :meth:`JsonSchemaAdapter.accepts`
runs for every tool, and a mapping is all it needs to see.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from toolparse import FunctionDefinitionError, ParseResult
from toolparse.adapter import AdapterBase, Compiled, FieldSchema, UnknownArguments

from ._source import JsonSchema

__all__ = ["JsonSchemaAdapter"]


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

        The schema's own ``additionalProperties`` stands at every level; the
        core applies the policy to the top-level names around this parser. The
        schema is the user's own, so ``field_schema`` is not consulted.
        """
        from ._schema import check

        definition = check(source.schema if isinstance(source, JsonSchema) else source)
        parse = engine_parser(definition, source) if parser else None
        # the engine keeps the checked schema; the core may close the copy it exports
        schema = copy.deepcopy(definition.schema) if parse is not None else definition.schema
        properties = schema.get("properties")
        required = schema.get("required")
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
    """The parser of a checked schema, on the engine chosen for it once."""
    from ._defaults import plan
    from ._formats import STANDARD_FORMATS, format_checker
    from ._patterns import Matcher, PatternRefused, schema_patterns
    from ._pure import pure_parser
    from ._refs import is_recursive
    from ._rs import RsUnavailable, rs_parser, rs_validator
    from ._schema import path_text

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
            validator = rs_validator(definition, STANDARD_FORMATS - checked)
        except RsUnavailable as exc:
            if options.fast:
                raise FunctionDefinitionError([("fast", str(exc))]) from exc
        else:
            recursive = is_recursive(definition)
            return rs_parser(definition, validator, defaults, accepted, recursive=recursive)
    matcher = Matcher(options.pattern_timeout, options.pattern_budget)
    # every pattern compiled now: one that cannot be searched under the time
    # bound is refused here, never searched without it
    for where, pattern in schema_patterns(definition.schema):
        try:
            matcher.prepare(pattern)
        except PatternRefused as exc:
            raise FunctionDefinitionError([(path_text(where), str(exc))]) from None
    return pure_parser(definition, matcher, defaults, accepted)
