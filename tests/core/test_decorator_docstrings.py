"""@tool(parse_docstring=True): Google (langchain_core's rules), NumPy and reST docstrings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import pytest

import toolparse as tp
from toolparse import tool

pytest.importorskip("docstring_parser")


# -- the reference's three invalid docstrings, and their valid twins --------------------------


def invalid_docstring_1(bar: str, baz: int) -> str:
    """The foo."""
    return bar


def invalid_docstring_2(bar: str, baz: int) -> str:
    """The foo.
    Args:
        bar: The bar.
        baz: The baz.
    """
    return bar


def invalid_docstring_3(bar: str, baz: int) -> str:
    """The foo.

    Args:
        banana: The bar.
        monkey: The baz.
    """
    return bar


def valid_docstring_1(bar: str, baz: int) -> str:
    """The foo.

    Args:
        bar: The bar.
        baz: The baz.
    """
    return bar


def valid_docstring_2(bar: str, baz: int) -> str:
    """The foo.

    Args:
        bar: The bar.
        baz: The baz.
    """
    return bar


def valid_docstring_3(bar: str, baz: int) -> str:
    """The foo.

    Args:
        bar: The bar.
        baz: The baz.
    """
    return bar


INVALID = [
    (
        invalid_docstring_1,
        'expected a summary, a blank line, then an "Args:" section describing bar, baz',
    ),
    (
        invalid_docstring_2,
        'expected a summary, a blank line, then an "Args:" section describing bar, baz',
    ),
    (
        invalid_docstring_3,
        "it documents banana, monkey, which the function does not take (its parameters: bar, baz)",
    ),
]


@pytest.mark.parametrize(("fn", "reason"), INVALID, ids=lambda v: getattr(v, "__name__", ""))
def test_invalid_docstrings_raise(fn: Callable[..., Any], reason: str) -> None:
    with pytest.raises(ValueError, match="Found invalid Google-Style docstring") as info:
        tool(fn, parse_docstring=True)
    assert isinstance(info.value, tp.FunctionDefinitionError)
    [(field, message)] = info.value.errors
    assert field == "docstring"
    assert reason in message
    assert str(info.value).startswith(f"tool {fn.__name__!r}: docstring: ")


@pytest.mark.parametrize("fn", [invalid_docstring_1, invalid_docstring_2, invalid_docstring_3])
def test_langchain_raises_for_the_same_docstrings(fn: Callable[..., Any]) -> None:
    lc = pytest.importorskip("langchain_core.tools")
    with pytest.raises(ValueError):  # noqa: PT011 - langchain_core's own wording varies
        lc.tool(fn, parse_docstring=True)


@pytest.mark.parametrize("fn", [valid_docstring_1, valid_docstring_2, valid_docstring_3])
def test_valid_twins_do_not_raise(fn: Callable[..., Any]) -> None:
    made = tool(fn, parse_docstring=True)
    assert made.description == "The foo."
    props = made.json_schema()["properties"]
    assert (props["bar"]["description"], props["baz"]["description"]) == ("The bar.", "The baz.")


def test_invalid_docstrings_are_read_anyway_when_asked() -> None:
    one = tool(invalid_docstring_1, parse_docstring=True, error_on_invalid_docstring=False)
    assert one.description == "The foo."
    assert "description" not in one.json_schema()["properties"]["bar"]
    # unlike langchain_core, the unknown names are left out rather than raised
    three = tool(invalid_docstring_3, parse_docstring=True, error_on_invalid_docstring=False)
    assert set(three.json_schema()["properties"]) == {"bar", "baz"}
    assert "description" not in three.json_schema()["properties"]["bar"]
    # the missing blank line: what docstring-parser reads is kept
    two = tool(invalid_docstring_2, parse_docstring=True, error_on_invalid_docstring=False)
    assert two.description == "The foo."
    assert two.json_schema()["properties"]["bar"]["description"] == "The bar."


def test_no_docstring() -> None:
    def bare(bar: str) -> str:
        return bar

    with pytest.raises(tp.FunctionDefinitionError, match="the function has no docstring"):
        tool(bare, parse_docstring=True)
    assert tool(bare, parse_docstring=True, error_on_invalid_docstring=False).description is None


def test_functions_without_annotated_parameters_need_no_args_section() -> None:
    # langchain_core's rule counts annotated parameters only
    def nothing() -> str:
        """Does nothing."""
        return ""

    def untyped(x):  # type: ignore[no-untyped-def]
        """Untyped."""
        return x

    assert tool(nothing, parse_docstring=True).description == "Does nothing."
    assert tool(untyped, parse_docstring=True).description == "Untyped."


def test_context_needs_no_documentation_and_may_have_some() -> None:
    def ctx_only(ctx: tp.Context) -> str:
        """Reads the context."""
        return ""

    def documented(q: str, ctx: tp.Context) -> str:
        """Search.

        Args:
            q: The query.
            ctx: The call's context.
        """
        return q

    assert tool(ctx_only, parse_docstring=True).json_schema()["properties"] == {}
    schema = tool(documented, parse_docstring=True).json_schema()
    assert schema["properties"] == {"q": {"description": "The query.", "type": "string"}}


# -- what is read, compared with langchain_core ----------------------------------------------


def multi_paragraph(city: str, days: int = 1) -> str:
    """Get the forecast.
    For one city.

    Uses the national service.

    Args:
        city (str): The city name,
            as written locally.
        days: How many days ahead.

    Returns:
        The forecast.
    """
    return city


def returns_first(query: str) -> str:
    """Search.

    Returns:
        Results.

    Args:
        query: What to look for.
    """
    return query


def example_block(x: int) -> int:
    """Double it.

    Example:
        double(2) == 4

    Args:
        x: The number.
    """
    return x * 2


@pytest.mark.parametrize("fn", [multi_paragraph, returns_first, example_block, valid_docstring_1])
def test_google_reading_matches_langchain(fn: Callable[..., Any]) -> None:
    lc = pytest.importorskip("langchain_core.tools")
    convert = pytest.importorskip("langchain_core.utils.function_calling").convert_to_openai_tool
    theirs = convert(lc.tool(fn, parse_docstring=True))["function"]
    mine = tool(fn, parse_docstring=True)
    assert mine.description == theirs["description"]
    descriptions = {k: v.get("description") for k, v in mine.json_schema()["properties"].items()}
    assert descriptions == {
        k: v.get("description") for k, v in theirs["parameters"]["properties"].items()
    }


def test_multi_paragraph_reading() -> None:
    made = tool(multi_paragraph, parse_docstring=True)
    assert made.description == "Get the forecast.\nFor one city. Uses the national service."
    assert (
        made.json_schema()["properties"]["city"]["description"]
        == "The city name, as written locally."
    )


def test_other_google_headers_are_accepted() -> None:
    def arguments(q: str) -> str:
        """Search.

        Arguments:
            q: The query.
        """
        return q

    assert (
        tool(arguments, parse_docstring=True).json_schema()["properties"]["q"]["description"]
        == "The query."
    )


def test_numpy_style() -> None:
    def forecast(city: str, days: int = 1) -> str:
        """Get the forecast.

        Parameters
        ----------
        city : str
            The city name.
        days : int
            How many days ahead.

        Returns
        -------
        str
            The forecast.
        """
        return city

    made = tool(forecast, parse_docstring=True)
    assert made.description == "Get the forecast."
    props = made.json_schema()["properties"]
    assert (props["city"]["description"], props["days"]["description"]) == (
        "The city name.",
        "How many days ahead.",
    )


def test_rest_style() -> None:
    def forecast(city: str, days: int = 1) -> str:
        """Get the forecast.

        :param city: The city name.
        :param days: How many days ahead.
        :returns: The forecast.
        """
        return city

    made = tool(forecast, parse_docstring=True)
    assert made.description == "Get the forecast."
    assert made.json_schema()["properties"]["days"]["description"] == "How many days ahead."


def test_rest_style_with_unknown_names_raises() -> None:
    def forecast(city: str) -> str:
        """Get the forecast.

        :param town: The city name.
        """
        return city

    with pytest.raises(tp.FunctionDefinitionError, match="it documents town"):
        tool(forecast, parse_docstring=True)


def test_docstring_wins_over_annotated_and_annotated_fills_in() -> None:
    def search(q: Annotated[str, "from Annotated"], n: Annotated[int, "how many"] = 3) -> str:
        """Search.

        Args:
            q: from the docstring
        """
        return q

    props = tool(search, parse_docstring=True).json_schema()["properties"]
    assert props["q"]["description"] == "from the docstring"
    assert props["n"]["description"] == "how many"


def test_without_parse_docstring_the_whole_docstring_is_the_description() -> None:
    made = tool(valid_docstring_1)
    assert made.description == "The foo.\n\nArgs:\n    bar: The bar.\n    baz: The baz."
    assert "description" not in made.json_schema()["properties"]["bar"]


def test_parse_docstring_with_args_schema_reads_the_description_only() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Args(pydantic.BaseModel):  # type: ignore[misc, name-defined]
        q: str

    def search(**kwargs: Any) -> str:
        """Search the web.

        More words.
        """
        return str(kwargs)

    made = tool(search, args_schema=Args, parse_docstring=True)
    assert made.description == "Search the web. More words."


def test_plain_adapter_gets_the_descriptions_too(pm: tp.PluginManager) -> None:
    made = tool(valid_docstring_1, parse_docstring=True, plugin_manager=pm)
    assert made.adapter is not None
    assert made.adapter.name == "plain"
    assert made.json_schema()["properties"]["bar"] == {"type": "string", "description": "The bar."}
