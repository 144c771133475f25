"""Building the :class:`~toolparse.Function` of a ``@tool``: from a function or a runnable.

A function's signature is read, its schema inferred by an adapter
(``from_signature``) or taken from ``args_schema``, and its description taken
from the arguments, the docstring or the source, in langchain_core's order.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..adapter import keywords
from ..errors import FunctionDefinitionError
from ..function import Function
from ..params import SignatureParam
from ._body import (
    SINGLE_SCHEMA,
    Keywords,
    keyword_arguments,
    label,
    make_body,
    single_argument,
    single_input_parser,
)
from ._signature import FunctionSignature, read_signature

if TYPE_CHECKING:
    from ..adapter import Adapter
    from ..plugins import PluginManager

__all__ = ["Options", "make", "own_name", "refuse"]

# the adapters asked, in order, to infer a schema when ``adapter=None``: the built-in one
# first, so a signature means the same whatever is installed (a parameter whose type
# another adapter owns is validated by that adapter)
_INFERENCE_ORDER = ("plain", "pydantic")

# ``Annotated`` metadata that only a library's adapter can enforce (``Field(ge=1)``,
# ``annotated_types.Ge(1)``): a signature that uses it is that library's source, so no
# constraint is silently dropped
_METADATA_OWNERS = {"pydantic": "pydantic", "annotated_types": "pydantic"}


class Options(NamedTuple):
    """The keyword options of one ``tool(...)`` call."""

    description: str | None
    args_schema: Any
    infer_schema: bool
    artifact: bool  # response_format="content_and_artifact"
    parse_docstring: bool
    error_on_invalid_docstring: bool
    adapter: str | None
    plugin_manager: PluginManager | None
    #: the keywords passed through to :class:`~toolparse.Function` as they are
    passed: dict[str, Any]


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


def _manager(opts: Options) -> PluginManager:
    if opts.plugin_manager is not None:
        return opts.plugin_manager
    from ..plugins import plugin_manager  # the default, only when the decorator was given none

    return plugin_manager()


def _keywords_of(adapter: Adapter | None) -> Keywords:
    found = getattr(adapter, "keywords", None)
    return found if callable(found) else keywords


def make(obj: Any, name: str, opts: Options) -> Function:
    """The Function ``tool`` makes of ``obj`` (a function, a callable object or a runnable)."""
    subject = f"tool {name!r}"
    pm = _manager(opts)
    converter: list[Keywords] = [keywords]  # the adapter's, once the Function has found it
    adapter: Adapter | None = None
    if _is_runnable(obj):
        source = opts.args_schema
        if source is None:
            source = _runnable_source(obj, pm, subject)
        description = _given(opts.description, None)
        body = make_body(obj.invoke, name, opts.artifact, lambda v, c: ((converter[0](v),), {}))
        body.func = obj  # type: ignore[attr-defined]
    elif not callable(obj):
        raise refuse("function", f"must be callable, got {obj!r:.60}", subject)
    else:
        doc = _doc(obj)
        sig = read_signature(obj, subject)
        if not opts.infer_schema and opts.args_schema is None:
            return _single_input(obj, name, opts, subject, sig, doc)
        source, adapter, description = _from_function(name, opts, subject, sig, doc, pm)
        body = label(make_body(obj, name, opts.artifact, keyword_arguments(sig, converter)), obj)
    function = Function(
        name,
        body,
        description=description,
        args_schema=source,
        plugin_manager=pm,
        adapter=adapter,
        **opts.passed,
    )
    converter[0] = _keywords_of(function.adapter)
    return function


def _single_input(
    fn: Any, name: str, opts: Options, subject: str, sig: FunctionSignature, doc: str | None
) -> Function:
    """``infer_schema=False``: the function takes one string, passed positionally."""
    description = _given(opts.description, doc)
    if description is None:
        message = "Function must have either a docstring or description when infer_schema is False"
        raise refuse("description", message, subject)
    body = label(make_body(fn, name, opts.artifact, single_argument(sig.context)), fn)
    passed = {**opts.passed, "parse_args": opts.passed["parse_args"] or single_input_parser}
    return Function(
        name,
        body,
        description=description,
        parameters_schema=SINGLE_SCHEMA,
        plugin_manager=opts.plugin_manager,
        **passed,
    )


def _from_function(
    name: str,
    opts: Options,
    subject: str,
    sig: FunctionSignature,
    doc: str | None,
    pm: PluginManager,
) -> tuple[Any, Adapter | None, str | None]:
    """The source of the schema, the adapter that inferred it (``None``: ``args_schema``), the description."""
    infer = opts.args_schema is None
    problems = list(sig.problems)
    if infer and sig.variadic:
        message = (
            f"cannot infer a schema for {', '.join(sig.variadic)}: the model sends named "
            "arguments only; name each parameter, or pass args_schema= to describe the arguments"
        )
        problems.append(("signature", message))
    if problems:
        raise FunctionDefinitionError(problems, subject=subject)
    if opts.parse_docstring:
        doc = _read_docstring(doc, sig, infer, opts.error_on_invalid_docstring, subject)
    description = _given(opts.description, doc)
    if not infer:
        return opts.args_schema, None, description
    adapter = _inference_adapter(
        pm, opts.adapter or _metadata_owner(sig.params, subject, pm), subject
    )
    return _from_signature(adapter, name, sig.params, subject), adapter, description


def _read_docstring(
    doc: str | None, sig: FunctionSignature, infer: bool, strict: bool, subject: str
) -> str | None:
    """The description a docstring gives; each parameter's description lands on its ``SignatureParam``."""
    from ._docstrings import parse_docstring

    description, described = parse_docstring(
        doc,
        [*sig.names, *([sig.context] if sig.context else [])],
        # with args_schema the schema documents the arguments: only the description is read
        sig.annotated if infer else (),
        strict and infer,
        subject,
    )
    for param in sig.params:
        if param.name in described:  # the docstring wins over Annotated (langchain_core's order)
            param.description = described[param.name]
    return description or None


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
        raise refuse(
            "adapter", f"the {name} adapter cannot infer a schema from a signature", subject
        )
    return adapter


def _from_signature(adapter: Adapter, name: str, params: list[SignatureParam], subject: str) -> Any:
    try:
        return adapter.from_signature(name, params)  # type: ignore[attr-defined]
    except FunctionDefinitionError as exc:
        raise FunctionDefinitionError(exc.errors, subject=subject) from exc
    except Exception as exc:
        message = f"the {adapter.name} adapter cannot describe it: {exc}"
        raise refuse("signature", message, subject) from exc


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
