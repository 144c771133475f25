"""What the strict modes refuse in a finished schema: OpenAI's sizes, Anthropic's recursion."""

from __future__ import annotations

from collections.abc import Mapping

from .._schemas import resolve_ref
from ._common import Schema

__all__ = ["check_openai_limits", "recursion"]

_MAX_SCHEMA_DEPTH = 100

_MAX_PROPERTIES = 5000
_MAX_DEPTH = 10
_MAX_ENUM_VALUES = 1000
_MAX_STRING_BUDGET = 120_000


def check_openai_limits(schema: Schema, name: str) -> None:
    """Refuse a strict schema over OpenAI's documented size limits.

    At most 5000 properties and 10 levels of object nesting (both counted
    through ``$ref``, as the schema expands; a recursive reference is counted
    once), 1000 enum values, and 120,000 characters of property names,
    definition names, enum and const values.
    """
    properties, deepest = _expanded(schema)
    enums = chars = 0
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, Mapping):
            continue
        props = node.get("properties")
        if isinstance(props, Mapping):
            chars += sum(len(k) for k in props)
            stack.extend(props.values())
        for key in ("$defs", "definitions"):
            defs = node.get(key)
            if isinstance(defs, Mapping):
                chars += sum(len(k) for k in defs)
                stack.extend(defs.values())
        values = node.get("enum")
        if isinstance(values, list):
            enums += len(values)
            chars += sum(len(str(v)) for v in values if v is not None)
        if "const" in node:
            chars += len(str(node["const"]))
        for key in ("items", "anyOf", "allOf"):
            if key in node:
                stack.append(node[key])
    for what, count, limit in (
        ("properties", properties, _MAX_PROPERTIES),
        ("levels of object nesting", deepest, _MAX_DEPTH),
        ("enum values", enums, _MAX_ENUM_VALUES),
        ("characters of names and enum values", chars, _MAX_STRING_BUDGET),
    ):
        if count > limit:
            raise ValueError(
                f"openai strict mode allows at most {limit} {what} in a schema; "
                f"tool {name!r} has {count}"
            )


def _expanded(schema: Schema) -> tuple[int, int]:
    """Properties and object nesting of ``schema`` with every ``$ref`` expanded.

    Each definition is measured once (memoised); a reference back into a
    definition being measured (recursion) adds nothing.
    """
    memo: dict[str, tuple[int, int]] = {}
    active: set[str] = set()

    def measure(node: object, depth: int) -> tuple[int, int]:
        if depth > 4 * _MAX_SCHEMA_DEPTH:
            return 0, 0
        if isinstance(node, list):
            found = [measure(v, depth + 1) for v in node]
            return sum(p for p, _ in found), max((d for _, d in found), default=0)
        if not isinstance(node, Mapping):
            return 0, 0
        count = deepest = 0
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref in memo:
                count, deepest = memo[ref]
            elif ref not in active:
                active.add(ref)
                try:
                    memo[ref] = measure(resolve_ref(schema, ref), depth + 1)
                except ValueError:
                    memo[ref] = (0, 0)
                active.discard(ref)
                count, deepest = memo[ref]
        props = node.get("properties")
        if isinstance(props, Mapping):
            count += len(props)
            for value in props.values():
                p, d = measure(value, depth + 1)
                count, deepest = count + p, max(deepest, d)
        for key in ("items", "anyOf", "allOf", "prefixItems"):
            if key in node:
                p, d = measure(node[key], depth + 1)
                count, deepest = count + p, max(deepest, d)
        kind = node.get("type")
        if kind == "object" or (isinstance(kind, list) and "object" in kind):
            deepest += 1
        return count, deepest

    return measure(schema, 0)


def recursion(schema: Schema) -> str | None:
    """Why ``schema`` is recursive (Anthropic's strict mode decodes no recursion), or ``None``."""
    defs = {
        f"#/{key}/{name}": value
        for key in ("$defs", "definitions")
        for name, value in (schema.get(key) or {}).items()
    }
    edges = {name: _refs(value) for name, value in defs.items()}
    if "#" in _refs(schema) or any("#" in targets for targets in edges.values()):
        return "a recursive schema"
    state: dict[str, int] = {}

    def visit(name: str) -> str | None:
        state[name] = 1
        for target in edges.get(name, ()):
            if state.get(target) == 1:
                return f"a recursive schema ({name} refers back to itself)"
            why = visit(target) if target not in state else None
            if why is not None:
                return why
        state[name] = 2
        return None

    for name in edges:
        why = visit(name) if name not in state else None
        if why is not None:
            return why
    return None


def _refs(node: object) -> list[str]:
    """Every ``$ref`` under ``node``, but those of nested definitions."""
    found: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if isinstance(item.get("$ref"), str):
                found.append(item["$ref"])
            stack.extend(v for k, v in item.items() if k not in ("$defs", "definitions"))
        elif isinstance(item, list):
            stack.extend(item)
    return found
