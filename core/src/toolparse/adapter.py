"""What an adapter is: the protocol a schema library's plugin implements.

An adapter turns a *source* (a pydantic model, a marshmallow schema, an attrs
class, a JSON Schema dict, ...) into the JSON Schema the model is shown and the
parser its arguments go through. Adapters are registered by plugins through the
``toolparse_register_adapters`` hook; see ``hookspecs.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from .errors import install_hint
from .messages import _reasons
from .messages._reasons import (
    format_reason,
    length_reason,
    multiple_reason,
    none_of_reason,
    one_of_reason,
    pattern_reason,
    raised_text,
    range_reason,
    type_reason,
)
from .params import EMPTY, SignatureParam

__all__ = [
    "EMPTY",
    "FORMAT_WORDS",
    "JSON_TYPES",
    "MAX_PROBLEMS",
    "POLICIES",
    "REQUIRED",
    "TYPE_WORDS",
    "UUID_PATTERN",
    "Adapter",
    "AdapterBase",
    "Compiled",
    "FieldSchema",
    "Parser",
    "SignatureParam",
    "UnknownArguments",
    "check_policy",
    "format_reason",
    "install_hint",
    "keywords",
    "length_reason",
    "multiple_reason",
    "none_of_reason",
    "one_of_reason",
    "pattern_reason",
    "plugin_maps_fields",
    "raised_text",
    "range_reason",
    "type_reason",
]

#: The problems one rejected call builds at most: past them a parser only counts
#: the rest (``invalid_arguments(..., more=N)``); the message shows 20 lines and
#: "... and N more" either way. Top-level missing and unknown names are always built.
MAX_PROBLEMS = 1_000

UnknownArguments = Literal["report", "reject", "ignore"]  #: The ``unknown_arguments`` policies.

#: Every ``unknown_arguments`` policy, in the order messages list them.
POLICIES: tuple[UnknownArguments, ...] = ("report", "reject", "ignore")

#: The JSON Schema type name of each Python type a JSON leaf value decodes to.
JSON_TYPES: Mapping[type, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    type(None): "null",
}

#: A UUID in its canonical form, for a ``pattern`` next to ``format: uuid``
#: (``format`` is an annotation that validators need not check; libraries also
#: take other spellings, but this is the form a model writes most reliably).
UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"

# -- one vocabulary for one mistake ------------------------------------------------
# Every adapter maps its library's codes onto these words and the reasons of
# ``messages._reasons`` (re-exported here), so the same wrong call reads the
# same whichever library found it.

#: The reason for a required name that was not sent (nested; top-level names go
#: on the ``Missing parameters:`` line).
REQUIRED: str = _reasons.REQUIRED

#: What a value of each JSON type is called in a reason.
TYPE_WORDS: Mapping[str, str] = _reasons.TYPE_WORDS

#: What a value of each JSON Schema ``format`` is called in a reason.
FORMAT_WORDS: Mapping[str, str] = _reasons.FORMAT_WORDS


def check_policy(unknown_arguments: object) -> UnknownArguments:
    """Return ``unknown_arguments`` when it is one of :data:`POLICIES`, else raise ``ValueError``."""
    if unknown_arguments not in POLICIES:
        raise ValueError(
            f"unknown_arguments must be one of {', '.join(map(repr, POLICIES))}, "
            f"got {unknown_arguments!r:.40}"
        )
    return unknown_arguments


#: A parser: ``parser(arguments)`` or ``parser(arguments, context)``, sync or async.
Parser = Callable[..., Any]


#: The field-schema hook as an adapter receives it: ``field_schema(field, schema)``
#: returns the JSON Schema for one field after plugins had their say (the adapter
#: passes what it would emit; the answer may be the same dict). The core's hook
#: also has ``answers`` (a bool): ``False`` when no plugin implements the hook,
#: so an adapter may keep a class's conversion (it then depends on the class alone).
FieldSchema = Callable[[object, dict[str, Any]], dict[str, Any]]


class Compiled:
    """What an adapter's one compile step returns for one source.

    :param schema: the JSON Schema (an object schema) the model is shown.
    :param parser: the parser (the contract of ``parse_args``), or ``None``
        when none was asked for.
    :param accepted: every top-level argument name, in the order the model
        should read them; ``None``: the core takes them from ``schema``.
    :param required: the required top-level names; ``None``: from ``schema``.
    :param key: a hashable value that says "this compiled form is the same as
        any other with an equal key": every ``Compiled`` an adapter of this
        type returns with an equal key has an equal ``schema``, ``accepted``
        and ``required``. Tools over one key then share what the core builds
        from the schema once (the step that restores nulls); what the key
        holds, and when it is given: :meth:`AdapterBase.kept_key`. ``None``
        (the default): nothing is shared, which is always correct.
    :param nulls_after_reject: the parser checks ``schema`` itself: it rejects
        every ``null`` the schema does not admit, and every string where the
        schema requires an object. The core's step that restores what an
        export changed (a ``null`` meant as "absent", an object sent as JSON
        text) then runs only for a null at the top level before the parser,
        and deeper only once the parser rejects a call (the restored call is
        parsed again, and that verdict is the answer): an accepted call pays
        no look into its nested values. ``False`` (the default): the step runs
        before the parser, which is always correct.
    :param verdict: the library's own answer to "valid or not", cheaper than
        the parser (jsonschema-rs's ``is_valid``): ``verdict(arguments)`` is
        ``True`` only when the parser would return ``Ok`` of those very
        arguments (or ``Ok(None)``). A call it accepts, sending only accepted
        names, skips the parser; any other answer, or an exception, leaves the
        call to the parser. ``None`` (the default): the parser decides alone.
    """

    __slots__ = ("accepted", "key", "nulls_after_reject", "parser", "required", "schema", "verdict")

    def __init__(
        self,
        schema: dict[str, Any],
        parser: Parser | None = None,
        *,
        accepted: Sequence[str] | None = None,
        required: Sequence[str] | None = None,
        key: Hashable | None = None,
        nulls_after_reject: bool = False,
        verdict: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        self.schema = schema
        self.parser = parser
        self.accepted = None if accepted is None else tuple(accepted)
        self.required = None if required is None else tuple(required)
        self.key = key
        self.nulls_after_reject = nulls_after_reject
        self.verdict = verdict

    def __repr__(self) -> str:
        return f"Compiled(accepted={self.accepted!r}, required={self.required!r})"


@runtime_checkable
class Adapter(Protocol):
    """The interface every adapter implements.

    Required: :attr:`name` and :meth:`accepts`, then one of two forms.

    The one-step form (what the built-in adapters use) is one method::

        def compile(self, source, *, unknown_arguments, field_schema, parser) -> Compiled

    called once per tool, at definition: it reads the source once and returns
    the schema, the parser (when ``parser`` is true; ``parse_args`` wins
    otherwise) and the accepted and required names together. ``unknown_arguments``
    is the tool's policy (one of :data:`POLICIES`), so the adapter can make its
    library forbid or drop extra keys at every level; ``field_schema`` is the
    ``toolparse_field_schema`` hook bound to the tool's plugin manager
    (:data:`FieldSchema`), which an adapter writing its own JSON Schema calls
    for every field.

    The two-method form of earlier releases, :meth:`json_schema` and
    :meth:`parser` (each may take a keyword-only ``unknown_arguments``), keeps
    working (:class:`AdapterBase` gives both from ``compile``). Whatever the
    adapter does, the core applies the policy to the top-level names itself.
    Optional (looked up with ``getattr``):

    - ``serialize(value) -> str | None``: JSON text for a model instance a
      tool body returned (``None``: not one of mine);
    - ``from_signature(name, params) -> source``: build a source this adapter
      accepts from a plain function's parameters (a list of
      :class:`SignatureParam`), for ``@tool``;
    - ``keywords(value) -> dict``: the keyword arguments a function whose
      parameters are the model's fields is called with, for a value the
      parser produced (default: :func:`keywords`).

    ``accepts`` runs for every tool definition against every adapter, so it
    imports nothing: it decides from the source's type (and, for a library's
    own classes, whether that library is in ``sys.modules`` at all).
    """

    #: Short name, the one users pass as ``@tool(adapter=...)`` ("pydantic").
    name: str

    def accepts(self, source: object) -> bool:
        """Return whether this adapter handles ``source``. Must not raise."""
        ...

    def json_schema(self, source: Any) -> dict[str, Any]:
        """Return the JSON Schema (an object schema) for the tool's arguments.

        Called once per tool, at definition. Raise ``ValueError`` for a source
        it cannot describe; the message becomes a definition error.
        """
        ...

    def parser(self, source: Any) -> Parser:
        """Return the parser for ``source`` (the contract of ``parse_args``).

        Called once per tool, at definition. The parser returns ``Ok(parsed)``
        or the ``Error`` built by :func:`toolparse.invalid_arguments` with every
        problem the library found.
        """
        ...


class AdapterBase:
    """What every adapter shares: ``json_schema`` and ``parser`` from its one compile step.

    A subclass sets :attr:`name` and implements :meth:`accepts` and
    :meth:`build`; :meth:`compile` checks the policy and keeps what
    :meth:`build` gave for the sources :meth:`kept_key` names (up to
    :attr:`kept` of them, then it starts again), and :meth:`json_schema` / :meth:`parser` (the
    two-method form) come from it. A subclass with an ``__init__`` of its own
    calls ``super().__init__()``.
    """

    #: Short name, the one users pass as ``@tool(adapter=...)``.
    name: str = ""
    #: How many sources' compiled forms are kept before the store starts again.
    kept: int = 256

    def __init__(self) -> None:
        # bounded, emptied when full: safe between threads without a lock
        self._kept: dict[Hashable, Compiled] = {}

    def accepts(self, source: object) -> bool:
        """Return whether this adapter handles ``source``. Must not raise, must not import."""
        raise NotImplementedError

    def build(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments,
        field_schema: FieldSchema,
        parser: bool,
    ) -> Compiled:
        """Compile ``source`` once: its schema, and its parser when ``parser`` is true.

        ``unknown_arguments`` is already checked; ``field_schema`` is the hook
        (one that hands back the schema it is given when no plugin has a
        say); see :class:`Adapter` for the rest.
        """
        raise NotImplementedError

    def kept_key(
        self, source: Any, unknown_arguments: UnknownArguments, field_schema: FieldSchema | None
    ) -> Hashable | None:
        """The key ``source``'s compiled form is kept under; ``None`` (the default): not kept.

        The key holds everything the compiled form depends on (a class, not an
        instance that may change; the policy; the adapter's own settings), and
        it is given only while no plugin maps fields (``field_schema`` is
        ``None`` or its ``answers`` is ``False``). Each tool gets its own copy
        of a kept schema, the same parser, and the key as ``Compiled.key``.
        """
        return None

    def compile(
        self,
        source: Any,
        *,
        unknown_arguments: UnknownArguments = "report",
        field_schema: FieldSchema | None = None,
        parser: bool = True,
    ) -> Compiled:
        """The one compile step (see :class:`Adapter`): built once per key, else per tool."""
        policy = check_policy(unknown_arguments)
        key = self.kept_key(source, policy, field_schema)
        hook = field_schema if field_schema is not None else _unchanged
        if key is None:
            return self.build(source, unknown_arguments=policy, field_schema=hook, parser=parser)
        found = self._kept.get(key)
        if found is None:
            if len(self._kept) >= self.kept:
                self._kept.clear()
            found = self.build(source, unknown_arguments=policy, field_schema=hook, parser=True)
            self._kept[key] = found
        # each tool its own schema containers (a tool may change its own), the same parser
        return Compiled(
            _copied(found.schema),
            found.parser if parser else None,
            accepted=found.accepted,
            required=found.required,
            key=key,
            nulls_after_reject=found.nulls_after_reject,
            verdict=found.verdict if parser else None,
        )

    def json_schema(
        self, source: Any, *, unknown_arguments: UnknownArguments = "report"
    ) -> dict[str, Any]:
        """The schema alone (see :meth:`compile`)."""
        return self.compile(source, unknown_arguments=unknown_arguments, parser=False).schema

    def parser(self, source: Any, *, unknown_arguments: UnknownArguments = "report") -> Parser:
        """The parser alone (see :meth:`compile`)."""
        found = self.compile(source, unknown_arguments=unknown_arguments).parser
        if found is None:
            raise ValueError(f"the {self.name} adapter built no parser for {source!r:.80}")
        return found


def _unchanged(field: object, schema: dict[str, Any]) -> dict[str, Any]:
    return schema


_unchanged.answers = False  # type: ignore[attr-defined]  # (no plugin maps fields)


def _copied(value: Any) -> Any:
    """A copy of a JSON Schema's containers (its leaves are immutable JSON values)."""
    if type(value) is dict:
        return {key: _copied(sub) for key, sub in value.items()}
    if type(value) is list:
        return [_copied(sub) for sub in value]
    return value


def plugin_maps_fields(field_schema: FieldSchema | None) -> bool:
    """Whether a plugin may change the schema of a field (the hook ``answers``).

    An adapter's :meth:`AdapterBase.kept_key` gives no key then: the compiled
    form depends on more than the source.
    """
    return field_schema is not None and getattr(field_schema, "answers", True) is not False


def keywords(value: object) -> dict[str, Any]:
    """Turn a parsed value into keyword arguments (the default for adapters).

    A mapping is copied; a dataclass or attrs instance gives its fields by
    attribute name; any other object its instance attributes (``vars()``, and
    the filled ``__slots__`` of a slotted class).
    """
    if isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    fields = getattr(type(value), "__dataclass_fields__", None)
    if fields is not None:
        return {name: getattr(value, name) for name in fields}
    attrs = getattr(type(value), "__attrs_attrs__", None)
    if attrs is not None:
        return {a.name: getattr(value, a.name) for a in attrs}
    found: dict[str, Any] = dict(getattr(value, "__dict__", ()))
    for klass in reversed(type(value).__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            # a slot never assigned has no value to pass; __dict__/__weakref__ are not fields
            if slot not in ("__dict__", "__weakref__") and hasattr(value, slot):
                found[slot] = getattr(value, slot)
    return found
