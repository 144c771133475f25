"""What every bridge shares: the functions of a source, their exported definition, results."""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import toolparse as _tp

from ..contract import Interrupt, Ok
from ..function import Function
from ..messages import duplicate_tool
from ..results import ContentPart, ImagePart, TextPart, ToolResult

__all__ = [
    "Exported",
    "Reply",
    "export",
    "exports",
    "functions_of",
    "image_url",
    "interrupt_unavailable",
    "is_async",
    "reply",
    "text_of",
]


class Exported(NamedTuple):
    """A Function as the frameworks see it: the exported name, text and schema."""

    name: str
    description: str
    parameters: dict[str, Any]
    strict: bool


def export(function: Function, strict: bool | None = None) -> Exported:
    """The OpenAI export of ``function``: its name (the provider's alias rule), text and schema.

    Every framework here speaks the OpenAI tool shape, so its name rule and
    its strict rules are the ones that apply.
    """
    from .. import providers

    mode = function.strict if strict is None else bool(strict)
    definition = providers.to_tool(function, "openai", strict=mode)["function"]
    return Exported(
        definition["name"],
        definition.get("description") or function.description or "",
        definition["parameters"],
        mode,
    )


def exports(functions: Iterable[Function], strict: bool | None) -> list[Exported]:
    """:func:`export` for each Function; two that would share an exported name are refused.

    :raises ValueError: two names map to one alias (``a.b`` and ``a_b``); a
        framework would silently keep only one of the two tools.
    """
    found: list[Exported] = []
    owners: dict[str, str] = {}
    for fn in functions:
        exported = export(fn, strict)
        other = owners.setdefault(exported.name, fn.name)
        if other != fn.name:
            raise ValueError(
                f"tools {other!r} and {fn.name!r} are both exported as {exported.name!r}; "
                "rename one of them"
            )
        found.append(exported)
    return found


def functions_of(source: object) -> tuple[list[Function], bool]:
    """The Functions of a Function, a Toolset or any iterable of Functions.

    :returns: the functions, and whether ``source`` was a single Function.
    :raises TypeError: ``source`` holds something that is not a Function.
    :raises ValueError: two functions share a name.
    """
    if isinstance(source, Function):
        return [source], True
    toolset = getattr(_tp, "Toolset", None)
    if toolset is not None and isinstance(source, toolset):
        found = list(source.functions)
    elif isinstance(source, Iterable) and not isinstance(source, (str, bytes, Mapping)):
        found = list(source)
    else:
        raise TypeError(
            f"expected a toolparse Function, a Toolset or an iterable of Functions, "
            f"got {type(source).__name__}"
        )
    seen: set[str] = set()
    for item in found:
        if not isinstance(item, Function):
            raise TypeError(
                f"expected toolparse Functions, got {type(item).__name__}: {item!r:.60}"
            )
        if item.name in seen:
            raise ValueError(duplicate_tool(item.name))
        seen.add(item.name)
    return found, False


def is_async(function: Function) -> bool:
    """Whether running ``function`` needs an event loop (an ``async def`` body or parser)."""
    return any(
        inspect.iscoroutinefunction(f) or inspect.iscoroutinefunction(getattr(f, "__call__", None))  # noqa: B004 - callable objects with an async __call__
        for f in (function.function, function.parse_args)
        if f is not None
    )


def interrupt_unavailable(name: str, display: str) -> str:
    """What the model reads when a tool paused for review and nobody can review it here."""
    return (
        f"The tool {name} paused for a person to review this call ({display}), and no "
        "review is possible here, so the call did not complete. Tell the user what you "
        "wanted to do instead of calling it again."
    )


class Reply(NamedTuple):
    """An outcome in the shape every bridge answers with.

    ``kind`` is ``"ok"``, ``"error"`` or ``"interrupt"``; ``content`` is text or
    a list of content parts (an interrupt's display text); ``artifact`` is the
    value kept for the application (``processed_content``, or an interrupt's data).
    """

    kind: str
    content: str | list[ContentPart]
    artifact: Any


def reply(outcome: object) -> Reply:
    """Normalise an outcome of ``execute`` (a ToolResult inside an ``Ok`` too)."""
    if type(outcome) is Ok:
        value = outcome.value
        if isinstance(value, ToolResult):
            content: Any = value.content if value.content is not None else ""
            if value.is_interrupt:
                return Reply("interrupt", value.text, value.interrupt_data)
            if value.is_error:
                return Reply("error", value.text, None)
            return Reply("ok", content, value.processed_content)
        return Reply("ok", value, outcome.processed_content)
    if type(outcome) is Interrupt:
        return Reply("interrupt", outcome.display, outcome.data)
    return Reply("error", outcome[0], None)  # type: ignore[index]


def text_of(content: str | list[ContentPart]) -> str:
    """Content as text: text parts joined, images left out."""
    if isinstance(content, str):
        return content
    return "".join(p.text for p in content if isinstance(p, TextPart))


def image_url(part: ImagePart) -> str:
    """An image part as a URL: its own, or a ``data:`` URL of its bytes."""
    return part.data if part.url else f"data:{part.media_type};base64,{part.data}"
