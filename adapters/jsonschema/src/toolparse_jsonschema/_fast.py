"""The optional fast path: ``jsonschema-rs`` decides whether arguments are valid.

When ``jsonschema-rs`` is installed (``pip install "toolparse-jsonschema[fast]"``)
it compiles the schema once and answers "valid or not"; the ``jsonschema``
library runs only to explain a rejection, so the model reads the same message
on either path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, NoReturn

from toolparse import NOT_GIVEN, ArgumentProblem

from ._errors import reason
from ._formats import STANDARD_FORMATS
from ._schema import Definition

__all__ = ["FastUnavailable", "FastValidator"]


class FastUnavailable(Exception):
    """``jsonschema-rs`` is missing, too old, or cannot compile the schema."""


def _refuse(uri: str) -> NoReturn:
    # every reference was checked at definition to stay inside the schema;
    # should one still need fetching, refuse rather than touch the network
    raise ValueError(f"toolparse never fetches schemas: {uri}")


def _any_string(value: str) -> bool:
    return True


class FastValidator:
    """A schema compiled by ``jsonschema-rs``.

    Formats the pure path does not check are switched off here too (a format
    function that accepts everything), so both paths decide alike. Raises
    :class:`FastUnavailable`, with the reason, when that cannot be done.
    """

    __slots__ = ("_schema", "_validator", "is_valid", "iter_errors")

    def __init__(self, definition: Definition, checked_formats: frozenset[str]) -> None:
        try:
            import jsonschema_rs
        except ImportError as exc:
            raise FastUnavailable(
                'jsonschema-rs is not installed; pip install "toolparse-jsonschema[fast]"'
            ) from exc
        signature = (jsonschema_rs.validator_for.__doc__ or "").split("\n", 1)[0]
        if "retriever" not in signature or "validate_formats" not in signature:
            # `retriever` arrived in 0.27: without it a remote $ref could be fetched
            raise FastUnavailable(
                f"jsonschema-rs {_version()} is too old for toolparse (0.27 or later)"
            )
        unchecked = STANDARD_FORMATS - checked_formats
        try:
            # the formats the pure path leaves unchecked are taken out of the
            # schema jsonschema-rs compiles: a format function that accepts
            # everything would be a call into Python for every such value
            schema, formats = _without_formats(definition.schema, unchecked), {}
        except RecursionError:
            schema, formats = definition.schema, dict.fromkeys(unchecked, _any_string)
        try:
            validator = jsonschema_rs.validator_for(
                schema,
                formats=formats or None,
                validate_formats=True,
                retriever=_refuse,
            )
        except Exception as exc:  # it raises several kinds for a schema it cannot use
            raise FastUnavailable(f"jsonschema-rs cannot compile the schema: {exc}") from exc
        self._schema = definition.schema
        self._validator = validator
        #: ``is_valid(instance) -> bool``, the library's own bound method
        self.is_valid: Callable[[Any], bool] = validator.is_valid
        #: ``iter_errors(instance)``, the library's own bound method
        self.iter_errors: Callable[[Any], Iterator[Any]] = validator.iter_errors

    def count(self, arguments: Mapping[str, Any]) -> int:
        """How many errors ``jsonschema-rs`` finds in ``arguments``."""
        return sum(1 for _ in self._validator.iter_errors(arguments))

    def problems(
        self, arguments: Mapping[str, Any]
    ) -> tuple[list[ArgumentProblem], BaseException | None]:
        """The problems as ``jsonschema-rs`` finds them, and its first error.

        Used only when the two libraries disagree about a rejection, so that
        the message still says what is wrong.
        """
        found: list[ArgumentProblem] = []
        first: BaseException | None = None
        for error in self._validator.iter_errors(arguments):
            first = first or error
            path = tuple(error.instance_path)
            found.append(
                ArgumentProblem(path, self._reason(list(error.schema_path)), _at(arguments, path))
            )
        return found, first

    def _reason(self, schema_path: list[Any]) -> str:
        """Plain words for the keyword at the end of ``schema_path``."""
        keyword = schema_path[-1] if schema_path else None
        node: Any = self._schema
        parent: Mapping[str, Any] = {}
        for part in schema_path:
            if isinstance(node, Mapping) and str(part) in node:
                parent, node = node, node[str(part)]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                # the path went through a $ref: the keyword's value is elsewhere
                return f'fails the "{keyword}" rule of the schema'
        return reason(keyword, node, parent)


#: keywords whose values are data, never subschemas (a "format" key there is a value)
_DATA_KEYWORDS = frozenset(("const", "default", "enum", "examples"))


def _without_formats(node: Any, off: frozenset[str]) -> Any:
    """A copy of the schema ``node`` without the ``format`` keywords named in ``off``.

    Only a string ``format`` is a keyword (a property called "format" has a
    subschema as its value), and data keywords are copied as they are.
    """
    if isinstance(node, Mapping):
        return {
            key: value if key in _DATA_KEYWORDS else _without_formats(value, off)
            for key, value in node.items()
            if not (key == "format" and isinstance(value, str) and value in off)
        }
    if isinstance(node, list):
        return [_without_formats(value, off) for value in node]
    return node


def _at(arguments: Any, path: tuple[Any, ...]) -> Any:
    """The value at ``path``, to echo (not an object, which says little)."""
    node = arguments
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return NOT_GIVEN
    return NOT_GIVEN if isinstance(node, Mapping) else node


def _version() -> str:
    from importlib.metadata import version

    return version("jsonschema-rs")
