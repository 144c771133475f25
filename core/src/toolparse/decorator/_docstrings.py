"""Reading a tool function's docstring (``parse_docstring=True``): its description and its parameters'.

Google style is read with langchain_core's rules for what makes a docstring
invalid; NumPy and reST styles are read too. The parsing itself is done by the
``docstring-parser`` package, imported only when a tool asks for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import FunctionDefinitionError

__all__ = ["parse_docstring"]

# langchain_core knows only "Args:"; the others are the synonyms the Google style
# guide and docstring-parser accept, so a docstring langchain_core accepts is accepted too
_ARGS_HEADERS = ("Args:", "Arguments:", "Parameters:", "Params:")


def _library(subject: str) -> Any:
    try:
        import docstring_parser
    except ImportError:
        message = 'reading docstrings needs the docstring-parser package; install it with pip install "toolparse[docstring]"'
        raise FunctionDefinitionError([("parse_docstring", message)], subject=subject) from None
    return docstring_parser


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
    library = _library(subject)
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
            raise _invalid(
                f'expected a summary, a blank line, then an "Args:" section describing {names}',
                subject,
            )
        try:
            parsed = library.parse(doc, style=style.GOOGLE)
        except library.ParseError as exc:
            if strict:
                raise _invalid(str(exc), subject) from None
            return _paragraphs(doc), {}
    described = {
        # continuation lines joined by a space, as langchain_core joins them
        p.arg_name: " ".join(
            line.strip() for line in (p.description or "").splitlines() if line.strip()
        )
        for p in parsed.params
        if not (
            p.args and p.args[0] == "attribute"
        )  # "Attributes:" documents a class, not the call
    }
    unknown = [name for name in described if name not in params]
    if unknown and strict:
        taken = ", ".join(params) or "none"
        raise _invalid(
            f"it documents {', '.join(unknown)}, which the function does not take (its parameters: {taken})",
            subject,
        )
    text = parsed.short_description or ""
    if parsed.long_description:
        text += ("\n\n" if parsed.blank_after_short_description else "\n") + parsed.long_description
    return _paragraphs(text), {
        name: text for name, text in described.items() if name in params and text
    }
