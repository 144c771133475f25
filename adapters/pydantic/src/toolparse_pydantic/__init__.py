"""toolparse adapter for pydantic: models, TypedDicts and dataclasses as tool arguments.

Installing ``toolparse[pydantic]`` registers :class:`PydanticAdapter` through
the ``toolparse`` entry point; nothing needs importing. Importing this package
(and collecting its adapter) imports no pydantic: that happens when a tool
with a pydantic ``args_schema`` is defined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolparse import hookimpl

from ._adapter import PydanticAdapter

__all__ = ["PydanticAdapter", "toolparse_register_adapters"]


@hookimpl
def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
    """Register the pydantic adapter."""
    register(PydanticAdapter())
