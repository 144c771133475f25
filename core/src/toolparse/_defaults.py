"""The core's own defaults, registered through the same hooks a plugin uses.

The built-in adapter and the providers are imported when first collected (not
a cycle: neither imports the plugin manager), so ``import toolparse`` stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .adapter import Adapter
from .hookspecs import hookimpl

__all__: list[str] = []


@hookimpl
def toolparse_register_adapters(register: Callable[[Adapter], None]) -> None:
    """Register the built-in adapter for plain Python types."""
    from .plain import PlainAdapter  # on first use: most programs never need it at import

    register(PlainAdapter())


@hookimpl
def toolparse_register_providers(register: Callable[[Any], None]) -> None:
    """Register the built-in provider formats."""
    from .providers import builtin_providers  # on first use, like the adapter

    for provider in builtin_providers():
        register(provider)


@hookimpl(trylast=True)
def toolparse_select_adapter(source: object, candidates: Sequence[Adapter]) -> Adapter | None:
    """Pick the first candidate that accepts the source."""
    for adapter in candidates:
        if adapter.accepts(source):
            return adapter
    return None
