"""``toolparse.adapter.KeptForms``: an adapter's compiled forms kept for the tools defined after the first."""

from __future__ import annotations

import pytest
from tests.conftest import race

import toolparse as tp
from toolparse.adapter import Compiled, KeptForms


def _compiled(name: str = "a") -> Compiled:
    schema = {"type": "object", "properties": {name: {"type": "array", "items": {"enum": [1]}}}}
    return Compiled(
        schema, lambda args: tp.Ok(args), accepted=[name], required=[], nulls_after_reject=True
    )


def test_a_kept_form_is_handed_out_as_each_tool_s_own_copy() -> None:
    kept = KeptForms()
    original = _compiled()
    first = kept.keep(("A", "report"), original)
    second = kept.get(("A", "report"))
    assert second is not None
    for copy in (first, second):
        assert copy.schema == original.schema
        assert copy.schema is not original.schema
        # containers at every level are the tool's own
        assert (
            copy.schema["properties"]["a"]["items"]
            is not (original.schema["properties"]["a"]["items"])
        )
        assert copy.parser is original.parser
        assert (copy.accepted, copy.required) == (("a",), ())
        assert copy.key == ("A", "report")
        assert copy.nulls_after_reject is True
    first.schema["properties"]["a"]["items"]["enum"].append(2)
    assert second.schema["properties"]["a"]["items"]["enum"] == [1]


def test_a_tool_that_asks_for_no_parser_gets_none_and_the_parser_is_still_kept() -> None:
    kept = KeptForms()
    original = _compiled()
    assert kept.keep("k", original, parser=False).parser is None
    again = kept.get("k", parser=True)
    assert again is not None
    assert again.parser is original.parser
    assert kept.get("other") is None


def test_the_least_recently_used_goes_past_the_limit() -> None:
    kept = KeptForms(limit=2)
    kept.keep("a", _compiled("a"))
    kept.keep("b", _compiled("b"))
    assert kept.get("a") is not None  # "a" used last: "b" goes next
    kept.keep("c", _compiled("c"))
    assert len(kept) == 2
    assert "a" in kept
    assert "c" in kept
    assert "b" not in kept


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="limit must be at least 1"):
        KeptForms(limit=0)


def test_many_threads_keep_the_limit() -> None:
    kept = KeptForms(limit=50)

    def keep(start: int) -> None:
        for i in range(start, 400, 8):
            assert kept.keep(i, _compiled()).key == i
            kept.get(i - 8)

    race(keep)
    assert len(kept) == 50
