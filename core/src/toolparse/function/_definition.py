"""Checking a Function's definition and resolving what it declares, once.

Every problem with a definition is collected (so one
:class:`~toolparse.FunctionDefinitionError` names them all), then the
declaration (``parameters``, ``parameters_schema`` or ``args_schema``) becomes
the schema, the parser and the accepted and required names.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any

from ..adapter import Adapter, accepted_names, install_hint, required_names
from ..errors import FunctionDefinitionError, NoAdapterError
from ..params import FunctionParam
from ._raw_schema import copy_schema, schema_problems
from ._resolution import _resolve

if TYPE_CHECKING:
    from ..plugins import PluginManager

__all__: list[str] = []

POLICIES = ("report", "reject", "ignore")

Errors = list[tuple[str, str]]


def field_errors(
    name: object,
    description: object,
    display_text: object,
    flags: Mapping[str, object],
    unknown_arguments: object,
    options: object,
    params: tuple[Any, ...],
    parameters_schema: object,
    args_schema: object,
) -> tuple[Errors, list[str]]:
    """The problems with the plain fields, and the argument styles used (at most one is fine)."""
    errors: Errors = []
    if not isinstance(name, str) or not name.strip():
        errors.append(("name", "can't be blank"))
    elif len(name) > 64:
        errors.append(("name", f"should be at most 64 character(s), has {len(name)}"))
    for field, value in (("description", description), ("display_text", display_text)):
        if value is not None and not isinstance(value, str):
            errors.append((field, f"must be a string, got {type(value).__name__}"))
    for field, flag in flags.items():
        if not isinstance(flag, bool):
            errors.append((field, f"must be True or False, got {flag!r:.40}"))
    if unknown_arguments not in POLICIES:
        errors.append(
            (
                "unknown_arguments",
                f"must be one of {', '.join(map(repr, POLICIES))}, got {unknown_arguments!r:.40}",
            )
        )
    if options is not None and not isinstance(options, Mapping):
        errors.append(("options", "must be a mapping"))
    for i, p in enumerate(params):
        if not isinstance(p, FunctionParam):
            errors.append((f"parameters[{i}]", f"expected a FunctionParam, got {p!r:.60}"))
    if parameters_schema is not None and not isinstance(parameters_schema, Mapping):
        errors.append(("parameters_schema", "must be a JSON Schema dict"))
    styles = [
        n
        for n, v in (
            ("parameters", params),
            ("parameters_schema", parameters_schema),
            ("args_schema", args_schema),
        )
        if v is not None and v != ()
    ]
    if len(styles) > 1:
        errors.append(
            (
                styles[1],
                f"cannot use both {styles[0]} and {styles[1]}; declare the arguments one way",
            )
        )
    return errors, styles


class Declaration:
    """What a Function's arguments are, resolved once: schema, parser, names.

    ``key``: a key that fully determines ``schema`` (the adapter's
    :attr:`~toolparse.adapter.Compiled.key` with its type, the policy and
    the bound names), so Functions of one compiled form share what is built
    from the schema; ``None``: nothing is shared. ``nulls_after_reject``,
    ``verdict``, ``closed`` and ``explain``: the adapter's
    :attr:`~toolparse.adapter.Compiled.nulls_after_reject`,
    :attr:`~toolparse.adapter.Compiled.verdict`,
    :attr:`~toolparse.adapter.Compiled.closed` and
    :attr:`~toolparse.adapter.Compiled.explain`.
    """

    __slots__ = (
        "accepted",
        "adapter",
        "closed",
        "explain",
        "key",
        "nulls_after_reject",
        "parser",
        "pm",
        "required",
        "schema",
        "verdict",
    )

    def __init__(
        self,
        schema: dict[str, Any],
        parser: Callable[..., Any] | None,
        accepted: tuple[str, ...],
        required: tuple[str, ...],
        adapter: Adapter | None,
        pm: PluginManager | None,
        key: tuple[Hashable, ...] | None = None,
        nulls_after_reject: bool = False,
        verdict: Callable[[dict[str, Any]], bool] | None = None,
        closed: bool = False,
        explain: Callable[..., Any] | None = None,
    ) -> None:
        self.key = key
        self.nulls_after_reject = nulls_after_reject
        self.verdict = verdict
        self.closed = closed
        self.explain = explain
        self.schema = schema
        self.parser = parser
        self.accepted = accepted
        self.required = required
        self.adapter = adapter
        self.pm = pm


def declare(
    *,
    name: str,
    params: tuple[FunctionParam, ...],
    parameters_schema: Mapping[str, Any] | None,
    args_schema: Any,
    styles: list[str],
    unknown_arguments: str,
    want_parser: bool,
    pm: PluginManager | None,
    pinned: str | Adapter | None,
    errors: Errors,
) -> Declaration:
    """Resolve the declared arguments; raise for every definition problem found."""
    chosen: Adapter | None = None
    schema: dict[str, Any] | None = None
    parser: Callable[..., Any] | None = None
    accepted: tuple[str, ...] | None = None
    required: tuple[str, ...] | None = None
    key: tuple[Hashable, ...] | None = None
    after_reject = False
    verdict: Callable[[dict[str, Any]], bool] | None = None
    closed = False
    explain: Callable[..., Any] | None = None
    if pinned is not None and args_schema is None:
        errors.append(("adapter", "is only used with args_schema"))
    if args_schema is not None and len(styles) == 1:
        if pm is None:
            # a lazy edge: plugins imports the core's defaults, which import Function
            from ..plugins import plugin_manager as default_pm

            pm = default_pm()
        found = _resolve(pm, args_schema, unknown_arguments, want_parser, errors, pinned)
        if found is not None:
            chosen, compiled = found
            schema, parser = compiled.schema, compiled.parser
            accepted, required = compiled.accepted, compiled.required
            key = _key_of(chosen, compiled.key, unknown_arguments)
            after_reject = getattr(compiled, "nulls_after_reject", False) is True
            found_verdict = getattr(compiled, "verdict", None)
            verdict = found_verdict if parser is not None and callable(found_verdict) else None
            closed = getattr(compiled, "closed", False) is True
            found_explain = getattr(compiled, "explain", None)
            explain = found_explain if verdict is not None and callable(found_explain) else None
    if errors:
        subject = f"tool {name!r}"
        if any(msg.startswith("no installed adapter") for _, msg in errors):
            raise NoAdapterError(
                args_schema, install_hint(args_schema), errors=errors, subject=subject
            )
        raise FunctionDefinitionError(errors, subject=subject)

    if chosen is None:
        if params:
            schema = FunctionParam.to_parameters_schema(params)
        elif parameters_schema is not None:
            try:
                schema = copy_schema(parameters_schema)
            except ValueError as exc:
                raise FunctionDefinitionError(
                    [("parameters_schema", str(exc))], subject=f"tool {name!r}"
                ) from None
            problems = schema_problems(schema)
            if problems:
                raise FunctionDefinitionError(
                    [("parameters_schema", problem) for problem in problems],
                    subject=f"tool {name!r}",
                )
        else:
            schema = {"type": "object", "properties": {}}
    assert schema is not None
    if unknown_arguments == "reject" and isinstance(schema.get("properties"), Mapping):
        schema["additionalProperties"] = False

    if params:
        required = tuple(FunctionParam.required_properties(params))
        accepted = tuple(dict.fromkeys(p.name for p in params))
    else:
        if required is None:
            required = tuple(required_names(schema))
        if accepted is None:
            # declaration order for models; a raw schema's names are sorted
            accepted = tuple(
                accepted_names(schema, sort=chosen is None or isinstance(args_schema, Mapping))
            )
    return Declaration(
        schema, parser, accepted, required, chosen, pm, key, after_reject, verdict, closed, explain
    )


def _key_of(adapter: Adapter, key: object, policy: str) -> tuple[Hashable, ...] | None:
    """The declaration's key from an adapter's ``Compiled.key`` (``None``: none, or unusable)."""
    if key is None:
        return None
    try:
        hash(key)
    except Exception:  # an adapter's mistake costs the sharing, not the tool
        return None
    # the promise holds for the adapter's own type; the policy changes the
    # schema too (see declare), and so do bound names (see without_bound).
    # Five items: never equal to a FunctionParam declaration's key.
    return ("adapter", type(adapter), key, policy, frozenset())


def without_bound(found: Declaration, bound: frozenset[str]) -> None:
    """Take the names the application bound out of the schema and the accepted names.

    A bound argument (a partial's ``api_key=...``) is the application's: the
    model never sees it, not even as a default.
    """
    if not bound:
        return
    schema = dict(found.schema)  # an adapter may hand out a schema it keeps
    props = schema.get("properties")
    if isinstance(props, Mapping):
        schema["properties"] = {k: v for k, v in props.items() if k not in bound}
    required = schema.get("required")
    if isinstance(required, list):
        schema["required"] = [n for n in required if n not in bound]
        if not schema["required"]:
            del schema["required"]
    found.schema = schema
    if found.key is not None:
        found.key = (*found.key[:4], bound)
    found.accepted = tuple(n for n in found.accepted if n not in bound)
    found.required = tuple(n for n in found.required if n not in bound)


def source_description(schema: Mapping[str, Any]) -> str | None:
    """The description a source already has: its schema's top-level ``description``."""
    found = schema.get("description")
    if isinstance(found, str) and found.strip():
        return found.strip()
    return None
