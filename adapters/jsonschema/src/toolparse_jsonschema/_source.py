"""``JsonSchema``: a JSON Schema together with the adapter's options.

This module imports nothing from ``jsonschema`` so that loading the plugin (and
importing :class:`JsonSchema`) stays cheap; the library is imported when a tool
is defined.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["JsonSchema"]


class JsonSchema(Mapping[str, Any]):
    """A JSON Schema for ``args_schema``, with options for the jsonschema adapter.

    A plain dict passed as ``args_schema`` uses the defaults; wrap it to change
    them::

        Function("weather", body, args_schema=JsonSchema(schema, apply_defaults=True))

    It reads as the schema itself (a read-only mapping), so everything that
    accepts a JSON Schema dict accepts it too.

    :param schema: the JSON Schema, an object schema (``"type": "object"`` or
        with ``"properties"``).
    :param apply_defaults: fill the ``default`` of every property the model
        left out into the arguments the tool body receives (top level, and
        inside nested objects that were sent).
    :param fast: validate with ``jsonschema-rs`` when it is installed
        (``None``, the default), always (``True``: a definition error when it
        is missing or cannot compile the schema) or never (``False``).
    :param pattern_timeout: seconds one ``pattern`` search toolparse runs may
        take (``patternProperties`` and property names too); a search that
        takes longer rejects the value as not checked in time.
    :param pattern_budget: seconds all those searches of one call may take
        together; once spent, every further search is out of time.
    """

    __slots__ = ("_apply_defaults", "_fast", "_pattern_budget", "_pattern_timeout", "_schema")

    def __init__(
        self,
        schema: Mapping[str, Any],
        *,
        apply_defaults: bool = False,
        fast: bool | None = None,
        pattern_timeout: float = 0.1,
        pattern_budget: float = 1.0,
    ) -> None:
        if not isinstance(schema, Mapping):
            raise TypeError(f"schema must be a JSON Schema dict, got {type(schema).__name__}")
        if not isinstance(apply_defaults, bool):
            raise TypeError("apply_defaults must be True or False")
        if fast not in (None, True, False):
            raise TypeError("fast must be None, True or False")
        for name, value in (
            ("pattern_timeout", pattern_timeout),
            ("pattern_budget", pattern_budget),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"{name} must be a number of seconds greater than 0")
        self._schema = schema
        self._apply_defaults = apply_defaults
        self._fast = fast
        self._pattern_timeout = float(pattern_timeout)
        self._pattern_budget = float(pattern_budget)

    @property
    def schema(self) -> Mapping[str, Any]:
        """The wrapped JSON Schema."""
        return self._schema

    @property
    def apply_defaults(self) -> bool:
        """Whether absent properties get their ``default`` before the body runs."""
        return self._apply_defaults

    @property
    def fast(self) -> bool | None:
        """``jsonschema-rs``: ``None`` when installed, ``True`` always, ``False`` never."""
        return self._fast

    @property
    def pattern_timeout(self) -> float:
        """Seconds one pattern search may take."""
        return self._pattern_timeout

    @property
    def pattern_budget(self) -> float:
        """Seconds the pattern searches of one call may take together."""
        return self._pattern_budget

    def __getitem__(self, key: str) -> Any:
        return self._schema[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._schema)

    def __len__(self) -> int:
        return len(self._schema)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JsonSchema):
            return self._options() == other._options()
        return super().__eq__(other)

    def _options(self) -> tuple[Any, ...]:
        return (
            self._schema,
            self._apply_defaults,
            self._fast,
            self._pattern_timeout,
            self._pattern_budget,
        )

    __hash__ = None  # type: ignore[assignment]  # a mutable schema inside: unhashable like a dict

    def __repr__(self) -> str:
        options = ""
        if self._apply_defaults:
            options += ", apply_defaults=True"
        if self._fast is not None:
            options += f", fast={self._fast}"
        if self._pattern_timeout != 0.1:
            options += f", pattern_timeout={self._pattern_timeout}"
        if self._pattern_budget != 1.0:
            options += f", pattern_budget={self._pattern_budget}"
        return f"JsonSchema({dict(self._schema)!r}{options})"
