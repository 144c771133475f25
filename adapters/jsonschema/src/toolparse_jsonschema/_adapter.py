"""The jsonschema adapter: a raw JSON Schema, fully validated.

``args_schema=<a JSON Schema dict>`` (or a :class:`~toolparse_jsonschema.JsonSchema`
wrapping one) gives the model that very schema and checks every call against
it with the ``jsonschema`` library, reporting every problem at once.

This module imports nothing from ``jsonschema``: :meth:`JsonSchemaAdapter.accepts`
runs for every tool, and a mapping is all it needs to see. The library is
imported by :meth:`JsonSchemaAdapter.compile`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from toolparse.adapter import Compiled, FieldSchema, UnknownArguments, check_policy

from ._source import JsonSchema

__all__ = ["JsonSchemaAdapter"]


def closed(schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` refuses every top-level name outside its ``properties``.

    ``additionalProperties: false`` with no ``patternProperties`` beside it
    (those admit names the accepted ones do not list); the validators check
    this very schema, so their verdict on a call holds its names too.
    """
    return (
        schema.get("additionalProperties") is False
        and not schema.get("patternProperties")
        and isinstance(schema.get("properties"), dict)
    )


class JsonSchemaAdapter:
    """The adapter for raw JSON Schema: any mapping given as ``args_schema``.

    The exported schema is the user's own (a deep copy); the parser validates
    with the ``jsonschema`` library (and ``jsonschema-rs`` when installed) and
    hands the body the arguments dict, with defaults filled in when asked.
    """

    name = "jsonschema"

    def accepts(self, source: object) -> bool:
        """Every mapping is a JSON Schema (one that is not an object schema is refused)."""
        return isinstance(source, Mapping)

    def compile(
        self,
        source: Mapping[str, Any],
        *,
        unknown_arguments: UnknownArguments = "report",
        field_schema: FieldSchema | None = None,
        parser: bool = True,
    ) -> Compiled:
        """Check the schema once against its metaschema; the schema and its validator.

        The exported schema is the schema itself (a copy; the core closes it
        for ``"reject"``). The schema's own ``additionalProperties`` stands at
        every level; the core applies the policy to the top-level names
        around this parser. The schema is the user's own, so ``field_schema``
        is not consulted.
        """
        check_policy(unknown_arguments)
        verdict = explain = None
        if parser:
            from ._compiled import CompiledSchema

            compiled = CompiledSchema(source)
            # the validators keep the checked schema; the core may close the copy it exports
            schema, parse = copy.deepcopy(compiled.definition.schema), compiled.parse
            verdict = compiled.verdict
            # the parser's own step for a call jsonschema-rs refused: not decided twice
            explain = compiled.rejected if verdict is not None else None
        else:
            from ._schema import check

            options = source.schema if isinstance(source, JsonSchema) else source
            schema, parse = check(options).schema, None
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
            # the validators check this very schema (on either path): a null it
            # does not admit is rejected, so only a rejected call needs the restore
            nulls_after_reject=parse is not None,
            verdict=verdict,
            closed=closed(schema),
            explain=explain,
        )

    def json_schema(
        self, source: Mapping[str, Any], *, unknown_arguments: UnknownArguments = "report"
    ) -> dict[str, Any]:
        """The schema itself, checked and copied (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments, parser=False).schema

    def parser(
        self, source: Mapping[str, Any], *, unknown_arguments: UnknownArguments = "report"
    ) -> Any:
        """The parser alone (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments).parser
