"""The parameters schema every export starts from, and the rewrites several formats share.

One rule, one place: a root ``$ref`` is inlined under its siblings, Draft-07
tuples (``items: [...]``) become 2020-12 ``prefixItems``, and the tool's
description is not repeated inside its parameters. What a single format needs
lives in its own module (``_strict``, ``_gemini_schema``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .._schemas import MAX_DEPTH, merge_all_of, resolve_ref
from ._common import Schema, add_notes, note, object_root

if TYPE_CHECKING:
    from ..function import Function

__all__ = [
    "ANY_VALUE",
    "JSON_OBJECT_NOTE",
    "Converted",
    "loose_arrays",
    "modern_tuples",
    "parameters",
    "tuple_note",
]

#: what "any value" becomes where every schema needs a type (strict modes)
ANY_VALUE: tuple[Schema, ...] = (
    {"type": "string"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "null"},
)
#: the note on a free-form object exported as a JSON-encoded string
JSON_OBJECT_NOTE = "a JSON object, encoded as a string"

# keywords whose values are data, not schemas: never rewritten
_DATA = frozenset({"enum", "const", "default", "examples", "required", "example"})


def parameters(function: Function, provider: str) -> Schema:
    """The parameters schema of ``function`` as every provider starts from it.

    An object root (a root ``$ref`` is inlined, its siblings win), tuples in
    2020-12 form, and no top-level ``description`` when it is the tool's own.
    """
    schema = function.json_schema()
    ref = schema.get("$ref")
    if isinstance(ref, str):
        # a root reference (recursive models, root models): siblings such as
        # `type: object` must not hide the target's properties
        try:
            target = resolve_ref(schema, ref)
        except ValueError as exc:
            raise ValueError(f"{provider}: tool {function.name!r}: {exc}") from None
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    if isinstance(schema.get("allOf"), list):
        # a root allOf (refused at the top level by Anthropic): its parts as one
        try:
            schema = merge_all_of(schema, schema)
        except ValueError:
            pass  # parts that disagree: left for each provider's own rule
    schema = object_root(schema, provider, function.name)
    modern = modern_tuples(schema)
    if modern != schema and "2020-12" not in str(schema.get("$schema", "2020-12")):
        # the rewrite is 2020-12: an older dialect named at the root no longer applies
        del modern["$schema"]
    schema = modern
    if function.description is not None and schema.get("description") == function.description:
        del schema["description"]  # said once, as the tool's description
    return schema


def _too_deep(depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ValueError(f"the schema is nested deeper than {MAX_DEPTH} levels")


def _rewrite(schema: Schema, finish: Callable[[Mapping[str, Any], Schema], Schema]) -> Schema:
    """A new schema: every subschema copied, then ``finish(source, copy)`` gives its new form.

    Data keywords (``enum``, ``default``, ...) are kept as they are; the
    values of ``properties`` are schemas, the map itself is not one.
    """

    def walk(node: Any, depth: int) -> Any:
        _too_deep(depth)
        if isinstance(node, list):
            return [walk(v, depth + 1) for v in node]
        if not isinstance(node, Mapping):
            return node
        out: Schema = {}
        for key, value in node.items():
            if key in _DATA:
                out[key] = value
            elif key == "properties" and isinstance(value, Mapping):
                out[key] = {k: walk(v, depth + 1) for k, v in value.items()}
            else:
                out[key] = walk(value, depth + 1)
        return finish(node, out)

    result: Schema = walk(schema, 0)
    return result


def modern_tuples(schema: Schema) -> Schema:
    """``schema`` with Draft-07 ``items: [...]``/``additionalItems`` as 2020-12 ``prefixItems``/``items``.

    Every format reads 2020-12, where a list under ``items`` is not a schema.
    Always a new schema, even with nothing to rewrite; ``schema`` is left
    as it is.
    """
    return _rewrite(schema, _modern_tuple)


def _modern_tuple(node: Mapping[str, Any], out: Schema) -> Schema:
    if not isinstance(node.get("items"), list):
        return out
    renamed: Schema = {}
    for key, value in out.items():  # in the same order, the tuple's keys renamed
        if key == "items":
            renamed["prefixItems"] = value
            extra = out.get("additionalItems")
            if extra is not None:
                renamed["items"] = extra
        elif key != "additionalItems":
            renamed[key] = value
    return renamed


def loose_arrays(schema: Schema) -> Schema:
    """Every array with an ``items`` schema, as OpenAI wants even outside strict mode.

    OpenAI answers "array schema missing items" otherwise. A missing ``items``
    becomes ``{}`` (any value: the same meaning); ``items: false`` after a
    tuple becomes ``maxItems`` (the same meaning too).
    """
    return _rewrite(schema, _loose_array)


def _loose_array(node: Mapping[str, Any], out: Schema) -> Schema:
    kind = out.get("type")
    if kind == "array" or (isinstance(kind, list) and "array" in kind):
        prefix = out.get("prefixItems")
        if out.get("items") is False:
            count = len(prefix) if isinstance(prefix, list) else 0
            out["maxItems"] = min(out.get("maxItems", count), count)
            out["items"] = {}
        out.setdefault("items", {})
    return out


def tuple_note(kinds: list[str], rest: str | None, closed: bool) -> str:
    """The note a format that cannot say "in this order" gets instead."""
    text = "in this order: " + ", ".join(kinds)
    if not closed:
        text += f", then any number of {rest or 'values'}"
    return text


class Converted:
    """One schema while a format's walk converts it: its new keywords, and notes for the rest."""

    __slots__ = ("notes", "nullable", "out", "path")

    def __init__(self, path: tuple[str, ...], notes: Iterable[str] = ()) -> None:
        self.path = path
        self.out: Schema = {}
        #: what the format cannot say, said in the description instead
        self.notes = list(notes)
        #: whether ``null`` is allowed too (Gemini says it with ``nullable``)
        self.nullable = False

    def note(self, key: str, value: Any) -> None:
        """Describe one keyword instead of sending it."""
        self.notes.append(note(key, value))

    def done(self) -> Schema:
        """The converted schema, its notes added to the description."""
        add_notes(self.out, self.notes)
        return self.out
