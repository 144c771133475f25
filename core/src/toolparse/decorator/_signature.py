"""Reading a plain function's signature for ``@tool``.

The decorator turns a function's named parameters into
:class:`~toolparse.SignatureParam` values for an adapter's ``from_signature``,
sets aside the parameter that receives the context, and records what the
function accepts as keyword arguments (its body is always called by keyword).
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable
from typing import Any

from ..context import is_context
from ..function._callables import bound_names
from ..params import EMPTY, SignatureParam

__all__ = ["FunctionSignature", "annotation_description", "is_context_annotation", "read_signature"]

_NONE = type(None)


class FunctionSignature:
    """What ``@tool`` needs to know about a function's parameters.

    :param params: the named parameters the model sends, in declaration order
        (the context parameter left out).
    :param context: the name of the parameter annotated ``Context`` (or ``None``).
    :param keyword_names: every name the function takes by keyword.
    :param takes_kwargs: whether it has a ``**kwargs`` parameter.
    :param annotated: names of the parameters that carry a type annotation.
    :param problems: definition problems as ``(field, message)`` pairs.
    :param variadic: the ``*args`` / ``**kwargs`` parameters, as written; a
        problem only when the schema is inferred from the signature.
    """

    __slots__ = (
        "annotated",
        "context",
        "keyword_names",
        "params",
        "problems",
        "takes_kwargs",
        "variadic",
    )

    def __init__(
        self,
        params: list[SignatureParam],
        context: str | None,
        keyword_names: frozenset[str],
        takes_kwargs: bool,
        annotated: frozenset[str],
        problems: list[tuple[str, str]],
        variadic: list[str],
    ) -> None:
        self.params = params
        self.context = context
        self.keyword_names = keyword_names
        self.takes_kwargs = takes_kwargs
        self.annotated = annotated
        self.problems = problems
        self.variadic = variadic

    @property
    def names(self) -> list[str]:
        """The names of the parameters the model sends, in declaration order."""
        return [p.name for p in self.params]


def _is_annotated(annotation: Any) -> bool:
    return typing.get_origin(annotation) is typing.Annotated


def _strip_annotated(annotation: Any) -> Any:
    while _is_annotated(annotation):
        annotation = typing.get_args(annotation)[0]
    return annotation


def is_context_annotation(annotation: Any) -> bool:
    """Whether ``annotation`` marks the context parameter.

    ``Context`` itself, ``Annotated[Context, ...]`` and ``Context | None``
    (``Optional[Context]``) all do.
    """
    annotation = _strip_annotated(annotation)
    if is_context(annotation):
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        members = [a for a in typing.get_args(annotation) if a is not _NONE]
        return len(members) == 1 and is_context_annotation(members[0])
    return False


def annotation_description(annotation: Any) -> str | None:
    """The description an ``Annotated`` type carries, as langchain_core reads it.

    The first metadata item that is a string, or that has a non-empty string
    ``description`` attribute (pydantic's ``Field(description=...)``).
    """
    if not _is_annotated(annotation):
        return None
    for item in typing.get_args(annotation)[1:]:
        if isinstance(item, str):
            return item
        text = getattr(item, "description", None)
        if isinstance(text, str) and text:
            return text
    return None


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """Resolved annotations of ``fn`` (``Annotated`` kept), raising ``NameError`` as is."""
    target: Any = fn
    while isinstance(target, functools.partial):
        target = target.func
    if isinstance(target, type):
        # a class is called through its __init__ (its own or inherited)
        target = next(vars(k)["__init__"] for k in target.__mro__ if "__init__" in vars(k))
    elif not (inspect.isfunction(target) or inspect.ismethod(target)):
        # a callable object: its __call__ carries the annotations
        target = getattr(type(target), "__call__", target)  # noqa: B004 - reading the method, not testing callability
    try:
        return typing.get_type_hints(target, include_extras=True)
    except TypeError:
        # objects typing cannot read (builtins, some C callables): no hints
        return {}


def read_signature(fn: Callable[..., Any]) -> FunctionSignature:
    """Read ``fn``'s parameters.

    Each parameter's description is the one its ``Annotated`` annotation
    carries; the decorator puts a docstring's description over it.

    :raises NameError: when an annotation names something that cannot be
        resolved (the decorator words it for the developer).
    :raises ValueError: when ``fn`` has no signature Python can read.
    """
    sig = inspect.signature(fn)
    hints = _hints(fn)
    # a partial's keywords stay in its signature (as defaults): they are the
    # application's, not parameters for the model
    bound = bound_names(fn)
    params: list[SignatureParam] = []
    problems: list[tuple[str, str]] = []
    variadic: list[str] = []
    context: str | None = None
    keyword_names: set[str] = set()
    annotated: set[str] = set()
    takes_kwargs = False
    for p in sig.parameters.values():
        if p.name in bound:
            continue
        if p.kind is p.VAR_KEYWORD:
            takes_kwargs = True
            variadic.append(f"**{p.name}")
            continue
        if p.kind is p.VAR_POSITIONAL:
            variadic.append(f"*{p.name}")
            continue
        annotation = hints.get(p.name, p.annotation)
        if annotation is not p.empty and is_context_annotation(annotation):
            if context is not None:
                problems.append(
                    (
                        p.name,
                        f"only one parameter can receive the Context ({context!r} already does)",
                    )
                )
            context = p.name
            keyword_names.add(p.name)
            continue
        if p.kind is p.POSITIONAL_ONLY:
            problems.append(
                (p.name, "is positional-only; the tool is called with keyword arguments")
            )
            continue
        keyword_names.add(p.name)
        if annotation is p.empty:
            annotation = Any
        else:
            annotated.add(p.name)
        description = annotation_description(annotation)
        default = EMPTY if p.default is p.empty else p.default
        params.append(SignatureParam(p.name, annotation, default, description))
    return FunctionSignature(
        params,
        context,
        frozenset(keyword_names),
        takes_kwargs,
        frozenset(annotated),
        problems,
        variadic,
    )
