"""The keyword options of one ``@tool`` call, as one value passed along."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from ..adapter import UnknownArguments

if TYPE_CHECKING:
    from ..arguments import Limits
    from ..plugins import PluginManager

__all__: list[str] = []

ResponseFormat = Literal["content", "content_and_artifact"]
FORMATS = ("content", "content_and_artifact")


class _Options:
    """The keyword options of one ``tool(...)`` call."""

    __slots__ = (
        "adapter",
        "args_schema",
        "concurrent",
        "description",
        "display_text",
        "error_on_invalid_docstring",
        "infer_schema",
        "limits",
        "options",
        "parse_args",
        "parse_docstring",
        "plugin_manager",
        "response_format",
        "return_direct",
        "strict",
        "unknown_arguments",
    )

    def __init__(self, **values: Any) -> None:
        for name, value in values.items():
            setattr(self, name, value)

    description: str | None
    return_direct: bool
    args_schema: Any
    infer_schema: bool
    response_format: ResponseFormat
    parse_docstring: bool
    error_on_invalid_docstring: bool
    parse_args: Callable[..., Any] | None
    concurrent: bool
    strict: bool
    display_text: str | None
    adapter: str | None
    unknown_arguments: UnknownArguments
    options: Mapping[str, Any] | None
    limits: Limits | None
    plugin_manager: PluginManager | None

    def function_kwargs(self) -> dict[str, Any]:
        """The keywords passed through to :class:`~toolparse.Function` as they are."""
        return {
            "parse_args": self.parse_args,
            "concurrent": self.concurrent,
            "strict": self.strict,
            "display_text": self.display_text,
            "options": self.options,
            "unknown_arguments": self.unknown_arguments,
            "return_direct": self.return_direct,
            "limits": self.limits,
        }
