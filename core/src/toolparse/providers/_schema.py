"""The parameters schema every export starts from, and the two walks the formats share.

:func:`rewrite` copies a schema, changing each subschema on the way back up; :class:`SchemaWalk`
converts one for a format that cannot say everything (the strict modes, Gemini's ``Schema``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .._schemas import MAX_DEPTH, merge_all_of, resolve_ref
from ._base import Schema

if TYPE_CHECKING:
    from ..function import Function

__all__ = ["Converted", "Rule", "SchemaWalk", "loose_array", "note", "parameters", "rewrite"]

# keywords whose values are data, not schemas: never rewritten
_DATA = frozenset({"enum", "const", "default", "examples", "required", "example"})
# keywords whose values map names to schemas: the map itself is not one
_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"})


def parameters(function: Function, provider: str) -> Schema:
    """The parameters schema of ``function`` as every provider starts from it: an object root."""
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
        try:
            schema = merge_all_of(schema, schema)  # Anthropic refuses allOf at the top level
        except ValueError:
            pass  # parts that disagree: left for each provider's own rule
    kind = schema.get("type")
    if kind is None and "properties" in schema:
        schema = {"type": "object", **schema}
    elif kind == ["object"]:
        schema = {**schema, "type": "object"}
    elif kind != "object":
        raise ValueError(
            f"{provider}: the parameters of tool {function.name!r} must be a JSON Schema of "
            f'type "object", got type {kind!r}'
        )
    modern = rewrite(schema, _modern_tuple)
    if modern != schema and "2020-12" not in str(schema.get("$schema", "2020-12")):
        # the rewrite is 2020-12: an older dialect named at the root no longer applies
        del modern["$schema"]
    said = modern.get("description")
    if isinstance(said, str) and said.strip() == (function.description or "").strip():
        del modern["description"]  # said once, as the tool's description
    return modern


def rewrite(schema: Schema, finish: Callable[[Mapping[str, Any], Schema], Schema]) -> Schema:
    """A new schema: every subschema copied, then ``finish(source, copy)`` gives its new form.

    Levels are counted as ``Function`` counts them for a raw schema.
    """

    def walk(node: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ValueError(f"the schema is nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, list):
            return [walk(v, depth + 1) for v in node]
        if not isinstance(node, Mapping):
            return node
        out: Schema = {}
        for key, value in node.items():
            if key in _DATA:
                out[key] = value
            elif key in _MAPS and isinstance(value, Mapping):
                # a properties map is no level of its own; a map of definitions is one
                level = depth + 1 if key == "properties" else depth + 2
                out[key] = {k: walk(v, level) for k, v in value.items()}
            else:
                out[key] = walk(value, depth + 1)
        return finish(node, out)

    result: Schema = walk(schema, 0)
    return result


def _modern_tuple(node: Mapping[str, Any], out: Schema) -> Schema:
    """Draft-07 ``items: [...]``/``additionalItems`` as 2020-12 ``prefixItems``/``items``."""
    if not isinstance(node.get("items"), list):
        return out
    renamed: Schema = {}
    for key, value in out.items():  # in the same order, the tuple's keys renamed
        if key == "items":
            renamed["prefixItems"] = value
            if out.get("additionalItems") is not None:
                renamed["items"] = out["additionalItems"]
        elif key != "additionalItems":
            renamed[key] = value
    return renamed


def loose_array(node: Mapping[str, Any], out: Schema) -> Schema:
    """An array with ``items``: OpenAI refuses one without ("array schema missing items")."""
    kind = out.get("type")
    if kind == "array" or (isinstance(kind, list) and "array" in kind):
        if out.get("items") is False:
            prefix = out.get("prefixItems")
            count = len(prefix) if isinstance(prefix, list) else 0
            out["maxItems"] = min(out.get("maxItems", count), count)
            out["items"] = {}
        out.setdefault("items", {})
    return out


def note(key: str, value: Any) -> str:
    """One keyword as a note: ``format: uri``, ``uniqueItems: true``."""
    if isinstance(value, str):
        return f"{key}: {value}"
    return f"{key}: {json.dumps(value, ensure_ascii=False, separators=(', ', ': '))}"


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
        """The converted schema, its notes added to the description (the parser enforces them)."""
        if self.notes:
            text = "(" + "; ".join(self.notes) + ")"
            base = self.out.get("description")
            self.out["description"] = f"{base} {text}" if base else text
        return self.out


#: a keyword's rule, ``rule(walk, key, value, node)``: writes the keyword into ``node.out``, or a note
Rule = Callable[[Any, str, Any, Converted], None]


class SchemaWalk:
    """The recursive transform the strict and Gemini exports share, for one root.

    :meth:`node` inlines a reference under its siblings (meeting it again inside is :meth:`cycle`),
    merges ``allOf`` (:meth:`all_of`) and hands the rest to the format's :meth:`convert`.
    """

    __slots__ = ("inlining", "root")

    #: a bare reference stays one (the format sends the definitions along)
    keeps_refs: ClassVar[bool] = False
    #: the format's name of the string type, and its schemas for "any value"
    string: ClassVar[str]
    any_value: ClassVar[tuple[Schema, ...]]
    #: the keywords of a map said in words when it becomes a JSON string
    map_notes: ClassVar[tuple[str, ...]] = ()
    #: the keywords the format has (kept by :meth:`other`)
    keep: frozenset[str]
    #: annotations with nothing to say to the model: dropped without a note
    silent: ClassVar[frozenset[str]] = frozenset(
        {"$schema", "$id", "$anchor", "$comment", "discriminator", "readOnly", "writeOnly"}
        | {"deprecated", "contentEncoding", "contentMediaType"}
    )

    def __init__(self, root: Schema) -> None:
        self.root = root
        self.inlining: list[str] = []

    def node(self, schema: object, path: tuple[str, ...], notes: list[str] | None = None) -> Schema:
        """``schema`` in the format; ``notes`` go into its description."""
        if len(path) > 2 * MAX_DEPTH:
            raise self.fail(path, f"nesting deeper than {MAX_DEPTH} levels")
        s = self.start(schema, path)
        ref = s.get("$ref")
        if isinstance(ref, str) and not (self.keeps_refs and s.keys() <= _BARE_REF):
            del s["$ref"]
            if ref in self.inlining:
                s = self.cycle(ref, path)
            else:
                # resolved here, not in a helper: a level of nesting costs few frames
                self.inlining.append(ref)
                try:
                    return self.node({**resolve_ref(self.root, ref), **s}, path, notes)
                finally:
                    self.inlining.pop()
        if isinstance(s.get("allOf"), list):
            return self.all_of(s, path, notes)
        return self.convert(s, Converted(path, notes or ()))

    def start(self, schema: object, path: tuple[str, ...]) -> Schema:
        """``schema`` as a dict to convert (``true`` and ``false``: ``{}``, any value)."""
        return dict(schema) if isinstance(schema, Mapping) else {}

    def fail(self, path: tuple[str, ...], why: str, change: str | None = None) -> ValueError:
        """The error for a schema the format cannot express."""
        raise NotImplementedError

    def cycle(self, ref: str, path: tuple[str, ...]) -> Schema:
        """What a reference met again while its target is being inlined becomes."""
        raise NotImplementedError

    def all_of(self, s: Schema, path: tuple[str, ...], notes: list[str] | None) -> Schema:
        """``s`` with its ``allOf`` parts as one schema, converted."""
        raise NotImplementedError

    def convert(self, s: Schema, node: Converted) -> Schema:
        """``s``, without references or ``allOf``, in the format."""
        raise NotImplementedError

    def kind(self, schema: Schema) -> str:
        """A converted schema's type in a word or two, for notes."""
        raise NotImplementedError

    def anything(self) -> Schema:
        """A value of any type, as the format can say it."""
        return {"anyOf": [dict(v) for v in self.any_value]}

    def skip(self, key: str, value: Any, node: Converted) -> None:
        """A keyword :meth:`convert` writes with the others of its kind (arrays, objects)."""

    def other(self, key: str, value: Any, node: Converted) -> None:
        """A keyword without a rule: kept when the format has it, else described."""
        if key in self.keep:
            node.out[key] = value
        elif key not in self.silent:
            node.note(key, value)

    def json_string(self, s: Schema, node: Converted) -> None:
        """A free-form object as a JSON-encoded string (decoded before the parser runs).

        An object must declare its properties (Gemini) or be closed (strict): a map is neither.
        """
        node.notes.append(_TEXT)
        node.out["type"] = self.string
        if "description" in s:
            node.out["description"] = s["description"]
        values = s.get("additionalProperties")
        if isinstance(values, Mapping) and values:
            node.note("each value", values)
        for key in self.map_notes:
            if key in s:
                node.note(key, s[key])

    def one_string(self, branches: list[Schema], node: Converted) -> list[Schema]:
        """``anyOf`` branches, a free-form object's text said by a plain string branch (once)."""
        strings = [b for b in branches if b.get("type") == self.string]
        texts = [b for b in strings if _TEXT in str(b)]
        if not texts or not any(b not in texts and b.keys() <= _PLAIN for b in strings):
            return branches
        node.notes.append(f"text, or {_TEXT}")
        return [b for b in branches if b not in texts]

    def positional(self, s: Schema, node: Converted) -> tuple[Schema, int | None]:
        """Positional items, said in words: their union, and a closed tuple's ``maxItems``."""
        prefix, rest, most = s["prefixItems"], s.get("items"), s.get("maxItems")
        items = [self.node(v, (*node.path, "prefixItems", str(i))) for i, v in enumerate(prefix)]
        closed = rest is False or (isinstance(most, int) and most <= len(prefix))
        told = not closed and isinstance(rest, Mapping) and bool(rest)
        tail = [self.node(rest, (*node.path, "items"))] if told else []
        if not closed and not told:
            tail = self.anything()["anyOf"]
        union = [b for i, b in enumerate(items + tail) if b not in (items + tail)[:i]]
        text = "in this order: " + ", ".join(self.kind(b) for b in items)
        if not closed:
            text += f", then any number of {self.kind(tail[0]) if told else 'values'}"
        node.notes.append(text)
        largest = None
        if closed:
            largest = min(most, len(prefix)) if isinstance(most, int) else len(prefix)
        return union[0] if len(union) == 1 else {"anyOf": union}, largest


_BARE_REF = frozenset({"$ref", "$defs", "definitions"})
_TEXT = "a JSON object, encoded as a string"
_PLAIN = frozenset({"type", "title", "description"})  # a string branch that takes any text
