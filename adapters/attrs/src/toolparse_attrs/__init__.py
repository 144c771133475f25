"""toolparse adapter for attrs classes, structured by cattrs.

This module holds the plugin's hook implementation; the adapter and the
public helpers live in their own modules and are imported on first use, so
loading the plugin does not import cattrs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toolparse import hookimpl

if TYPE_CHECKING:
    from ._converter import configure_converter, make_converter
    from ._source import AttrsSource, using

__all__ = [
    "AttrsSource",
    "configure_converter",
    "make_converter",
    "toolparse_register_adapters",
    "using",
]

_LAZY = {
    "AttrsSource": "._source",
    "using": "._source",
    "configure_converter": "._converter",
    "make_converter": "._converter",
}


@hookimpl
def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
    """Register the attrs adapter."""
    from ._adapter import AttrsAdapter

    register(AttrsAdapter())


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(module, __name__), name)
