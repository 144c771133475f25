"""Checking a Function's definition and resolving what it declares, once.

Every problem with a definition is collected (so one
:class:`~toolparse.FunctionDefinitionError` names them all), then the
declaration (``parameters``, ``parameters_schema`` or ``args_schema``) becomes
the schema, the parser and the accepted and required names. An
``args_schema`` goes to the adapter the plugin manager picks (or the one
pinned with ``adapter=``), compiled once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from .._repair import definition_problem
from .._schemas import resolve_ref
from ..adapter import POLICIES, Adapter, Compiled
from ..errors import FunctionDefinitionError, NoAdapterError, install_hint
from ..params import FunctionParam
from ._callables import accepts_keyword
from ._raw_schema import copy_schema, schema_problems

if TYPE_CHECKING:
    from ..plugins import PluginManager

__all__: list[str] = []

Errors = list[tuple[str, str]]


def field_errors(given: Mapping[str, Any]) -> tuple[Errors, list[str]]:
    """The problems with the plain fields, and the argument styles used (at most one is fine).

    ``given``: the keyword arguments of ``Function(...)``, ``parameters`` as a tuple.
    """
    errors: Errors = []
    name, options, unknown_arguments = given["name"], given["options"], given["unknown_arguments"]
    params, parameters_schema = given["parameters"], given["parameters_schema"]
    if not isinstance(name, str) or not name.strip():
        errors.append(("name", "can't be blank"))
    elif len(name) > 128:  # (a provider that allows fewer gets an alias)
        errors.append(("name", f"should be at most 128 character(s), has {len(name)}"))
    for field in ("description", "display_text"):
        value = given[field]
        if value is not None and not isinstance(value, str):
            errors.append((field, f"must be a string, got {type(value).__name__}"))
    for field in ("concurrent", "strict", "return_direct"):
        flag = given[field]
        if not isinstance(flag, bool):
            errors.append((field, f"must be True or False, got {flag!r:.40}"))
    if unknown_arguments not in POLICIES:
        choices = ", ".join(map(repr, POLICIES))
        text = f"must be one of {choices}, got {unknown_arguments!r:.40}"
        errors.append(("unknown_arguments", text))
    if options is not None and not isinstance(options, Mapping):
        errors.append(("options", "must be a mapping"))
    for i, p in enumerate(params):
        if not isinstance(p, FunctionParam):
            errors.append((f"parameters[{i}]", f"expected a FunctionParam, got {p!r:.60}"))
    if parameters_schema is not None and not isinstance(parameters_schema, Mapping):
        errors.append(("parameters_schema", "must be a JSON Schema dict"))
    styles = [
        n
        for n in ("parameters", "parameters_schema", "args_schema")
        if given[n] is not None and given[n] != ()
    ]
    if len(styles) > 1:
        first, second = styles[:2]
        text = f"cannot use both {first} and {second}; declare the arguments one way"
        errors.append((second, text))
    return errors, styles


class Declaration:
    """What a Function's arguments are, resolved once: schema, parser, names.

    ``key`` fully determines ``schema`` (the adapter's ``Compiled.key`` with
    its type, the policy and the bound names): Functions of one key share what
    is built from the schema (``None``: nothing is shared). The other fields
    are the adapter's ``Compiled`` ones.
    """

    __slots__ = (
        "accepted",
        "adapter",
        "key",
        "nulls_after_reject",
        "parser",
        "required",
        "schema",
        "verdict",
    )

    def __init__(
        self,
        schema: dict[str, Any],
        compiled: Compiled | None = None,
        adapter: Adapter | None = None,
        key: tuple[Hashable, ...] | None = None,
    ) -> None:
        self.schema = schema
        self.adapter = adapter
        self.key = key
        self.parser = None if compiled is None else compiled.parser
        self.accepted = None if compiled is None else compiled.accepted
        self.required = None if compiled is None else compiled.required
        # (what the adapter says of its parser counts only where there is one)
        sure = compiled is not None and compiled.parser is not None
        self.nulls_after_reject = sure and compiled.nulls_after_reject is True  # type: ignore[union-attr]
        verdict = compiled.verdict if sure else None  # type: ignore[union-attr]
        self.verdict = verdict if callable(verdict) else None


def declare(
    given: Mapping[str, Any], styles: list[str], pm: PluginManager, errors: Errors
) -> Declaration:
    """Resolve the declared arguments; raise for every definition problem found.

    ``given``: the keyword arguments of ``Function(...)`` (see :func:`field_errors`).
    """
    name, params, args_schema = given["name"], given["parameters"], given["args_schema"]
    parameters_schema, unknown_arguments = given["parameters_schema"], given["unknown_arguments"]
    pinned, want_parser = given["adapter"], given["parse_args"] is None
    found: Declaration | None = None
    if (problem := definition_problem(given["repair"])) is not None:
        errors.append(("repair", problem))
    if pinned is not None and args_schema is None:
        errors.append(("adapter", "is only used with args_schema"))
    if args_schema is not None and len(styles) == 1:
        found = _resolve(pm, args_schema, unknown_arguments, want_parser, errors, pinned)
    if errors:
        subject = f"tool {name!r}"
        if any(msg.startswith("no installed adapter") for _, msg in errors):
            raise NoAdapterError(
                args_schema, install_hint(args_schema), errors=errors, subject=subject
            )
        raise FunctionDefinitionError(errors, subject=subject)
    if found is None:
        # FunctionParams are values: one tuple of them (and the policy) is one schema
        key: tuple[Hashable, ...] | None = (
            ("parameters", params, unknown_arguments, frozenset()) if params else None
        )
        found = Declaration(_own_schema(name, params, parameters_schema), key=key)
    schema = found.schema
    if unknown_arguments == "reject" and isinstance(schema.get("properties"), Mapping):
        schema["additionalProperties"] = False
    if params:
        found.required = tuple(FunctionParam.required_properties(params))
        found.accepted = tuple(dict.fromkeys(p.name for p in params))
    else:
        if isinstance(ref := schema.get("$ref"), str) and "properties" not in schema:
            with suppress(ValueError):  # a root reference (zod's output): the names are there
                schema = resolve_ref(schema, ref)
        if found.required is None:
            found.required = tuple(required_names(schema))
        if found.accepted is None:
            # declaration order for models; a raw schema's names are sorted
            sort = found.adapter is None or isinstance(args_schema, Mapping)
            found.accepted = tuple(accepted_names(schema, sort=sort))
    return found


def _own_schema(
    name: str, params: tuple[FunctionParam, ...], parameters_schema: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The schema of ``parameters`` or of a raw ``parameters_schema`` (checked once)."""
    if params:
        return FunctionParam.to_parameters_schema(params)
    if parameters_schema is None:
        return {"type": "object", "properties": {}}
    try:
        schema = copy_schema(parameters_schema)
    except ValueError as exc:
        problems = [str(exc)]
    else:
        problems = schema_problems(schema)
    if problems:
        raise FunctionDefinitionError(
            [("parameters_schema", problem) for problem in problems], subject=f"tool {name!r}"
        )
    return schema


def _resolve(
    pm: PluginManager,
    source: Any,
    policy: str,
    want_parser: bool,
    errors: Errors,
    pinned: str | Adapter | None,
) -> Declaration | None:
    """Find the adapter for ``args_schema`` and compile it once (``None``: see ``errors``)."""
    adapter = _adapter_for(pm, source, errors, pinned)
    if adapter is None:
        return None
    try:
        compile_ = getattr(adapter, "compile", None)
        if compile_ is not None:
            compiled = compile_(
                source,
                unknown_arguments=policy,
                field_schema=pm.field_schema_for(adapter.name),
                parser=want_parser,
            )
        else:
            compiled = _two_step(pm, adapter, source, policy, want_parser)
    except FunctionDefinitionError as exc:
        errors.extend(("args_schema", f"{field}: {msg}") for field, msg in exc.errors)
        return None
    except Exception as exc:
        errors.append(("args_schema", f"the {adapter.name} adapter cannot use it: {exc}"))
        return None
    if not isinstance(compiled, Compiled) or not isinstance(compiled.schema, dict):
        errors.append(("args_schema", f"the {adapter.name} adapter returned no JSON Schema dict"))
        return None
    return Declaration(compiled.schema, compiled, adapter, _key_of(adapter, compiled.key, policy))


def _adapter_for(
    pm: PluginManager, source: Any, errors: Errors, pinned: str | Adapter | None
) -> Adapter | None:
    """The adapter pinned by name or object, else the one the plugins select."""
    if pinned is not None and not isinstance(pinned, str):
        return pinned
    if isinstance(pinned, str):
        adapter = pm.adapter(pinned)
        if adapter is None:
            known = ", ".join(a.name for a in pm.adapters())
            text = f"no adapter named {pinned!r} is installed (installed: {known})"
            errors.append(("adapter", text + _failed(pm, pinned)))
        return adapter
    try:
        adapter = pm.select_adapter(source)
    except Exception as exc:
        errors.append(("args_schema", f"choosing an adapter failed: {exc}"))
        return None
    if adapter is None:
        hint = install_hint(source)
        errors.append(("args_schema", NoAdapterError.describe(source, hint) + _failed(pm, hint)))
    return adapter


def _failed(pm: PluginManager, wanted: str | None) -> str:
    """Name the plugins that failed to import and may be the one this source needs."""
    failed = pm.failed_plugins()
    if wanted is not None:
        # the plugin for a known library is named like its extra (or its distribution)
        failed = [f for f in failed if wanted in (f.name, f.distribution.partition("-")[2])]
    return "".join(
        f"; the plugin {f.describe()} is installed but failed to import: {f.error}" for f in failed
    )


def _two_step(
    pm: PluginManager, adapter: Adapter, source: Any, policy: str, want_parser: bool
) -> Compiled:
    """The shim for adapters written against the two-method form."""
    # such adapters reach the field-schema hook through toolparse.plugins.field_schema,
    # which reads the manager resolving this tool from this context variable
    from ..plugins import resolving  # (plugins is loaded: pm is one of its managers)

    token = resolving.set(pm)
    try:
        schema = _with_policy(adapter.json_schema, source, policy)
        parser = _with_policy(adapter.parser, source, policy) if want_parser else None
    finally:
        resolving.reset(token)
    return Compiled(schema, parser)


def _with_policy(method: Callable[..., Any], source: Any, policy: str) -> Any:
    if accepts_keyword(method, "unknown_arguments"):
        return method(source, unknown_arguments=policy)
    return method(source)


def _key_of(adapter: Adapter, key: object, policy: str) -> tuple[Hashable, ...] | None:
    """The declaration's key from an adapter's ``Compiled.key`` (``None``: none, or unusable)."""
    if key is None:
        return None
    try:
        hash(key)
    except Exception:  # an adapter's mistake costs the sharing, not the tool
        return None
    # the promise holds for the adapter's own type; the policy changes the
    # schema too (see declare), and so do bound names (see without_bound)
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
    found.accepted = tuple(n for n in found.accepted or () if n not in bound)
    found.required = tuple(n for n in found.required or () if n not in bound)


def accepted_names(schema: Mapping[str, Any], *, sort: bool) -> list[str]:
    """The top-level property names of an object schema (``[]`` when unknown)."""
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return []
    names = [str(k) for k in props if isinstance(k, str)]
    return sorted(names) if sort else names


def required_names(schema: Mapping[str, Any]) -> list[str]:
    """The ``required`` list of an object schema, keeping only strings."""
    required = schema.get("required")
    if not isinstance(required, Sequence) or isinstance(required, str):
        return []
    return [name for name in required if isinstance(name, str)]


def source_description(schema: Mapping[str, Any]) -> str | None:
    """The description a source already has: its schema's top-level ``description``."""
    found = schema.get("description")
    if isinstance(found, str) and found.strip():
        return found.strip()
    return None
