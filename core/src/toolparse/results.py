"""The values a tool call travels as: the call, its result, and content parts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .contract import Error, Interrupt, Ok, Outcome

if TYPE_CHECKING:
    from .function import Function

__all__ = ["ContentPart", "ImagePart", "TextPart", "ToolCall", "ToolResult"]


class ContentPart:
    """Base class of the parts a tool result may hold."""

    __slots__ = ("options",)
    __match_args__: tuple[str, ...] = ()
    options: dict[str, Any] | None

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in (*self.__match_args__, "options"))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((type(self).__name__, *map(repr, self._fields())))

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__match_args__)
        opts = f", options={self.options!r}" if self.options else ""
        return f"{type(self).__name__}({fields}{opts})"


class TextPart(ContentPart):
    """A piece of text.

    :param text: the text.
    :param options: provider options for this part (e.g. ``{"cache_control": True}``).
    """

    __slots__ = ("text",)
    __match_args__ = ("text",)

    def __init__(self, text: str, *, options: dict[str, Any] | None = None) -> None:
        if not isinstance(text, str):
            raise TypeError(f"TextPart text must be a str, got {type(text).__name__}")
        self.text = text
        self.options = options


class ImagePart(ContentPart):
    """An image, as base64 data or a URL.

    :param data: base64-encoded image bytes (or a URL when ``url=True``).
    :param media_type: e.g. ``"image/png"``.
    :param url: whether ``data`` is a URL.
    :param options: provider options for this part.
    """

    __slots__ = ("data", "media_type", "url")
    __match_args__ = ("data", "media_type", "url")

    def __init__(
        self,
        data: str,
        media_type: str = "image/png",
        *,
        url: bool = False,
        options: dict[str, Any] | None = None,
    ) -> None:
        if not isinstance(data, str):
            raise TypeError("ImagePart data must be a base64 str or a URL")
        self.data = data
        self.media_type = media_type
        self.url = url
        self.options = options


class ToolCall:
    """One call the model made: an id, a tool name and its arguments.

    :param id: the provider's tool-call id (echoed back on the result).
    :param name: the tool name.
    :param arguments: a JSON string, a mapping, or ``None`` (no arguments).
    :param kind: ``"function"`` for a function tool; ``"custom"`` for a
        free-form (custom) tool call, whose ``arguments`` is the raw input
        text. The result of a custom call goes back in the provider's
        custom-output shape.
    """

    # ``_provider``: the provider a parsed call came from (set by ``parse_tool_calls``)
    __slots__ = ("_provider", "arguments", "id", "kind", "name")
    __match_args__ = ("id", "name", "arguments")

    _provider: str

    def __init__(
        self,
        id: str,
        name: str,
        arguments: str | Mapping[str, Any] | None = None,
        *,
        kind: str = "function",
    ) -> None:
        self.id = id
        self.name = name
        self.arguments = arguments
        self.kind = kind

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolCall):
            return NotImplemented
        return all(
            getattr(self, f) == getattr(other, f) for f in ("id", "name", "arguments", "kind")
        )

    __hash__ = None  # type: ignore[assignment]  # arguments may be a mutable mapping

    def __repr__(self) -> str:
        extra = "" if self.kind == "function" else f", kind={self.kind!r}"
        return f"ToolCall({self.id!r}, {self.name!r}, {self.arguments!r}{extra})"


class ToolResult:
    """The result of one tool call, ready to go back to the model.

    :param tool_call_id: the id of the call this answers.
    :param name: the tool's name.
    :param content: text, or a list of content parts, for the model.
    :param processed_content: a native value kept for the application; never
        sent to the model.
    :param display_text: text for a user interface.
    :param is_error: the call failed (the content says why, for the model).
    :param is_interrupt: the tool paused for human review.
    :param interrupt_data: opaque data to resume an interrupted call.
    :param options: provider options (e.g. ``{"cache_control": True}``).
    :param return_direct: an agent loop should stop after this result.
    :param kind: the kind of call this answers (``"function"`` or
        ``"custom"``), copied from :attr:`ToolCall.kind`.
    """

    __slots__ = (
        "content",
        "display_text",
        "interrupt_data",
        "is_error",
        "is_interrupt",
        "kind",
        "name",
        "options",
        "processed_content",
        "return_direct",
        "tool_call_id",
    )

    def __init__(  # noqa: PLR0913 -- API.md fixes these keyword options
        self,
        tool_call_id: str | None,
        name: str | None,
        content: str | Sequence[ContentPart] | None,
        *,
        processed_content: Any = None,
        display_text: str | None = None,
        is_error: bool = False,
        is_interrupt: bool = False,
        interrupt_data: Any = None,
        options: Mapping[str, Any] | None = None,
        return_direct: bool = False,
        kind: str = "function",
    ) -> None:
        self.tool_call_id = tool_call_id
        self.name = name
        self.content = content
        self.processed_content = processed_content
        self.display_text = display_text
        self.is_error = is_error
        self.is_interrupt = is_interrupt
        self.interrupt_data = interrupt_data
        self.options = options
        self.return_direct = return_direct
        self.kind = kind

    @property
    def text(self) -> str:
        """The content as plain text (text parts joined; other parts left out)."""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text for p in self.content or () if isinstance(p, TextPart))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolResult):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        flags = "".join(
            f", {f}=True" for f in ("is_error", "is_interrupt", "return_direct") if getattr(self, f)
        )
        return f"ToolResult({self.tool_call_id!r}, {self.name!r}, {self.content!r}{flags})"

    def resolve(
        self, content: str | Sequence[ContentPart], *, is_error: bool = False
    ) -> ToolResult:
        """The answer to the same call, e.g. for an interrupt a human has reviewed.

        Returns a new result (this one is left as it is) with the same
        ``tool_call_id``, ``name``, ``display_text``, ``options`` and ``kind``,
        ``content`` as given, and no interrupt::

            answer = result.resolve("The user declined.")

        :param content: what the model reads: text or a list of content parts.
        :param is_error: the answer is a failure (e.g. the user refused).
        """
        return ToolResult(
            self.tool_call_id,
            self.name,
            content,
            display_text=self.display_text,
            is_error=is_error,
            options=self.options,
            kind=self.kind,
        )

    @classmethod
    def from_outcome(
        cls, call: ToolCall, function: Function | None, outcome: Outcome
    ) -> ToolResult:
        """Turn an execution outcome into the result for ``call``.

        A :class:`ToolResult` the tool returned is copied, never changed: the
        copy gets what the tool left out (the call's id and name, the tool's
        display text), so a tool may return the same object twice.
        """
        display = function.display_text if function is not None else None
        direct = function.return_direct if function is not None else False
        if type(outcome) is Ok:
            value = outcome.value
            if isinstance(value, ToolResult):
                result = cls.__new__(cls)
                for field in cls.__slots__:
                    setattr(result, field, getattr(value, field))
                result.tool_call_id = value.tool_call_id or call.id
                result.name = value.name or call.name
                display = display if value.display_text is None else value.display_text
                direct = value.return_direct or direct
            else:
                result = cls(call.id, call.name, value, processed_content=outcome.processed_content)
        elif type(outcome) is Interrupt:
            result = cls(call.id, call.name, outcome.display, is_interrupt=True)
            result.interrupt_data = outcome.data
        else:
            assert type(outcome) is Error
            result = cls(call.id, call.name, outcome.message, is_error=True)
            direct = False
        result.display_text, result.return_direct, result.kind = display, direct, call.kind
        return result
