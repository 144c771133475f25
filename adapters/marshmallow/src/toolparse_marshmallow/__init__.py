"""toolparse adapter for marshmallow: a ``Schema`` as a tool's ``args_schema``.

Installing ``toolparse[marshmallow]`` registers :class:`MarshmallowAdapter`
through the ``toolparse`` entry point. Importing this package (and collecting
its adapter) imports no marshmallow: that happens when a tool with a
marshmallow ``args_schema`` is defined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolparse import hookimpl

from ._adapter import MarshmallowAdapter

__all__ = ["MarshmallowAdapter", "toolparse_register_adapters"]


@hookimpl
def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
    """Register the marshmallow adapter."""
    register(MarshmallowAdapter())
