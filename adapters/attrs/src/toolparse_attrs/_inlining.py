"""The strict scalar checks written into cattrs' generated class hooks.

cattrs generates one structure function per class, calling a hook for each
field: ``res['name'] = __c_structure_name(o['name'], __c_type_name)``. For a
``str``, ``int``, ``float`` or ``bool`` field the default converter's hook
(``_scalars``) hands back a value of exactly that type untouched, so the
call is written out as an identity check, the hook still called for
anything else: the same result and the same errors (cattrs' notes, its
``res``), one Python call less per field on every valid call. Only the
expression of that one call changes; a source that does not read as expected
keeps cattrs' own function.
"""

from __future__ import annotations

import ast
import linecache
import re
from typing import Any

from ._scalars import strict_bool, strict_float, strict_int, strict_str

__all__ = ["inline_scalars"]

# which hook hands back a value of which exact type as it is
_IDENTITY = {strict_str: str, strict_int: int, strict_float: float, strict_bool: bool}
_CALL = re.compile(r"__c_structure_(\w+)\(o\['([^'\\]*)'\], __c_type_\1\)")
# the note cattrs adds to a failing field's error: its text, the field, its type
_NOTE = re.compile(r'__c_avn\(("(?:[^"\\]|\\.)*"), "(\w+)", (__c_type_\w+)\)')


_RAISE = ", errors, __cl)"


def _taken(errors: list[Any]) -> list[Any]:
    """The errors of a list, the list left empty."""
    taken = errors[:]
    errors.clear()
    return taken


def inline_scalars(hook: Any) -> Any:
    """``hook`` (a cattrs-generated class hook) with its scalar fields' checks inlined."""
    code = getattr(hook, "__code__", None)
    namespace = getattr(hook, "__globals__", None)
    if code is None or not isinstance(namespace, dict):
        return hook
    filename = code.co_filename
    lines = linecache.getlines(filename) if filename.startswith("<cattrs generated") else []
    if not lines:
        return hook
    source = "\n".join(line.rstrip("\n") for line in lines) + "\n"

    def inline(match: re.Match[str]) -> str:
        name, key = match.group(1), match.group(2)
        handler = namespace.get(f"__c_structure_{name}")
        kind = _IDENTITY.get(handler) if callable(handler) else None
        if kind is None or namespace.get(f"__c_type_{name}") is not kind:
            return match.group(0)
        return (
            f"(__v if type(__v := o['{key}']) is __c_type_{name} "
            f"else __c_structure_{name}(__v, __c_type_{name}))"
        )

    notes: dict[str, Any] = {}

    def noted(match: re.Match[str]) -> str:
        # the note a failing field gets is the same on every call: built once
        try:
            text = ast.literal_eval(match.group(1))
            kind = namespace[match.group(3)]
            note = namespace["__c_avn"](text, match.group(2), kind)
        except Exception:  # another cattrs version's source: keep its call
            return match.group(0)
        name = f"__tp_note_{len(notes)}"
        notes[name] = note
        return name

    changed = _NOTE.sub(noted, _CALL.sub(inline, source))
    # the class's error is raised with the fields' errors taken out of the
    # hook's own list: its traceback holds the hook's frame, whose locals then
    # hold no error (no reference cycle for the collector)
    if _RAISE in changed:
        changed = changed.replace(_RAISE, ", __tp_taken(errors), __cl)")
        notes["__tp_taken"] = _taken
    if changed == source:
        return hook
    try:
        scope: dict[str, Any] = {}
        # cattrs' own namespace: the handlers and types its source names
        namespace.update(notes)
        exec(compile(changed, filename, "exec"), namespace, scope)
        inlined = scope[code.co_name]
    except Exception:  # another cattrs version's source: keep its function
        return hook
    inlined.__dict__.update(hook.__dict__)
    linecache.cache[filename] = (len(changed), None, changed.splitlines(True), filename)
    return inlined
