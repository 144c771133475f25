"""toolparse adapter for pydantic: models, TypedDicts and dataclasses as tool arguments.

Installing ``toolparse[pydantic]`` registers :class:`PydanticAdapter` through
the ``toolparse`` entry point; nothing needs importing. This module holds the
hook implementation only; pydantic is imported when adapters are collected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolparse import hookimpl

__all__ = ["toolparse_register_adapters"]


@hookimpl
def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
    """Register the pydantic adapter."""
    from ._adapter import PydanticAdapter

    register(PydanticAdapter())
