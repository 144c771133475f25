"""Resolving a tool's ``args_schema``: choosing the adapter, building its schema and parser once."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..adapter import Adapter, install_hint
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
) -> tuple[Adapter | None, dict[str, Any] | None, Callable[..., Any] | None]:
    """Find the adapter for ``args_schema`` and build its schema and parser once."""
    adapter: Adapter | None
    if isinstance(pinned, str):
        adapter = pm.adapter(pinned)
        if adapter is None:
            known = ", ".join(a.name for a in pm.adapters())
            errors.append(
                ("adapter", f"no adapter named {pinned!r} is installed (installed: {known})")
            )
            return None, None, None
    elif pinned is not None:
        adapter = pinned
    else:
        try:
            adapter = pm.select_adapter(source)
        except Exception as exc:
            errors.append(("args_schema", f"choosing an adapter failed: {exc}"))
            return None, None, None
    if adapter is None:
        errors.append(("args_schema", NoAdapterError.describe(source, install_hint(source))))
        return None, None, None
    from ..plugins import resolving

    token = resolving.set(pm)
    try:
        schema = _with_policy(adapter.json_schema, source, policy)
        parser = _with_policy(adapter.parser, source, policy) if want_parser else None
    except FunctionDefinitionError as exc:
        errors.extend(("args_schema", f"{field}: {msg}") for field, msg in exc.errors)
        return None, None, None
    except Exception as exc:
        errors.append(("args_schema", f"the {adapter.name} adapter cannot use it: {exc}"))
        return None, None, None
    finally:
        resolving.reset(token)
    if not isinstance(schema, dict):
        errors.append(("args_schema", f"the {adapter.name} adapter returned no JSON Schema dict"))
        return None, None, None
    return adapter, schema, parser


def _with_policy(method: Callable[..., Any], source: Any, policy: str) -> Any:
    if _accepts_keyword(method, "unknown_arguments"):
        return method(source, unknown_arguments=policy)
    return method(source)
