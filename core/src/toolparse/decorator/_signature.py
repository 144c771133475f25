"""Reading a plain function for ``@tool``: its signature, and its docstring (``parse_docstring``).

The named parameters become :class:`~toolparse.SignatureParam` values for an adapter's
``from_signature``; the parameter annotated ``Context`` is set aside, and so are the arguments
a ``functools.partial`` binds. Docstrings are read by ``docstring-parser`` (imported when a tool
asks for it): Google style with langchain_core's rules of validity, NumPy and reST styles too.
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..context import is_context
from ..errors import FunctionDefinitionError
from ..function._callables import bound_names
from ..params import EMPTY, SignatureParam

__all__ = ["FunctionSignature", "parse_docstring", "read_signature"]


class FunctionSignature(NamedTuple):
    """What ``@tool`` needs to know about a function's parameters."""

    params: list[SignatureParam]  # the named ones the model sends, in declaration order
    context: str | None  # the name of the one annotated ``Context``
    annotated: list[str]  # the names of ``params`` that carry a type annotation
    problems: list[tuple[str, str]]  # ``(field, message)``
    #: ``*args`` and ``**kwargs`` as written: a problem only when the schema is inferred
    variadic: list[str]

    @property
    def names(self) -> list[str]:
        """The names of the parameters the model sends, in declaration order."""
        return [p.name for p in self.params]


def _is_context_annotation(annotation: Any) -> bool:
    """``Context``, ``Annotated[Context, ...]`` and ``Context | None`` mark the context parameter."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if is_context(annotation):
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return len(members) == 1 and _is_context_annotation(members[0])
    return False


def _annotation_description(annotation: Any) -> str | None:
    """As langchain_core reads it: the first ``Annotated`` item that is a string or has a ``description``."""
    if typing.get_origin(annotation) is not typing.Annotated:
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
        target = getattr(type(target), "__call__", target)  # noqa: B004 - the method carries the annotations
    try:
        return typing.get_type_hints(target, include_extras=True)
    except TypeError:  # objects typing cannot read (builtins, some C callables)
        return {}


def read_signature(fn: Callable[..., Any], subject: str) -> FunctionSignature:
    """Read ``fn``'s parameters; a description is the one its ``Annotated`` annotation carries.

    :raises FunctionDefinitionError: about ``subject``, when an annotation
        cannot be resolved or ``fn`` has no signature Python can read.
    """
    try:
        parameters = inspect.signature(fn).parameters.values()
        hints = _hints(fn)
    except (NameError, TypeError, ValueError) as exc:
        if isinstance(exc, NameError):
            problem = ("annotations", f"cannot resolve a type annotation: {exc}")
        else:
            problem = ("function", f"has no signature Python can read: {exc}")
        raise FunctionDefinitionError([problem], subject=subject) from exc
    found = FunctionSignature([], None, [], [], [])
    context: str | None = None
    bound = bound_names(fn)  # a partial's keywords are the application's, not the model's
    for p in parameters:
        if p.name in bound:
            continue
        if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
            found.variadic.append(("**" if p.kind is p.VAR_KEYWORD else "*") + p.name)
            continue
        annotation = hints.get(p.name, p.annotation)
        if annotation is not p.empty and _is_context_annotation(annotation):
            if context is not None:
                message = f"only one parameter can receive the Context ({context!r} already does)"
                found.problems.append((p.name, message))
            context = p.name
        elif p.kind is p.POSITIONAL_ONLY:
            message = "is positional-only; the tool is called with keyword arguments"
            found.problems.append((p.name, message))
        else:
            if annotation is not p.empty:
                found.annotated.append(p.name)
            default = EMPTY if p.default is p.empty else p.default
            annotation = Any if annotation is p.empty else annotation
            found.params.append(
                SignatureParam(p.name, annotation, default, _annotation_description(annotation))
            )
    return found._replace(context=context)


# langchain_core knows only "Args:"; the others are the synonyms the Google style
# guide and docstring-parser accept, so a docstring langchain_core accepts is accepted too
_ARGS_HEADERS = ("Args:", "Arguments:", "Parameters:", "Params:")


def _invalid(reason: str, subject: str) -> FunctionDefinitionError:
    message = f"Found invalid Google-Style docstring: {reason} (pass error_on_invalid_docstring=False to read it anyway)"
    return FunctionDefinitionError([("docstring", message)], subject=subject)


def _paragraphs(text: str) -> str:
    """Paragraphs joined by a space (langchain_core's description layout)."""
    return " ".join(block.strip() for block in text.split("\n\n") if block.strip())


def parse_docstring(
    doc: str | None, params: Sequence[str], documentable: Sequence[str], strict: bool, subject: str
) -> tuple[str, dict[str, str]]:
    """A cleaned docstring's description (``""`` when none) and its parameters' descriptions.

    :param params: every parameter name of the function.
    :param documentable: the parameters langchain_core requires an ``Args:``
        section for (those with a type annotation, the context left out).
    :param strict: ``error_on_invalid_docstring``: raise for a missing
        docstring, a Google-style docstring without its ``Args:`` section after
        a blank line, or arguments documented that the function does not take.
        Otherwise read what can be read.
    """
    try:
        import docstring_parser as library
    except ImportError:
        message = 'reading docstrings needs the docstring-parser package; install it with pip install "toolparse[docstring]"'
        raise FunctionDefinitionError([("parse_docstring", message)], subject=subject) from None
    if not doc:
        if strict:
            raise _invalid("the function has no docstring", subject)
        return "", {}
    style = library.DocstringStyle
    try:
        parsed = library.parse(doc)
    except library.ParseError:
        parsed = None
    if (
        parsed is None
        or parsed.style not in (style.NUMPYDOC, style.REST, style.EPYDOC)
        or not parsed.params
    ):
        # Google style (the default, as in langchain_core): its rules apply
        blocks = doc.split("\n\n")
        if strict and documentable and not any(b.startswith(_ARGS_HEADERS) for b in blocks[1:]):
            names = ", ".join(documentable)
            reason = f'expected a summary, a blank line, then an "Args:" section describing {names}'
            raise _invalid(reason, subject)
        try:
            parsed = library.parse(doc, style=style.GOOGLE)
        except library.ParseError as exc:
            if strict:
                raise _invalid(str(exc), subject) from None
            return _paragraphs(doc), {}
    described: dict[str, str] = {}
    for p in parsed.params:
        if not (p.args and p.args[0] == "attribute"):  # "Attributes:" documents a class
            # continuation lines joined by a space, as langchain_core joins them
            lines = (p.description or "").splitlines()
            described[p.arg_name] = " ".join(line.strip() for line in lines if line.strip())
    unknown = [name for name in described if name not in params]
    if unknown and strict:
        taken = ", ".join(params) or "none"
        reason = f"it documents {', '.join(unknown)}, which the function does not take (its parameters: {taken})"
        raise _invalid(reason, subject)
    text = parsed.short_description or ""
    if parsed.long_description:
        text += ("\n\n" if parsed.blank_after_short_description else "\n") + parsed.long_description
    return _paragraphs(text), {
        name: text for name, text in described.items() if name in params and text
    }
