"""The ``@tool`` decorator: tools from plain functions, with langchain_core's signature.

``tool`` builds a :class:`~toolparse.Function` from a function (or a
runnable-like object). The arguments' schema is inferred from the function's
signature by an adapter (``from_signature``), so the model's arguments are
validated before the body runs; the body is then called with keyword
arguments. The call forms, keywords and ``ValueError`` cases are those of
``langchain_core.tools.tool``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, overload

from ..adapter import SignatureParam, UnknownArguments, keywords
from ..contract import Error, Interrupt, Ok
from ..errors import FunctionDefinitionError
from ..function import Function
from ..problems import ArgumentProblem, invalid_arguments
from ._signature import FunctionSignature, read_signature

if TYPE_CHECKING:
    from ..adapter import Adapter
    from ..arguments import Limits
    from ..plugins import PluginManager

__all__ = ["tool"]

ResponseFormat = Literal["content", "content_and_artifact"]
_FORMATS = ("content", "content_and_artifact")

#: The one argument of a tool built with ``infer_schema=False`` (langchain_core's
#: name for it in the schema it sends to the model).
_SINGLE_INPUT = "__arg1"

# the adapters asked, in order, to infer a schema when ``adapter=None``
_INFERENCE_ORDER = ("pydantic", "plain")


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


@overload
def tool(
    *,
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
) -> Callable[[Callable[..., Any]], Function]: ...


@overload
def tool(
    name_or_callable: str,
    runnable: Any,
    *,
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
) -> Function: ...


@overload
def tool(
    name_or_callable: Callable[..., Any],
    *,
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
) -> Function: ...


@overload
def tool(
    name_or_callable: str,
    *,
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
) -> Callable[[Callable[..., Any]], Function]: ...


def tool(
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
        signature (default: ``"pydantic"`` when installed, else ``"plain"``).
    :param unknown_arguments: ``"report"``, ``"reject"`` or ``"ignore"``.
    :param options: provider options.
    :param limits: the size and depth limits for arguments.
    :param plugin_manager: the plugin manager to find adapters in.
    :raises FunctionDefinitionError: (a ``ValueError``) for every definition
        problem, including each ``ValueError`` case of langchain_core's
        ``tool``.
    """
    opts = _Options(
        description=description,
        return_direct=return_direct,
        args_schema=args_schema,
        infer_schema=infer_schema,
        response_format=response_format,
        parse_docstring=parse_docstring,
        error_on_invalid_docstring=error_on_invalid_docstring,
        parse_args=parse_args,
        concurrent=concurrent,
        strict=strict,
        display_text=display_text,
        adapter=adapter,
        unknown_arguments=unknown_arguments,
        options=options,
        limits=limits,
        plugin_manager=plugin_manager,
    )
    if args:
        # e.g. @tool("name", runnable, "extra")
        raise FunctionDefinitionError(
            [
                (
                    "arguments",
                    f"Too many arguments for tool decorator: it takes at most a name "
                    f"and a callable or runnable positionally, got {2 + len(args)}; "
                    f"pass the options by keyword",
                )
            ],
            subject="@tool",
        )
    if response_format not in _FORMATS:
        raise FunctionDefinitionError(
            [
                (
                    "response_format",
                    f"must be one of {', '.join(map(repr, _FORMATS))}, got {response_format!r:.40}",
                )
            ],
            subject="@tool",
        )
    if runnable is not None:
        # tool("name", runnable)
        if not name_or_callable:
            raise FunctionDefinitionError(
                [
                    (
                        "name",
                        'Runnable without name for tool constructor: call tool("name", runnable)',
                    )
                ],
                subject="@tool",
            )
        if not isinstance(name_or_callable, str):
            raise FunctionDefinitionError(
                [
                    (
                        "name",
                        f"Name must be a string for tool constructor, got "
                        f"{type(name_or_callable).__name__}",
                    )
                ],
                subject="@tool",
            )
        return _make(runnable, name_or_callable, opts)
    if name_or_callable is not None:
        if isinstance(name_or_callable, str):
            # @tool("search") / @tool("search", **options)
            name = name_or_callable
            return lambda fn: _make(fn, name, opts)
        own = _own_name(name_or_callable)
        if own is None:
            raise FunctionDefinitionError(
                [
                    (
                        "name_or_callable",
                        f"The first argument must be a string or a callable with a "
                        f"__name__ for tool decorator. Got {type(name_or_callable)}",
                    )
                ],
                subject="@tool",
            )
        return _make(name_or_callable, own, opts)

    # @tool(**options)
    def decorate(fn: Callable[..., Any]) -> Function:
        own = _own_name(fn)
        if own is None:
            raise FunctionDefinitionError(
                [
                    (
                        "function",
                        f"cannot name the tool after {type(fn)}: it has no __name__; "
                        f'give the name first, @tool("name", ...)',
                    )
                ],
                subject="@tool",
            )
        return _make(fn, own, opts)

    return decorate


# -- what is being decorated -------------------------------------------------


def _is_runnable(obj: object) -> bool:
    """A runnable-like object: not a function or class, with an ``invoke`` method."""
    if isinstance(obj, type) or inspect.isroutine(obj):
        return False
    return callable(getattr(obj, "invoke", None))


def _own_name(obj: object) -> str | None:
    """The name a tool made from ``obj`` gets when none is given (``None``: none)."""
    if _is_runnable(obj):
        get_name = getattr(obj, "get_name", None)
        if callable(get_name):
            found = get_name()
            if isinstance(found, str) and found:
                return found
        named = getattr(obj, "name", None)
        return named if isinstance(named, str) and named else None
    if not callable(obj):
        return None
    own = getattr(obj, "__name__", None)
    if isinstance(own, str):
        return own
    named = getattr(obj, "name", None)  # a callable object that names itself
    return named if isinstance(named, str) and named else None


def _doc(fn: object) -> str | None:
    """The cleaned docstring of what is being decorated."""
    target = fn
    while isinstance(target, functools.partial):
        target = target.func
    doc = inspect.getdoc(target)
    if doc is not None and not inspect.isroutine(target) and doc == inspect.getdoc(object):
        return None  # a callable object whose class inherits object's docstring
    return doc or None


def _is_async(fn: object) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(type(fn), "__call__", None)  # noqa: B004 - the method, not callability
    return not inspect.isroutine(fn) and inspect.iscoroutinefunction(call)


# -- building ------------------------------------------------------------------


def _definition_error(exc: FunctionDefinitionError, subject: str) -> FunctionDefinitionError:
    """``exc`` again, about this tool."""
    return FunctionDefinitionError(exc.errors, subject=subject)


def _make(obj: Any, name: str, opts: _Options) -> Function:
    subject = f"tool {name!r}"
    if _is_runnable(obj):
        return _from_runnable(obj, name, opts, subject)
    if not callable(obj):
        raise FunctionDefinitionError(
            [("function", f"must be callable, got {obj!r:.60}")], subject=subject
        )
    return _from_function(obj, name, opts, subject)


def _given(description: str | None, fallback: str | None) -> str | None:
    """The ``description`` argument (stripped, as langchain_core does), else ``fallback``."""
    if description is None:
        return fallback
    return description.strip() if isinstance(description, str) else description


def _resolve_pm(opts: _Options) -> PluginManager:
    if opts.plugin_manager is not None:
        return opts.plugin_manager
    # the default manager, looked up only when the decorator was given none
    from ..plugins import plugin_manager

    return plugin_manager()


def _from_function(fn: Callable[..., Any], name: str, opts: _Options, subject: str) -> Function:
    doc = _doc(fn)
    try:
        sig = _read(fn)
    except FunctionDefinitionError as exc:
        raise _definition_error(exc, subject) from None
    if not opts.infer_schema and opts.args_schema is None:
        return _single_input(fn, name, opts, subject, doc, sig.context)

    infer = opts.args_schema is None
    problems = list(sig.problems)
    if infer and sig.variadic:
        problems.append(
            (
                "signature",
                f"cannot infer a schema for {', '.join(sig.variadic)}: the model "
                f"sends named arguments only; name each parameter, or pass "
                f"args_schema= to describe the arguments",
            )
        )
    if problems:
        raise FunctionDefinitionError(problems, subject=subject)

    docstring_description = doc
    if opts.parse_docstring:
        from ._docstrings import parse_docstring

        all_names = [*sig.names, *([sig.context] if sig.context else [])]
        try:
            parsed = parse_docstring(
                doc,
                params=all_names,
                documentable=[n for n in sig.names if n in sig.annotated] if infer else (),
                # with args_schema the schema documents the arguments, so only
                # the description is read from the docstring
                strict=opts.error_on_invalid_docstring and infer,
            )
        except FunctionDefinitionError as exc:
            raise _definition_error(exc, subject) from None
        docstring_description = parsed.description or None
        for param in sig.params:
            if param.name in parsed.params:
                # the docstring wins over Annotated (langchain_core's order)
                param.description = parsed.params[param.name]
    description = _given(opts.description, docstring_description)

    pm = _resolve_pm(opts)
    body, set_keywords = _body(fn, name, sig, opts.response_format)
    if infer:
        adapter = _inference_adapter(pm, opts.adapter, subject)
        source = _from_signature(adapter, name, sig.params, subject)
        function = Function(
            name,
            body,
            description=description,
            args_schema=source,
            plugin_manager=pm,
            adapter=adapter,
            **opts.function_kwargs(),
        )
    else:
        function = _with_schema_description(name, body, description, opts.args_schema, pm, opts)
    set_keywords(_keywords_of(function.adapter))
    return function


def _read(fn: Callable[..., Any]) -> FunctionSignature:
    try:
        return read_signature(fn)
    except NameError as exc:
        raise FunctionDefinitionError(
            [("annotations", f"cannot resolve a type annotation: {exc}")]
        ) from exc
    except (TypeError, ValueError) as exc:
        raise FunctionDefinitionError(
            [("function", f"has no signature Python can read: {exc}")]
        ) from exc


def _with_schema_description(
    name: str,
    body: Callable[..., Any],
    description: str | None,
    args_schema: Any,
    pm: PluginManager,
    opts: _Options,
) -> Function:
    """A Function for an explicit ``args_schema``; its description is the last resort."""
    function = Function(
        name,
        body,
        description=description,
        args_schema=args_schema,
        plugin_manager=pm,
        **opts.function_kwargs(),
    )
    if description is None:
        found = function.json_schema().get("description")
        if isinstance(found, str) and found.strip():
            # definition time only: a Function is immutable, so build it again
            function = Function(
                name,
                body,
                description=found.strip(),
                args_schema=args_schema,
                plugin_manager=pm,
                **opts.function_kwargs(),
            )
    return function


def _inference_adapter(pm: PluginManager, name: str | None, subject: str) -> Adapter:
    """The adapter that infers the schema from the signature."""
    if name is None:
        for candidate in _INFERENCE_ORDER:
            found = pm.adapter(candidate)
            if found is not None and callable(getattr(found, "from_signature", None)):
                return found
        raise FunctionDefinitionError(
            [
                (
                    "adapter",
                    "no installed adapter can infer a schema from a signature; "
                    'install one with pip install "toolparse[pydantic]"',
                )
            ],
            subject=subject,
        )
    adapter = pm.adapter(name)
    if adapter is None:
        installed = ", ".join(sorted({a.name for a in pm.adapters()})) or "none"
        raise FunctionDefinitionError(
            [
                (
                    "adapter",
                    f"no installed adapter is called {name!r} (installed: {installed}); "
                    f'install it with pip install "toolparse[{name}]"',
                )
            ],
            subject=subject,
        )
    if not callable(getattr(adapter, "from_signature", None)):
        raise FunctionDefinitionError(
            [("adapter", f"the {name} adapter cannot infer a schema from a signature")],
            subject=subject,
        )
    return adapter


def _from_signature(adapter: Adapter, name: str, params: list[SignatureParam], subject: str) -> Any:
    try:
        return adapter.from_signature(name, params)  # type: ignore[attr-defined]
    except FunctionDefinitionError as exc:
        raise _definition_error(exc, subject) from exc
    except Exception as exc:
        raise FunctionDefinitionError(
            [("signature", f"the {adapter.name} adapter cannot describe it: {exc}")],
            subject=subject,
        ) from exc


def _keywords_of(adapter: Adapter | None) -> Callable[[Any], dict[str, Any]]:
    found = getattr(adapter, "keywords", None)
    return found if callable(found) else keywords


# -- the body --------------------------------------------------------------------


def _artifact(name: str, result: Any) -> Any:
    """``(content, artifact)`` as ``Ok(content, artifact)``."""
    from ..results import ToolResult

    if isinstance(result, (Ok, Error, Interrupt, ToolResult)):
        return result  # the result vocabulary speaks for itself
    if isinstance(result, tuple) and len(result) == 2:
        return Ok(result[0], result[1])
    message = (
        f"ERROR: tool {name} must return a (content, artifact) tuple because its "
        f'response_format is "content_and_artifact"; it returned {type(result).__name__}.'
    )
    return Error(message, TypeError(message))


def _body(
    fn: Callable[..., Any], name: str, sig: FunctionSignature, response_format: str
) -> tuple[Callable[..., Any], Callable[[Callable[[Any], dict[str, Any]]], None]]:
    """The ``(arguments, context)`` body that calls ``fn`` by keyword.

    Returns the body and a setter for the function turning a parsed value into
    keyword arguments (known only once the Function has resolved its adapter).
    """
    convert: list[Callable[[Any], dict[str, Any]]] = [keywords]
    ctx: str | None = sig.context
    # names fn cannot take (extra keys a parser let through) are left out
    allowed: frozenset[str] | None = None if sig.takes_kwargs else sig.keyword_names - {ctx}
    artifact = response_format == "content_and_artifact"

    def arguments_for(value: Any, context: Any) -> dict[str, Any]:
        kwargs = convert[0](value)
        if allowed is not None and not allowed.issuperset(kwargs):
            kwargs = {k: v for k, v in kwargs.items() if k in allowed}
        if ctx is not None:
            kwargs = {**kwargs, ctx: context}
        return kwargs

    body: Callable[..., Any]
    if _is_async(fn):

        async def abody(arguments: Any, context: Any) -> Any:
            result = await fn(**arguments_for(arguments, context))
            return _artifact(name, result) if artifact else result

        body = abody
    elif artifact:

        def artifact_body(arguments: Any, context: Any) -> Any:
            return _artifact(name, fn(**arguments_for(arguments, context)))

        body = artifact_body
    elif ctx is None and allowed is None:

        def open_body(arguments: Any, context: Any) -> Any:
            return fn(**convert[0](arguments))

        body = open_body
    else:

        def plain_body(arguments: Any, context: Any) -> Any:
            return fn(**arguments_for(arguments, context))

        body = plain_body
    _label(body, fn)

    def set_keywords(found: Callable[[Any], dict[str, Any]]) -> None:
        convert[0] = found

    return body, set_keywords


def _label(body: Callable[..., Any], fn: Callable[..., Any]) -> None:
    """Name the body after ``fn`` and keep ``fn`` on it as ``func`` (langchain's name).

    Not ``functools.wraps``: ``__wrapped__`` would make ``inspect.signature``
    report ``fn``'s parameters instead of the body's ``(arguments, context)``.
    """
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        value = getattr(fn, attr, None)
        if isinstance(value, str):
            setattr(body, attr, value)
    body.func = fn  # type: ignore[attr-defined]


# -- infer_schema=False: langchain_core's single-input tool ---------------------

_SINGLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {_SINGLE_INPUT: {"type": "string"}},
    "required": [_SINGLE_INPUT],
}


def _single_input_parser(arguments: Mapping[str, Any]) -> Any:
    """One string argument: ``__arg1``, or (as langchain_core allows) any one name."""
    if len(arguments) == 1:
        ((key, value),) = arguments.items()
        if isinstance(value, str):
            return Ok({_SINGLE_INPUT: value})
        problems = [ArgumentProblem((key,), "Input should be a valid string", value)]
    elif not arguments:
        problems = [ArgumentProblem.missing(_SINGLE_INPUT)]
    else:
        problems = [ArgumentProblem.unrecognized(k) for k in arguments if k != _SINGLE_INPUT]
        if _SINGLE_INPUT not in arguments:
            problems.insert(0, ArgumentProblem.missing(_SINGLE_INPUT))
    return invalid_arguments(problems, arguments=arguments, accepted=[_SINGLE_INPUT])


def _single_input(
    fn: Callable[..., Any],
    name: str,
    opts: _Options,
    subject: str,
    doc: str | None,
    ctx: str | None,
) -> Function:
    """``infer_schema=False``: the function takes one string, passed positionally."""
    description = _given(opts.description, doc)
    if description is None:
        raise FunctionDefinitionError(
            [
                (
                    "description",
                    "Function must have either a docstring or description when "
                    "infer_schema is False",
                )
            ],
            subject=subject,
        )
    artifact = opts.response_format == "content_and_artifact"

    def value_of(arguments: Any) -> Any:
        if isinstance(arguments, Mapping) and len(arguments) == 1:
            return next(iter(arguments.values()))
        return arguments  # what your own parse_args produced

    body: Callable[..., Any]
    if _is_async(fn):

        async def abody(arguments: Any, context: Any) -> Any:
            extra = {} if ctx is None else {ctx: context}
            result = await fn(value_of(arguments), **extra)
            return _artifact(name, result) if artifact else result

        body = abody
    else:

        def sbody(arguments: Any, context: Any) -> Any:
            extra = {} if ctx is None else {ctx: context}
            result = fn(value_of(arguments), **extra)
            return _artifact(name, result) if artifact else result

        body = sbody
    _label(body, fn)
    kwargs = opts.function_kwargs()
    kwargs["parse_args"] = opts.parse_args or _single_input_parser
    return Function(
        name,
        body,
        description=description,
        parameters_schema=_SINGLE_SCHEMA,
        plugin_manager=opts.plugin_manager,
        **kwargs,
    )


# -- runnables ---------------------------------------------------------------------


def _from_runnable(runnable: Any, name: str, opts: _Options, subject: str) -> Function:
    """A tool that calls ``runnable.invoke(arguments)`` with the validated arguments."""
    pm = _resolve_pm(opts)
    source = opts.args_schema
    if source is None:
        schema_of = getattr(runnable, "get_input_jsonschema", None)
        schema = schema_of() if callable(schema_of) else None
        if schema is not None and (
            not isinstance(schema, Mapping) or schema.get("type") != "object"
        ):
            raise FunctionDefinitionError(
                [
                    (
                        "runnable",
                        "Runnable must have an object schema (its input is not a JSON "
                        "object); pass args_schema= to describe the arguments",
                    )
                ],
                subject=subject,
            )
        model = getattr(runnable, "input_schema", None)
        if model is not None and pm.select_adapter(model) is not None:
            source = model
        else:
            source = schema
        if source is None:
            raise FunctionDefinitionError(
                [("runnable", "has no input schema; pass args_schema= to describe the arguments")],
                subject=subject,
            )
    convert: list[Callable[[Any], dict[str, Any]]] = [keywords]
    invoke = runnable.invoke
    artifact = opts.response_format == "content_and_artifact"

    def body(arguments: Any, context: Any) -> Any:
        result = invoke(convert[0](arguments))
        return _artifact(name, result) if artifact else result

    body.func = runnable  # type: ignore[attr-defined]
    function = _with_schema_description(
        name, body, _given(opts.description, None), source, pm, opts
    )
    convert[0] = _keywords_of(function.adapter)
    return function
