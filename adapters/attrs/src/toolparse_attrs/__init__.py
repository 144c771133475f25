"""toolparse adapter for attrs classes, structured by cattrs.

Installing ``toolparse[attrs]`` registers :class:`AttrsAdapter` through the
``toolparse`` entry point. Importing this package (and collecting its adapter)
imports neither attrs nor cattrs: that happens when a tool with an attrs
``args_schema`` is defined. :func:`using` (an :class:`AttrsSource`) hands a
class to the adapter with your own converter; :func:`make_converter` and
:func:`configure_converter` build one with toolparse's strict JSON rules (they
import cattrs on first use).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toolparse import hookimpl

from ._adapter import AttrsAdapter, AttrsSource, using

if TYPE_CHECKING:
    from ._converter import configure_converter, make_converter

__all__ = [
    "AttrsAdapter",
    "AttrsSource",
    "configure_converter",
    "make_converter",
    "toolparse_register_adapters",
    "using",
]

# imported on first use: they need cattrs
_LAZY = {"configure_converter": "._converter", "make_converter": "._converter"}


@hookimpl
def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
    """Register the attrs adapter."""
    register(AttrsAdapter())


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(module, __name__), name)
