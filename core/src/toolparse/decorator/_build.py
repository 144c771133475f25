"""Building the :class:`~toolparse.Function` of a ``@tool``: from a function or a runnable.

A function's signature is read, its schema inferred by an adapter
(``from_signature``) or taken from ``args_schema``, and its description taken
from the arguments, the docstring or the source, in langchain_core's order.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..adapter import keywords
from ..errors import FunctionDefinitionError
from ..function import Function
from ..params import SignatureParam
from ._body import (
    SINGLE_SCHEMA,
    artifact_of,
    keyword_body,
    single_input_body,
    single_input_parser,
)
from ._options import _Options
from ._signature import FunctionSignature, read_signature

if TYPE_CHECKING:
    from ..adapter import Adapter
    from ..plugins import PluginManager

__all__ = ["make", "own_name"]

# the adapters asked, in order, to infer a schema when ``adapter=None``: the
# built-in one first, so a signature means the same whatever is installed (a
# parameter whose type another adapter owns is validated by that adapter)
_INFERENCE_ORDER = ("plain", "pydantic")

# ``Annotated`` metadata that only a library's adapter can enforce (``Field(ge=1)``,
# ``annotated_types.Ge(1)``): a signature that uses it is that library's source, so the
# choice stays fixed by the source and no constraint is silently dropped
_METADATA_OWNERS = {"pydantic": "pydantic", "annotated_types": "pydantic"}


# -- what is being decorated -------------------------------------------------


def _is_runnable(obj: object) -> bool:
    """A runnable-like object: not a function or class, with an ``invoke`` method."""
    if isinstance(obj, type) or inspect.isroutine(obj):
        return False
    return callable(getattr(obj, "invoke", None))


def own_name(obj: object) -> str | None:
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


# -- building ------------------------------------------------------------------


def _definition_error(exc: FunctionDefinitionError, subject: str) -> FunctionDefinitionError:
    """``exc`` again, about this tool."""
    return FunctionDefinitionError(exc.errors, subject=subject)


def make(obj: Any, name: str, opts: _Options) -> Function:
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
    body, set_keywords = keyword_body(fn, name, sig, opts.response_format)
    if infer:
        adapter = _inference_adapter(
            pm, opts.adapter or _metadata_owner(sig.params, subject, pm), subject
        )
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
        function = _with_schema(name, body, description, opts.args_schema, pm, opts)
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


def _with_schema(
    name: str,
    body: Callable[..., Any],
    description: str | None,
    args_schema: Any,
    pm: PluginManager,
    opts: _Options,
) -> Function:
    """A Function for an explicit ``args_schema`` (without a description, it takes the source's)."""
    return Function(
        name,
        body,
        description=description,
        args_schema=args_schema,
        plugin_manager=pm,
        **opts.function_kwargs(),
    )


def _metadata_owner(
    params: Sequence[SignatureParam], subject: str, pm: PluginManager
) -> str | None:
    """The adapter whose library wrote a parameter's ``Annotated`` constraints (``None``: none)."""
    for param in params:
        if typing.get_origin(param.annotation) is not typing.Annotated:
            continue
        for item in typing.get_args(param.annotation)[1:]:
            root = (type(item).__module__ or "").partition(".")[0]
            owner = _METADATA_OWNERS.get(root)
            if owner is None:
                continue
            if pm.adapter(owner) is None:
                raise FunctionDefinitionError(
                    [
                        (
                            param.name,
                            f"its Annotated constraints come from {root}, whose adapter is not "
                            f'installed: pip install "toolparse[{owner}]"',
                        )
                    ],
                    subject=subject,
                )
            return owner
    return None


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
    body = single_input_body(fn, name, ctx, opts.response_format == "content_and_artifact")
    kwargs = opts.function_kwargs()
    kwargs["parse_args"] = opts.parse_args or single_input_parser
    return Function(
        name,
        body,
        description=description,
        parameters_schema=SINGLE_SCHEMA,
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
        return artifact_of(name, result) if artifact else result

    body.func = runnable  # type: ignore[attr-defined]
    function = _with_schema(name, body, _given(opts.description, None), source, pm, opts)
    convert[0] = _keywords_of(function.adapter)
    return function
