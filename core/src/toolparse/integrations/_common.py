"""What every bridge shares: the Functions of a source, their exported definitions, their answers."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from time import perf_counter
from typing import Any, NamedTuple, TypeVar

from ..contract import Outcome
from ..function import Function
from ..messages import duplicate_tool
from ..results import ImagePart, TextPart, ToolCall, ToolResult

__all__ = [
    "Exported",
    "arun",
    "content",
    "convert",
    "functions_of",
    "image_url",
    "interrupt_unavailable",
    "paused",
    "run",
]

T = TypeVar("T")


class Exported(NamedTuple):
    """A Function as the frameworks see it: the exported name, text and schema."""

    name: str
    description: str
    parameters: dict[str, Any]
    strict: bool


def functions_of(source: object) -> tuple[list[Function], bool]:
    """The Functions of a Function, a Toolset or an iterable, and whether it was one Function.

    ``TypeError`` for anything else that is not a Function, ``ValueError`` for a name used twice.
    """
    if isinstance(source, Function):
        return [source], True
    what = "expected a Function, a Toolset or a list of Functions"
    if not isinstance(source, Iterable) or isinstance(source, (str, bytes, Mapping)):
        raise TypeError(f"{what}, got {type(source).__name__}")
    found = list(source)
    names: set[str] = set()
    for item in found:
        if not isinstance(item, Function):
            raise TypeError(f"{what}; found {type(item).__name__} {item!r:.60}")
        if item.name in names:
            raise ValueError(duplicate_tool(item.name))
        names.add(item.name)
    return found, False


def convert(
    source: object, strict: bool | None, make: Callable[[Function, Exported], T]
) -> T | list[T]:
    """``make(function, exported)`` for each Function of ``source``: one for a Function, else a list.

    Every framework here speaks the OpenAI tool shape, so the OpenAI export gives each its
    name, text and schema. ``ValueError`` when two names map to one alias (``a.b``, ``a_b``):
    a framework would silently keep only one of the two tools.
    """
    from .. import providers

    functions, single = functions_of(source)
    made: list[T] = []
    owners: dict[str, str] = {}
    for fn in functions:
        mode = fn.strict if strict is None else bool(strict)
        definition = providers.to_tool(fn, "openai", strict=mode)["function"]
        name = definition["name"]
        other = owners.setdefault(name, fn.name)
        if other != fn.name:
            raise ValueError(
                f"tools {other!r} and {fn.name!r} are both exported as {name!r}; rename one of them"
            )
        description = definition.get("description") or fn.description or ""
        made.append(make(fn, Exported(name, description, definition["parameters"], mode)))
    return made[0] if single else made


def run(function: Function, arguments: Any, context: dict[str, Any]) -> ToolResult:
    """One call a framework makes, run here: its result (one the body built read as it says).

    A call with an id is reported to the ``toolparse_tool_executed`` observers, as a batch does.
    """
    start = perf_counter() if function._pm.observed else None  # unobserved: no clock
    return _result(function, arguments, context, function.execute(arguments, context), start)


async def arun(function: Function, arguments: Any, context: dict[str, Any]) -> ToolResult:
    """:func:`run` for an ``async def`` body or parser, on the framework's loop."""
    start = perf_counter() if function._pm.observed else None
    outcome = await function.aexecute(arguments, context)
    return _result(function, arguments, context, outcome, start)


def _result(
    function: Function,
    arguments: Any,
    context: dict[str, Any],
    outcome: Outcome,
    start: float | None,
) -> ToolResult:
    call = ToolCall(context.get("tool_call_id") or "", function.name, arguments)
    result = ToolResult.from_outcome(call, function, outcome)
    if start is not None and call.id:
        function._pm.hook.toolparse_tool_executed(
            call=call, function=function, result=result, duration=perf_counter() - start, late=False
        )
    return result


def paused(result: ToolResult) -> dict[str, Any]:
    """An interrupt as the frameworks hand it to the application: its display and data."""
    return {"display": result.text, "data": result.interrupt_data}


def interrupt_unavailable(name: str, display: str) -> str:
    """What the model reads when a tool paused for review and nobody can review it here."""
    return (
        f"The tool {name} paused for a person to review this call ({display}), and no "
        "review is possible here, so the call did not complete. Tell the user what you "
        "wanted to do instead of calling it again."
    )


def content(
    result: ToolResult, text: Callable[[str], T], image: Callable[[ImagePart], T]
) -> str | list[T]:
    """A result's content in a framework's terms: text as it is, each part through ``text`` or ``image``."""
    found = result.content
    if found is None or isinstance(found, str):
        return found or ""
    return [
        text(p.text) if isinstance(p, TextPart) else image(p)
        for p in found
        if isinstance(p, (TextPart, ImagePart))
    ]


def image_url(part: ImagePart) -> str:
    """An image part as a URL: its own, or a ``data:`` URL of its bytes."""
    return part.data if part.url else f"data:{part.media_type};base64,{part.data}"
