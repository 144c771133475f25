"""A problem's place and line read by the rule, however their text is joined."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse.messages import MAX_VALUE_CHARS, path_text, safe_text, value_text

_BOUNDED = settings(max_examples=300, deadline=None, derandomize=True)


class _Name(str):
    """A key that is text of its own class, read otherwise by ``str()``."""

    def __str__(self) -> str:
        return "shown-by-str"


def _reference(path: Sequence[object]) -> str:
    # the rule spelled out: names after a dot (not the first), indexes in brackets
    if not path:
        return "(arguments)"
    out: list[str] = []
    for part in path:
        if isinstance(part, str):
            out.append(f".{part}" if out else part)
        elif isinstance(part, int):
            out.append(f"[{part}]")
        else:
            text = safe_text(repr(part), MAX_VALUE_CHARS)
            out.append(f".{text}" if out else text)
    return "".join(out)


_part = (
    st.text(max_size=4)
    | st.integers(-5, 10**6)
    | st.booleans()
    | st.none()
    | st.builds(_Name, st.text(max_size=3))
    | st.tuples(st.integers(0, 3))
)


@_BOUNDED
@given(path=st.lists(_part, max_size=5))
def test_a_path_reads_as_the_rule(path: list[object]) -> None:
    assert path_text(path) == _reference(path)  # type: ignore[arg-type]
    assert path_text(tuple(path)) == _reference(path)  # type: ignore[arg-type]


def test_an_empty_name_is_a_place_too() -> None:
    assert path_text(("", "a")) == ".a"
    assert path_text(("", 0, "")) == "[0]."
    assert path_text(("items", 0, "qty")) == "items[0].qty"
    assert path_text((_Name("key"), _Name("key"))) == "key.shown-by-str"
    assert path_text((None, "a")) == "None.a"
    assert path_text(()) == "(arguments)"


_value = (
    st.text(max_size=45)
    | st.sampled_from(['say "hi"', "a\\b", "tab\there", "x" * 38, "x" * 39, _Name("k")])
    | st.integers()
    | st.none()
    | st.floats()
)


@_BOUNDED
@given(
    path=st.lists(_part, max_size=3),
    reason=st.text(max_size=20).filter(str.isprintable),
    received=st.just(tp.NOT_GIVEN) | _value,
)
def test_a_line_reads_as_its_place_reason_and_echoed_value(
    path: list[object], reason: str, received: object
) -> None:
    line = tp.ArgumentProblem(path, reason, received).line()  # type: ignore[arg-type]
    head = f"{_reference(path)}: {reason}"
    assert line == (
        head if received is tp.NOT_GIVEN else f"{head} (received {value_text(received)})"
    )
