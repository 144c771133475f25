"""toolparse adapter for pydantic: models, TypedDicts and dataclasses as tool arguments.

Installing ``toolparse[pydantic]`` registers :class:`PydanticAdapter` through
the ``toolparse`` entry point. Importing this package imports no pydantic: that
happens when a tool with a pydantic ``args_schema`` is defined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolparse import hookimpl

from ._adapter import PydanticAdapter, loaded

# the public names every adapter package has; pluggy also collects the
# exception-wording hook below from the module itself
__all__ = ["PydanticAdapter", "toolparse_register_adapters"]


@hookimpl
def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
    """Register the pydantic adapter."""
    register(PydanticAdapter())


@hookimpl
def toolparse_format_exception(exception: BaseException, function: Any) -> str | None:
    """A pydantic ``ValidationError`` a tool body raised, in the shared words.

    ``ERROR: (ValidationError) weight: must be a number; unit: is required at
    shipping.py:31: quote`` instead of pydantic's multi-line dump; ``None``
    (the default text) for every other exception. Imports no pydantic.
    """
    v2 = loaded("pydantic_core", "ValidationError")
    v1 = loaded("pydantic.v1", "ValidationError")
    is_v2 = v2 is not None and isinstance(exception, v2)
    if not is_v2 and (v1 is None or not isinstance(exception, v1)):
        return None
    from toolparse.adapter import raised_text

    from ._errors import raised_lines

    try:
        errors = exception.errors(include_url=False) if is_v2 else exception.errors()  # type: ignore[attr-defined]
    except Exception:  # a subclass that broke errors(): the default text stands
        return None
    return raised_text(exception, raised_lines(errors))
