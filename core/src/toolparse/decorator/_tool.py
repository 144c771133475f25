"""The ``@tool`` decorator: the call forms, keywords and errors of ``langchain_core``'s."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast, get_args, overload

from .._repair import DEFAULT, Repair
from ..adapter import UnknownArguments
from ..function import Function
from ._build import Options, ResponseFormat, make, own_name, refuse

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..arguments import Limits
    from ..plugins import PluginManager

__all__ = ["tool"]

_FORMATS: tuple[str, ...] = get_args(ResponseFormat)


@overload
def tool(
    name_or_callable: str | None = None, **kwargs: Unpack[Options]
) -> Callable[[Callable[..., Any]], Function]: ...


@overload
def tool(name_or_callable: str, runnable: Any, **kwargs: Unpack[Options]) -> Function: ...


@overload
def tool(name_or_callable: Callable[..., Any], **kwargs: Unpack[Options]) -> Function: ...


def tool(  # noqa: PLR0913 - langchain_core's @tool keywords, and API.md's
    name_or_callable: str | Callable[..., Any] | None = None,
    runnable: Any = None,
    *args: Any,
    description: str | None = None,
    return_direct: bool = False,
    args_schema: Any = None,
    infer_schema: bool = True,
    response_format: ResponseFormat = "content",
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = True,
    parse_args: Callable[..., Any] | None = None,
    concurrent: bool = False,
    strict: bool = False,
    display_text: str | None = None,
    adapter: str | None = None,
    unknown_arguments: UnknownArguments = "report",
    options: Mapping[str, Any] | None = None,
    limits: Limits | None = None,
    plugin_manager: PluginManager | None = None,
    repair: Repair | None = DEFAULT,
) -> Function | Callable[[Callable[..., Any]], Function]:
    """Make a :class:`~toolparse.Function` out of a function, with or without options.

    Four call forms, as in langchain_core: ``@tool``, ``@tool("name")``,
    ``tool("name", runnable)`` and ``@tool(**options)``; ``tool(callable)``
    also takes a callable object with a string ``name`` attribute, and a
    runnable-like object (one with an ``invoke`` method and a name).

    The schema of the arguments is inferred from the signature by an adapter,
    so the arguments are validated before the body runs, and the body is
    called with keyword arguments. A parameter annotated
    :class:`~toolparse.Context` receives the call's context and is never part
    of the schema or of any message.

    :param name_or_callable: the tool's name, or the function to turn into a
        tool (then named after it). Positional only.
    :param runnable: a runnable-like object to turn into a tool (with a name
        first). Positional only.
    :param description: what the tool does. Precedence: this argument, then
        the function's docstring, then the ``args_schema``'s description.
    :param return_direct: an agent loop should stop after this tool.
    :param args_schema: any model an installed adapter recognises; it
        replaces the schema inferred from the signature, and its fields are
        passed to the function as keyword arguments.
    :param infer_schema: infer the schema from the signature. With ``False``
        (and no ``args_schema``) the tool takes one string, as in
        langchain_core, and the function is called with it.
    :param response_format: ``"content"`` (the body's return value is the
        content) or ``"content_and_artifact"`` (the body returns
        ``(content, artifact)``; the artifact becomes ``processed_content``).
    :param parse_docstring: read the description and per-parameter
        descriptions from a Google (or NumPy, or reST) style docstring.
    :param error_on_invalid_docstring: with ``parse_docstring``, raise for a
        docstring that does not follow the rules.
    :param parse_args: your own parser (the inferred schema is still shown to
        the model).
    :param concurrent: may run concurrently with other calls.
    :param strict: ask providers for strict mode.
    :param display_text: text for a user interface.
    :param adapter: the name of the adapter that infers the schema from the
        signature (default: the built-in ``"plain"``, or ``"pydantic"`` for a
        signature whose ``Annotated`` constraints are pydantic's).
    :param unknown_arguments: ``"report"``, ``"reject"`` or ``"ignore"``.
    :param options: provider options.
    :param limits: the size and depth limits for arguments.
    :param plugin_manager: the plugin manager to find adapters in.
    :param repair: ``"safe"`` (the default), ``"json"`` or ``None``: what is
        repaired in the arguments before they are read (see :class:`~toolparse.Function`).
    :raises FunctionDefinitionError: (a ``ValueError``) for every definition
        problem, including each ``ValueError`` case of langchain_core's
        ``tool``.
    """
    given = locals()  # the options as given, before any other local is bound
    if args:  # e.g. tool("name", runnable, "extra")
        message = (
            f"Too many arguments for tool decorator: it takes at most a name and a callable "
            f"or runnable positionally, got {2 + len(args)}; pass the options by keyword"
        )
        raise refuse("arguments", message)
    if response_format not in _FORMATS:
        formats = ", ".join(map(repr, _FORMATS))
        raise refuse("response_format", f"must be one of {formats}, got {response_format!r:.40}")
    opts = cast(Options, {key: given[key] for key in Options.__annotations__})
    if runnable is not None:  # tool("name", runnable)
        if not name_or_callable:
            message = 'Runnable without name for tool constructor: call tool("name", runnable)'
            raise refuse("name", message)
        if not isinstance(name_or_callable, str):
            kind = type(name_or_callable).__name__
            raise refuse("name", f"Name must be a string for tool constructor, got {kind}")
        return make(runnable, name_or_callable, opts)
    if isinstance(name_or_callable, str):  # @tool("search") / @tool("search", **options)
        name = name_or_callable
        return lambda fn: make(fn, name, opts)
    if name_or_callable is not None:
        own = own_name(name_or_callable)
        if own is None:
            message = (
                f"The first argument must be a string or a callable with a __name__ for tool "
                f"decorator. Got {type(name_or_callable)}"
            )
            raise refuse("name_or_callable", message)
        return make(name_or_callable, own, opts)

    def decorate(fn: Callable[..., Any]) -> Function:  # @tool(**options)
        own = own_name(fn)
        if own is None:
            message = f'cannot name the tool after {type(fn)}: it has no __name__; give the name first, @tool("name", ...)'
            raise refuse("function", message)
        return make(fn, own, opts)

    return decorate
