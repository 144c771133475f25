"""Whether a schema is recursive: a reference that leads back to where it stands.

jsonschema-rs follows a recursive schema down a value with no bound on its
stack, so such a schema gets a depth check on each call before the fast path
runs. A schema whose references never lead back into themselves cannot take
the library deeper than the schema itself goes (it bounds its own conversion
of a deep value), so it needs no check.
"""

from __future__ import annotations

from typing import Any

from ._schema import Definition

__all__ = ["is_recursive"]

#: keywords whose values are data, never subschemas
_DATA = frozenset(("const", "default", "enum", "examples"))
#: keywords whose value maps names to subschemas (a key there is a name, not a keyword)
_NAMES = frozenset(
    ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")
)
#: references resolved at validation time, against the dynamic scope
_DYNAMIC = frozenset(("$dynamicRef", "$recursiveRef"))
#: past this many nested subschemas the walk stops and answers "recursive"
_MAX_WALK = 200


def is_recursive(definition: Definition) -> bool:
    """Whether following ``definition``'s references can come back to a schema on the way.

    Errs on the side of ``True``: a dynamic reference, a nested ``$id`` (whose
    relative references this walk does not resolve), a reference that does
    not resolve, or a schema nested deeper than the walk goes.
    """
    resolver = definition.registry.resolver(base_uri=definition.base_uri)
    on_path: set[int] = set()
    done: set[int] = set()

    def visit(node: Any, depth: int, names: bool) -> bool:
        if depth > _MAX_WALK:
            return True
        if isinstance(node, list):
            return any(visit(item, depth + 1, False) for item in node)
        if not isinstance(node, dict):
            return False
        key = id(node)
        if key in on_path:
            return True
        if key in done:
            return False
        on_path.add(key)
        for word, value in node.items():
            if names:  # a name's value is a subschema
                if visit(value, depth + 1, False):
                    return True
                continue
            if word in _DATA:
                continue
            if word in _DYNAMIC or (word in ("$id", "id") and depth and isinstance(value, str)):
                return True
            if word == "$ref" and isinstance(value, str):
                try:
                    target = resolver.lookup(value).contents
                except Exception:  # unresolvable here: assume the worst
                    return True
                if visit(target, depth + 1, False):
                    return True
            elif isinstance(value, (dict, list)) and visit(value, depth + 1, word in _NAMES):
                return True
        on_path.discard(key)
        done.add(key)
        return False

    return visit(definition.schema, 0, False)
