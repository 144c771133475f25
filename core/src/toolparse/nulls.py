"""The one walk that turns a strict model's ``null`` back into "absent".

Strict modes export an optional property as nullable, and a free-form object as JSON
text: both are undone before the parser runs. A schema is read once into a plan (a node
per object, array or union that may hold something to restore); a :class:`Restorer`
walks arguments along it. Built to repair, it also decodes objects and arrays sent as text.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

from ._schemas import (
    ANNOTATIONS,
    MAX_DEPTH,
    admits_string,
    fixed_values,
    free_form,
    merge_all_of,
    nullable,
    resolve_ref,
)

__all__ = ["MAX_DEPTH", "Restorer", "null_restorer"]


class _Obj:
    """An object: which ``null`` keys to drop, the plans of its values, how a union tells it."""

    def __init__(self) -> None:
        self.strip: frozenset[str] = frozenset()  # optional names whose schema refuses null
        self.nullok: frozenset[str] = frozenset()  # names whose schema admits null
        self.names: frozenset[str] = frozenset()
        self.required: frozenset[str] = frozenset()
        self.tags: dict[str, tuple[Any, ...]] = {}  # the const/enum values of a property
        self.props: dict[str, _Node] = {}
        self.extra: _Node | None = None
        self.closed = False
        self.decode = False  # may arrive as JSON text: free-form, or repaired
        self.free = False  # free-form: the strict and Gemini exports ask for JSON text
        self.texts: frozenset[str] = frozenset()  # names under which only text changes

    def matches(self, value: Mapping[str, Any]) -> bool:
        """Whether ``value`` may be an instance of this union branch."""
        return (
            self.required.issubset(value)
            and (not self.closed or self.names.issuperset(value))
            and all(k not in value or value[k] in v for k, v in self.tags.items())
        )

    def child(self, key: str) -> _Node | None:
        return self.props.get(key) if key in self.names else self.extra

    def restore(self, value: Any, depth: int) -> Any:
        if self.decode and isinstance(value, str):
            value = _decoded(value, "{")
        if not isinstance(value, dict) or depth > MAX_DEPTH:
            return value
        changed = {}
        for key, child in self.props.items():  # only the names under which something may change
            item = value.get(key)
            if item is None or (type(item) is not str and key in self.texts):
                continue
            if (new := child.restore(item, depth + 1)) is not item:
                changed[key] = new
        if (extra := self.extra) is not None:
            for key, item in value.items():
                if key not in self.names and (new := extra.restore(item, depth + 1)) is not item:
                    changed[key] = new
        # most values are truthy: one truth test each, and only then the search for None
        if changed or (self.strip and not all(value.values())):
            return _rebuilt(value, changed, self.strip)
        return value


class _Arr:
    """An array: the plans of its items, positional ones first."""

    free, strip, wants = False, frozenset[str](), object  # wants: the items that may change

    def __init__(self) -> None:
        self.prefix: list[_Node | None] = []
        self.items: _Node | None = None
        self.decode = False  # may arrive as JSON text, repaired

    def child(self, index: int) -> _Node | None:
        return self.prefix[index] if index < len(self.prefix) else self.items

    def restore(self, value: Any, depth: int) -> Any:
        if self.decode and isinstance(value, str):
            value = _decoded(value, "[")
        if not isinstance(value, list) or depth > MAX_DEPTH:
            return value
        out, prefix, count, cls, down = value, self.prefix, len(self.prefix), self.wants, depth + 1
        for i, item in enumerate(value):
            child = prefix[i] if i < count else self.items
            if child and isinstance(item, cls) and (new := child.restore(item, down)) is not item:
                out = list(value) if out is value else out
                out[i] = new
        return out


class _Union:
    """``anyOf``/``oneOf``: the branches a value may be an instance of decide."""

    def __init__(self, strings: bool) -> None:
        self.strings = strings  # a branch takes strings: never decode one
        self.fill([])

    def fill(self, plans: Sequence[_Node | None]) -> _Union | None:
        """The union of ``plans`` (``None``: none is left)."""
        self.branches: list[_Node] = [p for p in plans if p is not None]
        self.objects: list[_Obj] = [b for b in self.branches if isinstance(b, _Obj)]
        self.arrays: list[_Arr] = [b for b in self.branches if isinstance(b, _Arr)]
        # the exports ask for a free-form object as text, even next to a string
        self.free = any(b.free for b in self.objects)
        mends = not self.strings and any(b.decode for b in self.objects + self.arrays)
        self.decodes = "{" * (self.free or mends) + "[" * (mends and bool(self.arrays))
        return self if self.branches else None

    def restore(self, value: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            return value
        if self.decodes and isinstance(value, str):
            value = _decoded(value, self.decodes)
        if isinstance(value, dict) and self.objects:
            fits = [p for p in self.objects if p.matches(value)] or self.objects
            if len(fits) == 1:
                return fits[0].restore(value, depth)
            return _merged(fits, value, depth)
        if isinstance(value, list) and self.arrays:
            if len(self.arrays) == 1:
                return self.arrays[0].restore(value, depth)
            out = [
                _all([a.child(i) for a in self.arrays], x, depth + 1) for i, x in enumerate(value)
            ]
            return value if all(a is b for a, b in zip(out, value, strict=True)) else out
        return value


_Node = _Obj | _Arr | _Union
_N = TypeVar("_N", bound="_Node | None")


def _rebuilt(value: dict[str, Any], changed: dict[str, Any], strip: frozenset[str]) -> Any:
    """``value`` with ``changed`` values put in and the nulls of ``strip`` left out (or itself)."""
    out = {**value, **changed}
    for key, item in value.items():
        if item is None and key in strip:
            del out[key]
    return out if changed or len(out) < len(value) else value


def _decoded(value: str, wanted: str) -> Any:
    """JSON text of an object (``wanted`` has ``{``) or an array (``[``) decoded; else unchanged."""
    start = value.lstrip()[:1]
    try:
        decoded = json.loads(value) if start and start in wanted else None
    except ValueError:
        return value
    return decoded if isinstance(decoded, dict if start == "{" else list) else value


def _all(children: list[_Node | None], item: Any, depth: int) -> Any:
    """``item`` restored by every plan of the branches it may be under."""
    found = [c for c in children if c is not None]
    if len(found) == 1:
        return found[0].restore(item, depth)
    return _Union(False).fill(found).restore(item, depth) if found else item  # type: ignore[union-attr]


def _merged(fits: list[_Obj], value: dict[str, Any], depth: int) -> dict[str, Any]:
    """Several branches fit: drop a ``null`` only where none of them admits it."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        if item is not None:
            out[key] = _all([p.child(key) for p in fits], item, depth + 1)
        elif not any(key in p.strip for p in fits) or any(key in p.nullok for p in fits):
            out[key] = None
    return value if len(out) == len(value) and all(out[k] is v for k, v in value.items()) else out


class _Builder:
    def __init__(self, root: Mapping[str, Any], repair: bool) -> None:
        self.root = root
        self.repair = repair  # decode JSON text wherever an object or an array is wanted
        # a reference's plan is known before its parts are built: recursion loops back to it
        self.by_ref: dict[str, _Node | None] = {}
        # a shared subschema is built once per depth (40 levels of {"a": s, "b": s} are
        # 2**40 paths), and kept with its plan so that its id is not reused meanwhile
        self.memo: dict[tuple[int, int], tuple[object, _Node | None]] = {}

    def ref(self, ref: str, depth: int, names: tuple[str, ...]) -> _Node | None:
        """The plan of a reference; ``names`` are the references that lead to it."""
        if ref in self.by_ref:
            return self.by_ref[ref]
        names = (*names, ref)
        self.by_ref.update(dict.fromkeys(names))  # a loop of bare references leads to nothing
        try:
            target = resolve_ref(self.root, ref)
        except ValueError:
            return None
        return self.made(self.build(target, depth + 1, names), names)

    def made(self, plan: _N, names: tuple[str, ...]) -> _N:
        """``plan``, the plan of the references ``names`` (before its parts are built)."""
        self.by_ref.update(dict.fromkeys(names, plan))
        return plan

    def build(self, node: object, depth: int, names: tuple[str, ...] = ()) -> _Node | None:
        if not isinstance(node, Mapping) or depth > MAX_DEPTH:
            return None
        key = (id(node), depth)
        if (found := self.memo.get(key)) is not None:
            return found[1]
        plan = self._build(node, depth, names)
        self.memo[key] = (node, plan)
        return plan

    def _build(self, node: Mapping[str, Any], depth: int, names: tuple[str, ...]) -> _Node | None:
        ref = node.get("$ref")
        if isinstance(ref, str) and not set(node) - ANNOTATIONS - {"$ref", "$defs", "definitions"}:
            return self.ref(ref, depth, names)
        if "allOf" in node or isinstance(ref, str):
            try:
                node = merge_all_of(node, self.root)
            except (ValueError, TypeError):
                return None
            if "allOf" in node:  # a cycle through allOf: leave it to the parser
                return None
        kind = node.get("type")
        types = [k for k in kind if k != "null"] if isinstance(kind, list) else [kind]
        if "anyOf" in node or "oneOf" in node:
            branches = [b for key in ("anyOf", "oneOf") for b in node.get(key) or ()]
            union = self.made(_Union(any(admits_string(b, self.root) for b in branches)), names)
            rest = {k: v for k, v in node.items() if k not in ("anyOf", "oneOf")}
            own = self.build(rest, depth + 1) if "properties" in rest else None
            return union.fill([own, *(self.build(b, depth + 1) for b in branches)])
        if len(types) > 1:  # several types at once: one plan per type the value may have
            union = self.made(_Union("string" in types), names)
            return union.fill([self.build({**node, "type": k}, depth + 1) for k in types])
        kind = types[0] if types else None
        if kind == "array" or "items" in node or "prefixItems" in node:
            return self.array(node, depth, names)
        if kind == "object" or "properties" in node or "additionalProperties" in node:
            return self.object(node, depth, names)
        return None

    def array(self, node: Mapping[str, Any], depth: int, names: tuple[str, ...]) -> _Node:
        plan = self.made(_Arr(), names)
        plan.decode = depth > 0 and self.repair
        items, prefix = node.get("items"), node.get("prefixItems")
        if isinstance(items, list):  # draft-07 tuple form
            prefix, items = items, node.get("additionalItems")
        plan.prefix = [self.build(p, depth + 1) for p in prefix] if isinstance(prefix, list) else []
        plan.items = self.build(items, depth + 1)
        return plan

    def object(self, node: Mapping[str, Any], depth: int, names: tuple[str, ...]) -> _Node:
        props = node.get("properties")
        props = props if isinstance(props, Mapping) else {}
        plan = self.made(_Obj(), names)
        plan.names = frozenset(props)
        plan.required = frozenset(r for r in node.get("required") or () if isinstance(r, str))
        plan.closed = node.get("additionalProperties") is False
        # the arguments themselves arrive decoded: only nested objects travel as text
        plan.free = depth > 0 and free_form(node)
        plan.decode = plan.free or (depth > 0 and self.repair)
        plan.nullok = frozenset(n for n, prop in props.items() if nullable(prop, self.root))
        plan.strip = frozenset(props) - plan.nullok - plan.required
        for name, prop in props.items():
            if (tag := fixed_values(prop, self.root)) is not None:
                plan.tags[name] = tag
            if (child := self.build(prop, depth + 1)) is not None:
                plan.props[name] = child
        plan.extra = self.build(node.get("additionalProperties"), depth + 1)
        return plan


def _children(node: _Node) -> list[_Node]:
    if isinstance(node, _Union):
        return node.branches
    if isinstance(node, _Arr):
        return [c for c in (*node.prefix, node.items) if c is not None]
    return [c for c in (*node.props.values(), node.extra) if c is not None]


def _pruned(top: _Node) -> list[_Node]:
    """Cut every part that drops no ``null``, decodes nothing, nor leads to one: the parts left.

    Union branches stay: they decide which one a value fits.
    """
    nodes: dict[int, _Node] = {id(top): top}
    parents: dict[int, list[int]] = {}
    stack = [top]
    while stack:
        node = stack.pop()
        for child in _children(node):
            parents.setdefault(id(child), []).append(id(node))
            if id(child) not in nodes:
                nodes[id(child)] = child
                stack.append(child)
    useful = {i for i, n in nodes.items() if not isinstance(n, _Union) and (n.strip or n.decode)}
    rising = list(useful)
    while rising:  # up to every node that leads to a useful one (a plan may loop)
        for parent in parents.get(rising.pop(), ()):
            if parent not in useful:
                useful.add(parent)
                rising.append(parent)
    for node in nodes.values():
        if isinstance(node, _Arr):
            node.prefix = [c if id(c) in useful else None for c in node.prefix]
            node.items = node.items if id(node.items) in useful else None
        elif isinstance(node, _Obj):
            node.props = {k: c for k, c in node.props.items() if id(c) in useful}
            node.extra = node.extra if id(node.extra) in useful else None
    for node in nodes.values():  # (once every part is cut)
        if isinstance(node, _Obj):
            node.texts = frozenset(k for k, c in node.props.items() if _text_only(c))
        elif isinstance(node, _Arr) and node.items and not any(node.prefix):
            node.wants = str if _text_only(node.items) else object  # (only text: no call for more)
    return [nodes[i] for i in useful] if id(top) in useful else []


def _text_only(node: _Node) -> bool:
    """Whether only text sent for ``node`` may change (what is left of it after pruning)."""
    if isinstance(node, _Arr):
        return node.items is None and not any(node.prefix)
    return isinstance(node, _Obj) and not (node.props or node.extra or node.strip)


class Restorer:
    """Undoes an export's changes to one schema's arguments (none: the very same dict back)."""

    __slots__ = ("_strip", "deep", "early", "walk")

    def __init__(self, plan: _Node, early: bool = False) -> None:
        self.walk = plan.restore  #: ``walk(arguments, 0)``: the call, one frame less
        #: a union has a free-form branch (a parser finds any object valid): the walk runs first
        self.early = early
        top = plan if isinstance(plan, _Obj) else None
        # the optional top-level names whose null means "absent" (None: a union decides)
        self._strip = top.strip if top else None
        #: the top-level names under which something may change further down (``None``: not
        #: all known): a call that sends none of them and no top-level ``null`` needs no walk
        self.deep = frozenset(top.props) if top and top.extra is None else None

    def __call__(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """``arguments`` with each null for "absent" dropped and each JSON text decoded, anywhere."""
        return self.walk(arguments, 0)  # type: ignore[no-any-return]

    def top(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """``arguments`` with the top level's own nulls for "absent" dropped (a root union: all)."""
        strip = self._strip
        # most values are truthy: one truth test each, and only then the search for None
        if (strip is not None and strip.isdisjoint(arguments)) or all(arguments.values()):
            return arguments
        if strip is None:
            return self(arguments)
        return _rebuilt(arguments, {}, strip)  # type: ignore[no-any-return]


def _restorer(schema: Mapping[str, Any], repair: bool) -> Restorer | None:
    root = dict(schema)
    plan = _Builder(root, repair).build(root, 0)
    kept = [] if plan is None else _pruned(plan)
    mends = any(not isinstance(n, _Union) and n.decode and not n.free for n in kept)
    if not kept or (repair and not mends):
        return None
    return Restorer(plan, any(isinstance(n, _Union) and n.free for n in kept))  # type: ignore[arg-type]


#: restorers of schemas given with a key, by key (a bounded cache: emptied when full)
_SHARED: dict[Hashable, Restorer | None] = {}


def null_restorer(
    schema: Mapping[str, Any], key: Hashable | None = None, *, repair: bool = False
) -> Restorer | None:
    """The step that undoes what an export changed, for a tool's parameters schema.

    Its :class:`Restorer` drops each ``null`` for an optional property whose schema does not
    admit it and decodes JSON text where a free-form object is required, at every level down
    to ``MAX_DEPTH`` (of ``anyOf``/``oneOf``, the branches a value fits decide; where several
    fit, a ``null`` any of them admits is kept). With ``repair``, it also decodes the JSON
    text of an object or array where the schema wants one and no string. ``None``: nothing
    to restore (or repair). Callers of one ``key`` (it fully determines ``schema``) share one.
    """
    if key is None:
        return _restorer(schema, repair)
    if (key, repair) not in _SHARED:
        if len(_SHARED) >= 256:
            _SHARED.clear()
        _SHARED[key, repair] = _restorer(schema, repair)
    return _SHARED[key, repair]
