"""``toolparse.messages`` is made of private modules and keeps every name it had.

The parts (the "did you mean" search, the names lists, an echoed value, an
exception's text) are imported into ``messages`` once, as the same objects:
a rejected call reaches them with no wrapper in between.
"""

from __future__ import annotations

import types

import pytest
from tests.conftest import Count

from toolparse import _exception_text, _names, _suggestions, _value_text, messages

PARTS = [_exception_text, _names, _suggestions, _value_text]

#: every name ``messages`` defined or imported before its parts moved out
NAMES = [
    "MAX_MESSAGE_CHARS",
    "MAX_PROBLEM_LINES",
    "MAX_VALUE_CHARS",
    "MAX_NAMES",
    "MAX_CANDIDATES",
    "MAX_EXCEPTION_CHARS",
    "UNEXPECTED_RESPONSE",
    "_MISSING_HEAD",
    "_UNRECOGNIZED_HEAD",
    "_NAMES_TAIL",
    "_INVALID_HEAD",
    "_INVALID_TAIL",
    "_ADDRESS_REPR",
    "_jaro",
    "_SWAP_SCORE",
    "_one_swap",
    "similarity",
    "did_you_mean",
    "suggestions",
    "nearest",
    "_annotated_text",
    "_NAME_LIMITS",
    "_fitted",
    "argument_keys",
    "unrecognized_names",
    "_lines",
    "missing_required",
    "unrecognized_only",
    "key_error",
    "duplicate_tool",
    "alias_clash",
    "names_text",
    "_closest",
    "cap",
    "unknown_tool",
    "invalid_json",
    "_JSON_KINDS",
    "not_an_object",
    "too_large",
    "too_deep",
    "timed_out",
    "no_worker",
    "value_text",
    "path_text",
    "invalid",
    "_names_block",
    "_ACCEPTED_TEXTS",
    "_REMEMBERED_NAMES",
    "_accepted_text",
    "fitted_invalid",
    "_invalid_text",
    "exception",
    "frame_text",
    "safe_text",
]


@pytest.mark.parametrize("name", NAMES)
def test_messages_keeps_every_name(name: str) -> None:
    assert hasattr(messages, name)


@pytest.mark.parametrize("part", PARTS, ids=lambda m: m.__name__)
def test_each_part_is_the_same_object_in_messages(part: types.ModuleType) -> None:
    for name in part.__all__:
        assert getattr(messages, name) is getattr(part, name), name


def test_the_private_parts_are_the_same_objects_too() -> None:
    for part, name in [
        (_suggestions, "_jaro"),
        (_suggestions, "_one_swap"),
        (_suggestions, "_closest"),
        (_suggestions, "_SWAP_SCORE"),
        (_names, "_annotated_text"),
        (_exception_text, "_ADDRESS_REPR"),
    ]:
        assert getattr(messages, name) is getattr(part, name), name


@pytest.mark.parametrize("part", PARTS, ids=lambda m: m.__name__)
def test_each_part_says_what_it_is_and_exports_what_it_lists(part: types.ModuleType) -> None:
    assert part.__doc__
    assert "toolparse.messages" in part.__doc__
    for name in part.__all__:
        assert hasattr(part, name), name


def test_the_public_names_are_unchanged() -> None:
    assert messages.__all__ == [
        "MAX_MESSAGE_CHARS",
        "MAX_PROBLEM_LINES",
        "MAX_VALUE_CHARS",
        "did_you_mean",
        "similarity",
        "value_text",
    ]


def test_the_search_counts_its_own_comparisons(comparisons: Count) -> None:
    # the fixture patches similarity where the search looks it up
    found = messages.suggestions(["kye"], ["key", "value"], [])
    assert found == {"kye": "key"}
    assert comparisons.count == 2
