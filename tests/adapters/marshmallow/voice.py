"""The marshmallow adapter's sources for the conformance kit's one-voice check."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from toolparse.testing import OneVoice


class Named(Schema):
    name = fields.String(required=True)


def _schema(name: str, field: fields.Field) -> type[Schema]:
    return Schema.from_dict({"value": field}, name=name)


def _sources() -> dict[str, Any]:
    return {
        "string": _schema("AString", fields.String(required=True)),
        "integer": _schema("AnInteger", fields.Integer(required=True)),
        "number": _schema("ANumber", fields.Float(required=True)),
        "boolean": _schema("ABoolean", fields.Boolean(required=True)),
        "object": _schema("AnObject", fields.Nested(Named, required=True)),
        "list": _schema("AList", fields.List(fields.Integer(), required=True)),
        "enum": _schema(
            "AChoice", fields.String(required=True, validate=validate.OneOf(["a", "b"]))
        ),
        "minimum": _schema(
            "AtLeast", fields.Integer(required=True, validate=validate.Range(min=1))
        ),
        "maximum": _schema(
            "AtMost", fields.Integer(required=True, validate=validate.Range(max=50))
        ),
        "min_length": _schema(
            "LongEnough", fields.String(required=True, validate=validate.Length(min=3))
        ),
        "max_length": _schema(
            "ShortEnough", fields.String(required=True, validate=validate.Length(max=5))
        ),
        "pattern": _schema(
            "Matching", fields.String(required=True, validate=validate.Regexp("^[A-Z]+$"))
        ),
        "min_items": _schema(
            "EnoughItems",
            fields.List(fields.Integer(), required=True, validate=validate.Length(min=2)),
        ),
        "date": _schema("ADate", fields.Date(required=True)),
        "nested_required": _schema("AnObject", fields.Nested(Named, required=True)),
    }


SOURCES = _sources()


def one_voice(check: OneVoice) -> Any:
    """The schema declaring ``value`` as ``check`` says."""
    return SOURCES.get(check.key)


#: checks marshmallow's case does not meet yet, with the text it reads (none)
ONE_VOICE_GAPS: dict[str, str] = {}
