"""Content parts: multi-modal tool results."""

from __future__ import annotations

from typing import Any

__all__ = ["ContentPart", "ImagePart", "TextPart"]


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
