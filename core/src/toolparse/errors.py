"""Exceptions raised to the developer (never to the model)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["FunctionDefinitionError", "NoAdapterError", "install_hint"]


class FunctionDefinitionError(ValueError):
    """A tool (or one of its parameters) is defined wrongly.

    Raised when the definition is built, never at call time, naming every
    problem at once. :attr:`errors` holds them as ``(field, message)`` pairs and
    the message reads ``field: message; field: message``.
    """

    def __init__(self, errors: Sequence[tuple[str, str]], *, subject: str = "") -> None:
        self.errors: list[tuple[str, str]] = list(errors)
        self.subject = subject
        text = "; ".join(f"{field}: {message}" for field, message in self.errors)
        super().__init__(f"{subject}: {text}" if subject else text)


class NoAdapterError(FunctionDefinitionError):
    """No installed adapter recognises a tool's ``args_schema``."""

    def __init__(
        self,
        source: object,
        extra: str | None,
        *,
        errors: Sequence[tuple[str, str]] | None = None,
        subject: str = "",
    ) -> None:
        self.source = source
        self.extra = extra
        if errors is None:
            errors = [("args_schema", self.describe(source, extra))]
        super().__init__(errors, subject=subject)

    @staticmethod
    def describe(source: object, extra: str | None) -> str:
        """The message for ``source``, naming the extra to install when known."""
        if isinstance(source, type):
            what = f"{source.__module__}.{source.__qualname__}"
        elif isinstance(source, dict):
            what = "this JSON Schema dict"
        else:
            what = f"{type(source).__qualname__} object {source!r:.60}"
        message = f"no installed adapter recognises {what}"
        if extra is not None:
            message += f'; install it with pip install "toolparse[{extra}]"'
        return message


def install_hint(source: object) -> str | None:
    """Name the extra that would recognise ``source``, when it is a known library's.

    This is a hint table, not dispatch: it only words the error for a source
    that no installed adapter accepts.
    """
    if isinstance(source, Mapping):
        return "jsonschema"
    cls = source if isinstance(source, type) else type(source)
    if hasattr(cls, "__attrs_attrs__"):
        return "attrs"
    for owner in (*getattr(cls, "__mro__", (cls,)), source):
        root = (getattr(owner, "__module__", "") or "").partition(".")[0]
        if root in _EXTRAS:
            return _EXTRAS[root]
    return None


_EXTRAS = {
    "pydantic": "pydantic",
    "marshmallow": "marshmallow",
    "attr": "attrs",
    "attrs": "attrs",
    "cattrs": "attrs",
}
