"""toolparse adapter for marshmallow: a ``Schema`` as a tool's ``args_schema``.

This module holds the plugin's hook implementations only; the adapter and
marshmallow itself are imported when the adapters are first collected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolparse import hookimpl

__all__ = ["toolparse_register_adapters"]


@hookimpl
def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
    """Register the marshmallow adapter."""
    from ._adapter import MarshmallowAdapter

    register(MarshmallowAdapter())
