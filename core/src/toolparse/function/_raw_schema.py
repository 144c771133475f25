"""A raw ``parameters_schema``: copied and checked once, at definition.

The copy reads any depth without running out of stack; the check refuses a
schema whose keywords have values of the wrong kind (``"required": 1``,
``"properties": []``), which every later step (the required-key check, the
null-restoring step, the exports) would otherwise trip over at run time.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from .._schemas import MAX_DEPTH, resolve_ref

__all__ = ["copy_schema", "schema_problems"]

_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a raw JSON Schema, for any depth it is given at.

    Objects become dicts, lists and tuples keep their type, a part used twice
    is copied once (as ``copy.deepcopy`` does), other values are deep-copied.
    Levels are counted as the exports count them: every value is one level
    below the schema holding it, and a ``properties`` map is not a level of
    its own. The copy stops at ``MAX_DEPTH`` levels, so it never runs out of
    stack whatever the schema.

    :raises ValueError: the schema is nested deeper than ``MAX_DEPTH`` levels,
        contains itself, or holds a value that cannot be copied.
    """
    done: dict[int, Any] = {}  # finished copies by id(source), for parts used twice
    active: set[int] = set()  # the containers being copied: meeting one again is a cycle
    path: list[object] = []

    def container(value: Any, depth: int) -> Any:
        # ``depth``: the level of this container's values
        active.add(id(value))
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        out: Any = {} if isinstance(value, Mapping) else [None] * len(value)
        if depth > MAX_DEPTH and value:
            key = next(iter(items))[0]
            raise ValueError(f"is nested deeper than {MAX_DEPTH} levels (at {_where(path, key)})")
        for key, item in items:
            if type(item) in _SCALARS:
                out[key] = item
            elif isinstance(item, (Mapping, list, tuple)):
                found = done.get(id(item))
                if found is None:
                    if id(item) in active:
                        raise ValueError(f"contains itself (at {_where(path, key)})")
                    path.append(key)
                    # a properties map's values are one level below the schema holding it
                    properties = key == "properties" and isinstance(item, Mapping)
                    found = container(item, depth if properties else depth + 1)
                    path.pop()
                out[key] = found
            else:
                out[key] = _leaf(item, path, key)
        if isinstance(value, tuple):
            out = tuple(out)
        active.discard(id(value))
        done[id(value)] = out
        return out

    copied: dict[str, Any] = container(schema, 1)  # (a mapping's copy is a dict)
    return copied


def _leaf(value: Any, path: list[object], key: object) -> Any:
    try:
        return copy.deepcopy(value)
    except RecursionError:
        raise ValueError(
            f"holds a value nested too deeply to copy (at {_where(path, key)})"
        ) from None
    except Exception as exc:
        raise ValueError(
            f"holds a {type(value).__name__} that cannot be copied "
            f"(at {_where(path, key)}: {type(exc).__name__})"
        ) from None


def _where(path: list[object], key: object) -> str:
    """The path of a value, for a definition error (its first and last steps when long)."""
    keys = [*path, key]

    def text(part: list[object]) -> str:
        return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in part).lstrip(".")

    if len(keys) > 8:
        return f"{text(keys[:4])} ... {text(keys[-4:])}"
    return text(keys)


# -- the check -----------------------------------------------------------------------

#: the most problems one definition error lists
MAX_SCHEMA_PROBLEMS = 10

Refs = list[tuple[list[object], str]]


def schema_problems(schema: Mapping[str, Any]) -> list[str]:
    """What is wrong with the shape of a raw schema: ``path: must be ...`` (empty: nothing).

    Only the keywords toolparse and the exports read are checked, and only the
    kind of their values (an object, a list of schemas, text, a number), and
    that every local ``$ref`` points to a schema; any other keyword is left as
    written. At most :data:`MAX_SCHEMA_PROBLEMS`.
    """
    problems: list[str] = []
    refs: Refs = []
    # the top level's ``required`` and ``properties`` are read leniently (the Elixir
    # original's rule: not a list / not a map means none): only the rest is checked
    root = dict(schema)
    if not isinstance(root.get("required"), (list, tuple)):
        root.pop("required", None)
    else:
        root["required"] = [n for n in root["required"] if isinstance(n, str)]
    if not isinstance(root.get("properties"), Mapping):
        root.pop("properties", None)
    _check(root, [], problems, refs)
    for path, ref in refs:
        if len(problems) >= MAX_SCHEMA_PROBLEMS:
            break
        if ref.startswith("#"):  # another document's: the exports say they take none
            try:
                resolve_ref(schema, ref)
            except ValueError as exc:
                problems.append(f"{_at(path)}{exc}")
    return problems[:MAX_SCHEMA_PROBLEMS]


def _check(node: Any, path: list[object], problems: list[str], refs: Refs) -> None:
    """Check one schema (an object or ``true``/``false``) at ``path``."""
    if len(problems) >= MAX_SCHEMA_PROBLEMS or isinstance(node, bool):
        return
    if not isinstance(node, Mapping):
        problems.append(f"{_at(path)}must be a schema (an object, or true or false)")
        return
    for key, value in node.items():
        if not isinstance(key, str):
            problems.append(f"{_at(path)}has a key that is not text: {key!r:.40}")
            continue
        check = _KEYWORDS.get(key)
        problem = None if check is None else check(value, [*path, key], problems, refs)
        if problem is not None:
            problems.append(f"{_at([*path, key])}{problem}")
        if len(problems) >= MAX_SCHEMA_PROBLEMS:
            return


# -- each keyword's check: a problem's words, or None (nested schemas checked in place)


def _schema_map(value: Any, here: list[object], problems: list[str], refs: Refs) -> str | None:
    if not isinstance(value, Mapping):
        return "must be an object of schemas"
    for name, sub in value.items():
        if not isinstance(name, str):
            problems.append(f"{_at(here)}has a name that is not text: {name!r:.40}")
        else:
            _check(sub, [*here, name], problems, refs)
    return None


def _schema_list(value: Any, here: list[object], problems: list[str], refs: Refs) -> str | None:
    if not isinstance(value, (list, tuple)):
        return "must be a list of schemas"
    for i, sub in enumerate(value):
        _check(sub, [*here, i], problems, refs)
    return None


def _items(value: Any, here: list[object], problems: list[str], refs: Refs) -> str | None:
    # a schema, or (Draft 7's tuple form) a list of them
    if isinstance(value, (list, tuple)):
        return _schema_list(value, here, problems, refs)
    _check(value, here, problems, refs)
    return None


def _required(value: Any, *_: Any) -> str | None:
    if not isinstance(value, (list, tuple)) or not all(isinstance(n, str) for n in value):
        return "must be a list of names (text)"
    return None


def _type(value: Any, *_: Any) -> str | None:
    kinds = value if isinstance(value, (list, tuple)) else [value]
    if not kinds or not all(isinstance(k, str) for k in kinds):
        return "must be a type name or a list of type names"
    return None


def _text(value: Any, *_: Any) -> str | None:
    return None if isinstance(value, str) else "must be text"


def _ref(value: Any, here: list[object], problems: list[str], refs: Refs) -> str | None:
    if not isinstance(value, str):
        return "must be text"
    refs.append((here, value))
    return None


def _count(value: Any, *_: Any) -> str | None:
    return None if type(value) is int and value >= 0 else "must be a whole number of at least 0"


def _number(value: Any, *_: Any) -> str | None:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return None if number else "must be a number"


def _bound(value: Any, *_: Any) -> str | None:
    return None if isinstance(value, bool) else _number(value)  # Draft-04: true/false


def _array(value: Any, *_: Any) -> str | None:
    return None if isinstance(value, (list, tuple)) else "must be a list"


_Check = Callable[[Any, list[object], list[str], Refs], "str | None"]
# keyword -> what its value must be (JSON Schema 2020-12, with Draft-07's list ``items``)
_KEYWORDS: dict[str, _Check] = {
    **dict.fromkeys(
        ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas"),
        _schema_map,
    ),
    **dict.fromkeys(
        ("additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"),
        _check,
    ),
    **dict.fromkeys(("contains", "propertyNames", "not", "if", "then", "else"), _check),
    **dict.fromkeys(("allOf", "anyOf", "oneOf", "prefixItems"), _schema_list),
    "items": _items,
    "required": _required,
    "type": _type,
    **dict.fromkeys(("$id", "$schema", "$anchor", "$comment", "pattern", "format"), _text),
    **dict.fromkeys(("title", "description"), _text),
    "$ref": _ref,
    **dict.fromkeys(("minLength", "maxLength", "minItems", "maxItems"), _count),
    **dict.fromkeys(("minProperties", "maxProperties"), _count),
    **dict.fromkeys(("minimum", "maximum", "multipleOf"), _number),
    **dict.fromkeys(("exclusiveMinimum", "exclusiveMaximum"), _bound),  # Draft-04: true/false
    **dict.fromkeys(("enum", "examples"), _array),
}


def _at(path: list[object]) -> str:
    return f"{_where(path[:-1], path[-1])}: " if path else ""
