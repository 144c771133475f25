"""The core's own defaults, registered through the same hooks a plugin uses.

The built-in adapter is imported when first collected, so ``import toolparse``
stays light. The built-in providers are not here: ``toolparse.providers``
registers them itself, on a manager whose providers it is first asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .adapter import Adapter
from .hookspecs import hookimpl

__all__: list[str] = []


@hookimpl
def toolparse_register_adapters(register: Callable[[Adapter], None]) -> None:
    """Register the built-in adapter for plain Python types."""
    from .plain import PlainAdapter  # on first use: most programs never need it at import

    register(PlainAdapter())


@hookimpl(trylast=True)
def toolparse_select_adapter(source: object, candidates: Sequence[Adapter]) -> Adapter | None:
    """Pick the first candidate that accepts the source."""
    return next((adapter for adapter in candidates if adapter.accepts(source)), None)
