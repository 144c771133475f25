"""Building the :class:`~toolparse.Function` of a ``@tool``: from a function or a runnable.

The schema is inferred by an adapter (``from_signature``) or taken from ``args_schema``, the
description taken from the arguments, the docstring or the source, in langchain_core's order.
The body calls the function with the adapter's keyword arguments and the context filled in
(with ``infer_schema=False``: one string); ``content_and_artifact`` pairs become ``Ok``.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from ..adapter import UnknownArguments, keywords
from ..contract import Error, Interrupt, Ok
from ..errors import FunctionDefinitionError
from ..function import Function
from ..function._callables import BOUND_ATTRIBUTE, bound_names
from ..params import SignatureParam
from ..problems import ArgumentProblem, invalid_arguments
from ..results import ToolResult
from ._signature import FunctionSignature, parse_docstring, read_signature

if TYPE_CHECKING:
    from .._repair import Repair
    from ..adapter import Adapter
    from ..arguments import Limits
    from ..plugins import PluginManager

__all__ = ["Options", "ResponseFormat", "make", "own_name", "refuse"]

# the adapters asked, in order, to infer a schema when ``adapter=None``: the built-in one first,
# so a signature means the same whatever is installed (a type another adapter owns is its to check)
_INFERENCE_ORDER = ("plain", "pydantic")

# ``Annotated`` metadata only a library's adapter can enforce (``Field(ge=1)``, ``Ge(1)``):
# a signature that uses it is that library's source, so no constraint is silently dropped
_METADATA_OWNERS = {"pydantic": "pydantic", "annotated_types": "pydantic"}

ResponseFormat = Literal["content", "content_and_artifact"]

#: how a body turns ``(arguments, context)`` into the function's positional and keyword arguments
ArgumentsOf = Callable[[Any, Any], tuple[tuple[Any, ...], dict[str, Any]]]
#: an adapter's ``keywords``: a parsed value as keyword arguments
Keywords = Callable[[Any], dict[str, Any]]

#: the one argument of a tool built with ``infer_schema=False`` (langchain_core's name for it)
SINGLE_INPUT = "__arg1"
SINGLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {SINGLE_INPUT: {"type": "string"}},
    "required": [SINGLE_INPUT],
}


def _is_async(fn: object) -> bool:
    """Whether calling ``fn`` gives a coroutine (an ``async def``, or an object with one as ``__call__``)."""
    call = getattr(type(fn), "__call__", None)  # noqa: B004 - the method, not callability
    return inspect.iscoroutinefunction(fn) or (
        not inspect.isroutine(fn) and inspect.iscoroutinefunction(call)
    )


def _artifact_of(name: str, result: Any) -> Any:
    """``(content, artifact)`` as ``Ok(content, artifact)``."""
    if isinstance(result, (Ok, Error, Interrupt, ToolResult)):
        return result  # the result vocabulary speaks for itself
    if isinstance(result, tuple) and len(result) == 2:
        return Ok(result[0], result[1])
    message = (
        f"ERROR: tool {name} must return a (content, artifact) tuple because its "
        f'response_format is "content_and_artifact"; it returned {type(result).__name__}.'
    )
    return Error(message, TypeError(message))


def make_body(
    fn: Callable[..., Any], name: str, artifact: bool, arguments_of: ArgumentsOf
) -> Callable[..., Any]:
    """The ``(arguments, context)`` body that calls ``fn`` with what ``arguments_of`` gives."""
    if _is_async(fn):

        async def async_body(arguments: Any, context: Any) -> Any:
            args, kwargs = arguments_of(arguments, context)
            result = await fn(*args, **kwargs)
            return _artifact_of(name, result) if artifact else result

        return async_body

    def body(arguments: Any, context: Any) -> Any:
        args, kwargs = arguments_of(arguments, context)
        result = fn(*args, **kwargs)
        return _artifact_of(name, result) if artifact else result

    return body


def label(body: Callable[..., Any], fn: Callable[..., Any]) -> Callable[..., Any]:
    """Name ``body`` after ``fn`` and keep ``fn`` on it as ``func`` (langchain's name).

    Not ``functools.wraps``: ``__wrapped__`` would make ``inspect.signature``
    report ``fn``'s parameters instead of the body's ``(arguments, context)``.
    """
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        value = getattr(fn, attr, None)
        if isinstance(value, str):
            setattr(body, attr, value)
    body.func = fn  # type: ignore[attr-defined]
    # a partial's bound arguments stay the application's: the Function rejects a call that sends one
    setattr(body, BOUND_ATTRIBUTE, bound_names(fn))
    return body


def keyword_body(
    fn: Callable[..., Any], name: str, artifact: bool, sig: FunctionSignature, kw: list[Keywords]
) -> Callable[..., Any]:
    """The body calling ``fn`` with the parsed value's keyword arguments, by ``kw[0]`` (the adapter's, once known)."""
    ctx, wait = sig.context, _is_async(fn)
    # names the function cannot take (extra keys a parser let through) are left out
    allowed = None if any(v.startswith("**") for v in sig.variadic) else frozenset(sig.names)
    call = dict if wait else fn  # (async: the arguments, for the body that awaits ``fn``)

    def body(value: Any, context: Any) -> Any:
        kwargs = kw[0](value)
        if allowed is not None and not allowed.issuperset(kwargs):
            kwargs = {k: v for k, v in kwargs.items() if k in allowed}
        if ctx is not None:
            # a Context parameter always gets a mapping (a new one each call: the tool may fill it)
            kwargs = {**kwargs, ctx: {} if context is None else context}
        result = call(**kwargs)
        return _artifact_of(name, result) if artifact and not wait else result

    return make_body(fn, name, artifact, lambda v, c: ((), body(v, c))) if wait else body


def single_argument(ctx: str | None) -> ArgumentsOf:
    """``infer_schema=False``: the one string, passed positionally."""

    def arguments_of(value: Any, context: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        if isinstance(value, Mapping) and len(value) == 1:
            value = next(iter(value.values()))  # else what your own parse_args produced
        return (value,), {} if ctx is None else {ctx: {} if context is None else context}

    return arguments_of


def single_input_parser(arguments: Mapping[str, Any]) -> Any:
    """One string argument: ``__arg1``, or (as langchain_core allows) any one name."""
    if len(arguments) == 1:
        ((key, value),) = arguments.items()
        if isinstance(value, str):
            return Ok({SINGLE_INPUT: value})
        problems = [ArgumentProblem((key,), "Input should be a valid string", value)]
    elif not arguments:
        problems = [ArgumentProblem.missing(SINGLE_INPUT)]
    else:
        problems = [ArgumentProblem.unrecognized(k) for k in arguments if k != SINGLE_INPUT]
        if SINGLE_INPUT not in arguments:
            problems.insert(0, ArgumentProblem.missing(SINGLE_INPUT))
    return invalid_arguments(problems, arguments=arguments, accepted=[SINGLE_INPUT])


class Passed(TypedDict, total=False):
    """The keyword options of ``tool`` passed through to :class:`~toolparse.Function` as they are."""

    parse_args: Callable[..., Any] | None
    concurrent: bool
    strict: bool
    display_text: str | None
    options: Mapping[str, Any] | None
    unknown_arguments: UnknownArguments
    return_direct: bool
    limits: Limits | None
    repair: Repair | None


class Options(Passed, total=False):
    """The keyword options of ``tool``: a call's has every one, an overload takes any."""

    description: str | None
    args_schema: Any
    infer_schema: bool
    response_format: ResponseFormat
    parse_docstring: bool
    error_on_invalid_docstring: bool
    adapter: str | None
    plugin_manager: PluginManager | None


def refuse(field: str, message: str, subject: str = "@tool") -> FunctionDefinitionError:
    """The definition error for one problem of ``subject``."""
    return FunctionDefinitionError([(field, message)], subject=subject)


def _is_runnable(obj: object) -> bool:
    """A runnable-like object: not a function or class, with an ``invoke`` method."""
    if isinstance(obj, type) or inspect.isroutine(obj):
        return False
    return callable(getattr(obj, "invoke", None))


def own_name(obj: object) -> str | None:
    """The name a tool made from ``obj`` gets when none is given (``None``: none)."""
    if _is_runnable(obj):
        get_name = getattr(obj, "get_name", None)
        found = get_name() if callable(get_name) else None
    elif callable(obj):
        found = getattr(obj, "__name__", None)
    else:
        return None
    if not (isinstance(found, str) and found):
        found = getattr(obj, "name", None)  # an object that names itself
    return found if isinstance(found, str) and found else None


def _doc(fn: object) -> str | None:
    """The cleaned docstring of what is being decorated."""
    while isinstance(fn, functools.partial):
        fn = fn.func
    doc = inspect.getdoc(fn)
    if not inspect.isroutine(fn) and doc == inspect.getdoc(object):
        return None  # a callable object whose class inherits object's docstring
    return doc or None


def _given(description: str | None, fallback: str | None) -> str | None:
    """The ``description`` argument (stripped, as langchain_core does), else ``fallback``."""
    if description is None:
        return fallback
    return description.strip() if isinstance(description, str) else description


def make(obj: Any, name: str, opts: Options) -> Function:
    """The Function ``tool`` makes of ``obj`` (a function, a callable object or a runnable)."""
    subject = f"tool {name!r}"
    artifact = opts["response_format"] == "content_and_artifact"
    pm = opts["plugin_manager"]
    if pm is None:
        from ..plugins import plugin_manager  # the default, only when the decorator was given none

        pm = plugin_manager()
    converter: list[Keywords] = [keywords]  # the adapter's, once the Function has found it
    adapter: Adapter | None = None
    single: dict[str, Any] = {}  # with infer_schema=False: the one string's schema and parser
    if _is_runnable(obj):
        source = opts["args_schema"]
        if source is None:
            source = _runnable_source(obj, pm, subject)
        description = _given(opts["description"], None)
        body = make_body(obj.invoke, name, artifact, lambda v, c: ((converter[0](v),), {}))
        body.func = obj  # type: ignore[attr-defined]
    elif not callable(obj):
        raise refuse("function", f"must be callable, got {obj!r:.60}", subject)
    else:
        doc = _doc(obj)
        sig = read_signature(obj, subject)
        if not opts["infer_schema"] and opts["args_schema"] is None:
            source, description = None, _given(opts["description"], doc)
            if description is None:
                message = "Function must have either a docstring or description when infer_schema is False"
                raise refuse("description", message, subject)
            body = make_body(obj, name, artifact, single_argument(sig.context))
            parse_args = opts["parse_args"] or single_input_parser
            # (the manager as given: a Function that infers nothing keeps the default unresolved)
            single = {
                "parameters_schema": SINGLE_SCHEMA,
                "parse_args": parse_args,
                "plugin_manager": opts["plugin_manager"],
            }
        else:
            source, adapter, description = _from_function(name, opts, subject, sig, doc, pm)
            body = keyword_body(obj, name, artifact, sig, converter)
        body = label(body, obj)
    given = {key: value for key, value in opts.items() if key in Passed.__annotations__}
    passed: dict[str, Any] = {"plugin_manager": pm, **given, **single}
    function = Function(
        name, body, description=description, args_schema=source, adapter=adapter, **passed
    )
    found = getattr(function.adapter, "keywords", None)
    converter[0] = found if callable(found) else keywords
    return function


def _from_function(
    name: str,
    opts: Options,
    subject: str,
    sig: FunctionSignature,
    doc: str | None,
    pm: PluginManager,
) -> tuple[Any, Adapter | None, str | None]:
    """The source of the schema, the adapter that inferred it (``None``: ``args_schema``), the description."""
    infer = opts["args_schema"] is None
    problems = list(sig.problems)
    if infer and sig.variadic:
        message = (
            f"cannot infer a schema for {', '.join(sig.variadic)}: the model sends named "
            "arguments only; name each parameter, or pass args_schema= to describe the arguments"
        )
        problems.append(("signature", message))
    if problems:
        raise FunctionDefinitionError(problems, subject=subject)
    if opts["parse_docstring"]:
        doc, described = parse_docstring(
            doc,
            [*sig.names, *([sig.context] if sig.context else [])],
            # with args_schema the schema documents the arguments: only the description is read
            sig.annotated if infer else (),
            opts["error_on_invalid_docstring"] and infer,
            subject,
        )
        for param in sig.params:  # the docstring wins over Annotated (langchain_core's order)
            param.description = described.get(param.name, param.description)
    description = _given(opts["description"], doc or None)
    if not infer:
        return opts["args_schema"], None, description
    adapter = _inference_adapter(
        pm, opts["adapter"] or _metadata_owner(sig.params, subject, pm), subject
    )
    try:
        source = adapter.from_signature(name, sig.params)  # type: ignore[attr-defined]
    except FunctionDefinitionError as exc:
        raise FunctionDefinitionError(exc.errors, subject=subject) from exc
    except Exception as exc:
        message = f"the {adapter.name} adapter cannot describe it: {exc}"
        raise refuse("signature", message, subject) from exc
    return source, adapter, description


def _metadata_owner(params: list[SignatureParam], subject: str, pm: PluginManager) -> str | None:
    """The adapter whose library wrote a parameter's ``Annotated`` constraints (``None``: none)."""
    for param in params:
        if typing.get_origin(param.annotation) is not typing.Annotated:
            continue
        for item in typing.get_args(param.annotation)[1:]:
            root = (type(item).__module__ or "").partition(".")[0]
            owner = _METADATA_OWNERS.get(root)
            if owner is not None and pm.adapter(owner) is None:
                message = f'its Annotated constraints come from {root}, whose adapter is not installed: pip install "toolparse[{owner}]"'
                raise refuse(param.name, message, subject)
            if owner is not None:
                return owner
    return None


def _inference_adapter(pm: PluginManager, name: str | None, subject: str) -> Adapter:
    """The adapter that infers the schema from the signature."""
    if name is None:
        for candidate in _INFERENCE_ORDER:
            found = pm.adapter(candidate)
            if found is not None and callable(getattr(found, "from_signature", None)):
                return found
        message = 'no installed adapter can infer a schema from a signature; install one with pip install "toolparse[pydantic]"'
        raise refuse("adapter", message, subject)
    adapter = pm.adapter(name)
    if adapter is None:
        installed = ", ".join(sorted({a.name for a in pm.adapters()})) or "none"
        message = f'no installed adapter is called {name!r} (installed: {installed}); install it with pip install "toolparse[{name}]"'
        raise refuse("adapter", message, subject)
    if not callable(getattr(adapter, "from_signature", None)):
        message = f"the {name} adapter cannot infer a schema from a signature"
        raise refuse("adapter", message, subject)
    return adapter


def _runnable_source(runnable: Any, pm: PluginManager, subject: str) -> Any:
    """The input schema of a runnable: its pydantic model when an adapter takes it, else its JSON Schema."""
    schema_of = getattr(runnable, "get_input_jsonschema", None)
    schema = schema_of() if callable(schema_of) else None
    if schema is not None and (not isinstance(schema, Mapping) or schema.get("type") != "object"):
        message = "Runnable must have an object schema (its input is not a JSON object); pass args_schema= to describe the arguments"
        raise refuse("runnable", message, subject)
    model = getattr(runnable, "input_schema", None)
    if model is not None and pm.select_adapter(model) is not None:
        return model
    if schema is None:
        message = "has no input schema; pass args_schema= to describe the arguments"
        raise refuse("runnable", message, subject)
    return schema
