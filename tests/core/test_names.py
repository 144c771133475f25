"""Names and aliases: every provider's rule at export, and calls routed back to their tool."""

from __future__ import annotations

import re
from typing import Any

import pytest

import toolparse as tp
from toolparse import providers
from toolparse.providers import NameRule

# names in the style of a public function-calling benchmark's definitions
DOTTED = [
    "math.factorial",
    "math.gcd",
    "math.hypot",
    "geometry.area_circle",
    "geometry.calculate_area_triangle",
    "physics.calculate_force",
    "chemistry.calc_molecular_weight",
    "finance.calculate_quarterly_dividend_per_share",
    "finance.property_depreciation",
    "stock_market.get_stock_price",
    "sports.players.get_stats",
    "sports_ranking.get_top_player",
    "weather.forecast",
    "weather.get_by_coordinates",
    "calendar.add_event",
    "music.theory.chordProgression",
    "music_generator.generate_melody",
    "hotel_booking.book",
    "flight.search",
    "restaurant.find_nearby",
    "recipe.search",
    "translation.translate_text",
    "database.query",
    "file_system.read_file",
    "email.send",
    "maps.get_directions",
    "currency_conversion.convert",
    "biology.get_cell_info",
    "genetics.calculate_similarity",
    "history.get_event_date",
    "art_gallery.get_artwork",
    "lawsuit.search",
    "court_case.search",
    "real_estate.find_properties",
    "vehicle.check_emissions",
    "ecology.get_turtle_population",
    "statistics.calculate_mean",
    "stats.t_test",
    "algebra.quadratic_roots",
    "calculus.derivative",
    "linear_algebra.matrix_multiply",
    "game.score.highest",
    "board_game.chess.get_top_players",
    "social_media.post.schedule",
    "event_finder.find_upcoming",
    "team_stats.get_top_scorer",
    "cooking.conversion.convert",
    "a.very.long.namespace.with.many.segments.for_the_function_name_x",
    "another.very.long.dotted.name.that.is.exactly.at.the.limit.of.64",
    "ns.v2.tool-name.with-dashes",
]

RULES = {
    "openai": r"[a-zA-Z0-9_-]{1,64}",
    "openai-responses": r"[a-zA-Z0-9_-]{1,64}",
    "anthropic": r"[a-zA-Z0-9_-]{1,64}",
    "gemini": r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}",
    "mcp": r"[A-Za-z0-9._-]{1,128}",
}


def corpus() -> list[tp.Function]:
    def make(name: str) -> tp.Function:
        return tp.Function(
            name, lambda a: f"ran {name}", parameters=[tp.FunctionParam("x", "integer")]
        )

    return [make(name) for name in DOTTED]


def exported_names(tools: list[Any], provider: str) -> list[str]:
    if provider == "openai":
        return [t["function"]["name"] for t in tools]
    if provider == "gemini":
        return [d["name"] for d in tools[0]["functionDeclarations"]]
    return [t["name"] for t in tools]


def test_the_corpus_is_fifty_distinct_names_that_fit_a_function() -> None:
    assert len(DOTTED) == len(set(DOTTED)) == 50
    assert all(len(name) <= 64 for name in DOTTED)


@pytest.mark.parametrize("provider", sorted(RULES))
def test_every_dotted_name_exports_with_a_valid_name(provider: str) -> None:
    toolset = tp.Toolset(corpus())
    names: list[str] = []
    for start in range(0, 50, 25):  # OpenAI takes at most 128 tools a request
        part = tp.Toolset(list(toolset)[start : start + 25])
        names += exported_names(part.to_tools(provider), provider)
    assert len(set(names)) == 50
    assert all(re.fullmatch(RULES[provider], name) for name in names), names
    # the alias is readable: the dots became underscores
    if provider in ("openai", "anthropic"):
        assert names[0] == "math_factorial"


@pytest.mark.parametrize("provider", sorted(RULES))
def test_a_call_under_the_exported_name_routes_back(provider: str) -> None:
    fns = corpus()
    toolset = tp.Toolset(fns)
    for fn in fns:
        tool = providers.to_tool(fn, provider)
        exported = tool["function"]["name"] if provider == "openai" else tool["name"]
        call = tp.ToolCall("c1", exported, {"x": 1})
        for results in (
            toolset.execute([call]),
            tp.execute_tool_calls(fns, [call]),
            tp.execute_tool_calls(toolset, [call]),
        ):
            assert results[0].content == f"ran {fn.name}", (provider, exported)
        assert toolset.get(exported) is fn


def test_parse_tool_calls_maps_aliases_back_when_given_the_functions() -> None:
    fns = corpus()
    response = {
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "math_factorial", "arguments": '{"x": 5}'},
                        }
                    ],
                },
            }
        ]
    }
    (raw,) = providers.parse_tool_calls(response, "openai")
    assert raw.name == "math_factorial"
    (mapped,) = providers.parse_tool_calls(response, "openai", functions=fns)
    assert mapped.name == "math.factorial"
    (via_toolset,) = tp.Toolset(fns).parse_tool_calls(response, "openai")
    assert via_toolset == tp.ToolCall("call_1", "math.factorial", '{"x": 5}')


def test_an_over_long_alias_is_cut_with_a_stable_hash() -> None:
    rule = NameRule(
        "narrow",
        r"[a-z0-9_]{1,20}",
        "1 to 20 of a-z, 0-9 and _",
        invalid=r"[^a-z0-9_]",
        max_length=20,
    )
    first = rule.alias("abcdefghij.klmnopqrstuvwxyz")
    assert first == rule.alias("abcdefghij.klmnopqrstuvwxyz")  # stable
    assert len(first) == 20
    assert first.startswith("abcdefghij_")
    assert rule.alias("abcdefghij.klmnopqrstuvwxyZ") != first  # a different name, a different hash


def test_a_name_that_cannot_be_aliased_names_the_rule_and_the_provider() -> None:
    rule = NameRule(
        "strict-provider", r"[a-z]{1,10}", "1 to 10 of a-z"
    )  # "_" is not allowed either
    with pytest.raises(
        ValueError, match=r"not valid for openai-responses and cannot be aliased: 1 to 10 of a-z"
    ) as info:
        rule.alias("a.b", "openai-responses")
    assert "[a-z]{1,10}" in str(info.value)


def test_colliding_aliases_are_a_definition_error_naming_both() -> None:
    a = tp.Function("math.factorial", lambda a: "dotted")
    b = tp.Function("math_factorial", lambda a: "underscored")
    with pytest.raises(
        tp.FunctionDefinitionError, match=r"'math.factorial' and 'math_factorial'.*openai"
    ):
        tp.Toolset([a, b])
    with pytest.raises(ValueError, match=r"tools 'math.factorial' and 'math_factorial' would both"):
        providers.to_tools([a, b], "anthropic")
    # mcp allows dots: there the two names stay apart
    assert [t["name"] for t in providers.to_tools([a, b], "mcp")] == [
        "math.factorial",
        "math_factorial",
    ]


def test_an_exact_name_wins_over_an_alias_in_a_plain_list() -> None:
    a = tp.Function("math.factorial", lambda a: "dotted")
    b = tp.Function("math_factorial", lambda a: "underscored")
    (result,) = tp.execute_tool_calls([a, b], [tp.ToolCall("1", "math_factorial")])
    assert result.content == "underscored"


def test_a_renamed_copy_is_a_new_tool() -> None:
    replace = getattr(tp.Function, "replace", None)
    if replace is None:
        pytest.skip("Function.replace is not available")
    original = tp.Function("math.factorial", lambda a: "ran")
    copy = original.replace(name="factorial")
    assert (copy.name, original.name) == ("factorial", "math.factorial")
    (result,) = tp.Toolset([copy]).execute([tp.ToolCall("1", "factorial")])
    assert result.content == "ran"


def test_gemini_names_with_a_leading_digit_get_an_underscore_first() -> None:
    fn = tp.Function("3d.render", lambda a: "x")
    assert providers.to_tool(fn, "gemini")["name"] == "_3d.render"
    assert providers.to_tool(fn, "openai")["function"]["name"] == "3d_render"
    (result,) = tp.execute_tool_calls([fn], [tp.ToolCall("1", "_3d.render")])
    assert result.content == "x"
