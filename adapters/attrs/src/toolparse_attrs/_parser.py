"""The parser (the converter's structure hook, its errors as problems) and the dumper."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import cattrs

from toolparse import Ok, ParseResult, invalid_arguments

from ._converter import default_converter, get_structure_hook
from ._errors import ErrorReader
from ._fields import Fields

__all__ = ["dump", "make_parser"]


def make_parser(
    converter: cattrs.BaseConverter, fields: Fields, cls: type, accepted: tuple[str, ...]
) -> Callable[[dict[str, Any]], ParseResult]:
    """The parser for ``cls``: cattrs structures the arguments into an instance."""
    # the compiled hook, fetched once: no dispatch on each call
    hook = get_structure_hook(converter, cls)
    reader = ErrorReader(fields)

    def parse(arguments: dict[str, Any]) -> ParseResult:
        try:
            return Ok(hook(arguments, cls))
        except Exception as exc:
            problems, more = reader.problems(exc, arguments, cls)
            return invalid_arguments(
                problems, arguments=arguments, accepted=accepted, cause=exc, more=more
            )

    return parse


def dump(value: object, converter: cattrs.BaseConverter | None) -> str | None:
    """JSON text for attrs instances, unstructured by ``converter`` (``None``: the default)."""
    try:
        return json.dumps(
            (converter or default_converter()).unstructure(value),
            ensure_ascii=False,
            allow_nan=False,
            default=_default,
        )
    except (TypeError, ValueError):
        return None


def _default(value: Any) -> Any:
    """JSON for what a converter leaves as is (dates and times: ISO 8601; sets: arrays)."""
    if isinstance(value, (set, frozenset)):
        return list(value)
    isoformat = getattr(value, "isoformat", None)
    if callable(isoformat):
        return isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")
