"""Resolving a tool's ``args_schema``: choosing the adapter and compiling the source once.

An adapter with the one-step form (``compile``) gets the tool's policy and the
field-schema hook as explicit arguments. The two-method form of earlier
releases (``json_schema`` + ``parser``) keeps working through :func:`_two_step`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..adapter import Adapter, Compiled, install_hint
from ..errors import FunctionDefinitionError, NoAdapterError
from ._callables import _accepts_keyword

if TYPE_CHECKING:
    from ..plugins import PluginManager

__all__: list[str] = []


def _resolve(
    pm: PluginManager,
    source: Any,
    policy: str,
    want_parser: bool,
    errors: list[tuple[str, str]],
    pinned: str | Adapter | None = None,
) -> tuple[Adapter, Compiled] | None:
    """Find the adapter for ``args_schema`` and compile it once (``None``: see ``errors``)."""
    adapter: Adapter | None
    if isinstance(pinned, str):
        adapter = pm.adapter(pinned)
        if adapter is None:
            known = ", ".join(a.name for a in pm.adapters())
            errors.append(
                (
                    "adapter",
                    f"no adapter named {pinned!r} is installed (installed: {known})"
                    + _failed(pm, pinned),
                )
            )
            return None
    elif pinned is not None:
        adapter = pinned
    else:
        try:
            adapter = pm.select_adapter(source)
        except Exception as exc:
            errors.append(("args_schema", f"choosing an adapter failed: {exc}"))
            return None
    if adapter is None:
        hint = install_hint(source)
        errors.append(("args_schema", NoAdapterError.describe(source, hint) + _failed(pm, hint)))
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
    return adapter, compiled


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
    # which reads the manager resolving this tool from this context variable;
    # lazy: the plugins module imports the core's defaults, which import Function
    from ..plugins import resolving

    token = resolving.set(pm)
    try:
        schema = _with_policy(adapter.json_schema, source, policy)
        parser = _with_policy(adapter.parser, source, policy) if want_parser else None
    finally:
        resolving.reset(token)
    return Compiled(schema, parser)


def _with_policy(method: Callable[..., Any], source: Any, policy: str) -> Any:
    if _accepts_keyword(method, "unknown_arguments"):
        return method(source, unknown_arguments=policy)
    return method(source)
