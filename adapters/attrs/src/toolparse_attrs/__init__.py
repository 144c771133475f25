"""toolparse adapter for attrs classes, structured by cattrs.

``toolparse[attrs]`` registers :class:`AttrsAdapter` through the ``toolparse``
entry point; importing this package imports neither attrs nor cattrs (a tool
defined with an attrs ``args_schema`` does). :func:`using` hands a class to the
adapter with your own converter; :func:`make_converter` and
:func:`configure_converter` build one with toolparse's strict JSON rules.
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


@hookimpl
def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
    """Register the attrs adapter."""
    register(AttrsAdapter())


def __getattr__(name: str) -> Any:
    if name not in ("configure_converter", "make_converter"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import _converter  # on first use: it imports cattrs

    return getattr(_converter, name)
