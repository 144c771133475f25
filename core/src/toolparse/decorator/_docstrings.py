"""Reading a tool function's docstring: its description and its parameters'.

Google style is read with langchain_core's rules for what makes a docstring
invalid; NumPy and reST styles are read too. The parsing itself is done by the
``docstring-parser`` package, imported only when a tool asks for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import FunctionDefinitionError

__all__ = ["INSTALL_HINT", "Docstring", "parse_docstring"]

INSTALL_HINT = 'pip install "toolparse[docstring]"'

# The headers that open a Google-style parameter section. langchain_core knows
# only "Args:"; the others are the synonyms the Google style guide and
# docstring-parser accept, so a docstring langchain_core accepts is accepted too.
_ARGS_HEADERS = ("Args:", "Arguments:", "Parameters:", "Params:")


class Docstring:
    """What a docstring says about a tool.

    :param description: the summary and extended description, paragraphs
        joined by a space as langchain_core does (``""`` when there is none).
    :param params: per-parameter descriptions, by parameter name.
    """

    __slots__ = ("description", "params")

    def __init__(self, description: str, params: dict[str, str]) -> None:
        self.description = description
        self.params = params

    def __repr__(self) -> str:
        return f"Docstring({self.description!r}, {self.params!r})"


def _library() -> Any:
    try:
        import docstring_parser
    except ImportError:
        raise FunctionDefinitionError(
            [
                (
                    "parse_docstring",
                    f"reading docstrings needs the docstring-parser package; "
                    f"install it with {INSTALL_HINT}",
                )
            ]
        ) from None
    return docstring_parser


def _invalid(reason: str) -> FunctionDefinitionError:
    return FunctionDefinitionError(
        [
            (
                "docstring",
                f"Found invalid Google-Style docstring: {reason} "
                "(pass error_on_invalid_docstring=False to read it anyway)",
            )
        ]
    )


def _one_line(text: str | None) -> str:
    """Continuation lines joined by a space, as langchain_core joins them."""
    return " ".join(line.strip() for line in (text or "").splitlines() if line.strip())


def _check_google(doc: str, documentable: Sequence[str]) -> None:
    """langchain_core's structural rule for Google style, word for word.

    A function with (annotated) parameters needs a docstring made of a summary
    block and, after a blank line, a block that starts with ``Args:``.
    """
    if not documentable:
        return
    blocks = doc.split("\n\n")
    if len(blocks) < 2 or not any(b.startswith(_ARGS_HEADERS) for b in blocks[1:]):
        names = ", ".join(documentable)
        raise _invalid(
            f'expected a summary, a blank line, then an "Args:" section describing {names}'
        )


def parse_docstring(
    doc: str | None,
    *,
    params: Sequence[str],
    documentable: Sequence[str],
    strict: bool,
) -> Docstring:
    """Parse a cleaned docstring (``inspect.getdoc``) for ``@tool(parse_docstring=True)``.

    :param params: every parameter name of the function.
    :param documentable: the parameters langchain_core requires an ``Args:``
        section for (those with a type annotation, the context left out).
    :param strict: ``error_on_invalid_docstring``: raise
        :class:`~toolparse.FunctionDefinitionError` (a ``ValueError``) for a
        missing docstring, a Google-style docstring without its ``Args:``
        section after a blank line, or arguments documented that the function
        does not take. Otherwise read what can be read.
    """
    library = _library()
    if not doc:
        if strict:
            raise _invalid("the function has no docstring")
        return Docstring("", {})
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
        if strict:
            _check_google(doc, documentable)
        try:
            parsed = library.parse(doc, style=style.GOOGLE)
        except library.ParseError as exc:
            if strict:
                raise _invalid(str(exc)) from None
            return Docstring(_paragraphs(doc), {})
    described = {
        p.arg_name: _one_line(p.description)
        for p in parsed.params
        # an "Attributes:" section documents a class, not the call's arguments
        if not (p.args and p.args[0] == "attribute")
    }
    unknown = [name for name in described if name not in params]
    if unknown and strict:
        raise _invalid(
            f"it documents {', '.join(unknown)}, which the function does not take "
            f"(its parameters: {', '.join(params) or 'none'})"
        )
    text = parsed.short_description or ""
    if parsed.long_description:
        text += ("\n\n" if parsed.blank_after_short_description else "\n") + parsed.long_description
    return Docstring(
        _paragraphs(text),
        {name: text for name, text in described.items() if name in params and text},
    )


def _paragraphs(text: str) -> str:
    """Paragraphs joined by a space (langchain_core's description layout)."""
    return " ".join(block.strip() for block in text.split("\n\n") if block.strip())
