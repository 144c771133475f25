"""One voice: pydantic 2 and ``pydantic.v1`` errors read in the shared words of the adapter SDK."""

from __future__ import annotations

import datetime
import enum
import uuid
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import (
    AnyUrl,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
)

import toolparse as tp
from toolparse.testing import ONE_VOICE, OneVoice, one_voice_message

from .models_v1 import V1_ONE_VOICE, LegacyVoice
from .voice import SOURCES


class Shade(enum.Enum):
    red = "red"
    blue = "blue"


class Inner(BaseModel):
    n: int


class Voice(BaseModel):
    """The same fields as ``LegacyVoice``, in pydantic 2."""

    model_config = ConfigDict(extra="forbid")

    count: int
    price: float
    name: str
    flag: bool
    meta: dict[str, Any]
    tags: list[str]
    at_least: int = Field(ge=1)
    above: int = Field(gt=0)
    at_most: float = Field(le=5)
    below: float = Field(lt=5)
    triple: int = Field(multiple_of=3)
    code: str = Field(min_length=3)
    short: str = Field(max_length=2)
    upper: str = Field(pattern=r"^[A-Z]+$")
    pair: list[int] = Field(min_length=2)
    single: list[int] = Field(max_length=1)
    shade: Shade
    unit: Literal["c", "f"]
    day: datetime.date
    when: datetime.datetime
    alarm: datetime.time
    wait: datetime.timedelta
    ident: uuid.UUID
    link: AnyUrl
    inner: Inner
    inners: list[Inner]
    label: str = ""
    needed: int

    @field_validator("label")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if value and not value.strip():
            raise ValueError("must not be blank")
        return value


WRONG: dict[str, Any] = {
    "count": "x",
    "price": "x",
    "name": [1],
    "flag": "maybe",
    "meta": 1,
    "tags": 1,
    "at_least": 0,
    "above": 0,
    "at_most": 6,
    "below": 5,
    "triple": 4,
    "code": "a",
    "short": "abc",
    "upper": "abc",
    "pair": [1],
    "single": [1, 2],
    "shade": "green",
    "unit": "k",
    "day": "nope",
    "when": "nope",
    "alarm": "nope",
    "wait": "nope",
    "ident": "nope",
    "link": "nope",
    "inner": {"n": "x"},
    "inners": [{"n": 1}, {}],
    "label": " ",
    "extra_key": 1,
}

VALID: dict[str, Any] = {
    "count": 1,
    "price": 1.5,
    "name": "a",
    "flag": True,
    "meta": {},
    "tags": [],
    "at_least": 1,
    "above": 1,
    "at_most": 5,
    "below": 4,
    "triple": 3,
    "code": "abc",
    "short": "ab",
    "upper": "ABC",
    "pair": [1, 2],
    "single": [1],
    "shade": "red",
    "unit": "c",
    "day": "2024-01-31",
    "when": "2024-01-31T09:30:00Z",
    "alarm": "09:30:00",
    "wait": "P3D",
    "ident": "123e4567-e89b-12d3-a456-426614174000",
    "link": "https://example.com/page",
    "inner": {"n": 1},
    "inners": [],
    "label": "x",
}

#: the shared words (MESSAGES.md, "One vocabulary"), field by field
SHARED = [
    'count: must be an integer (received "x")',
    'price: must be a number (received "x")',
    "name: must be a string (received [1])",
    'flag: must be true or false (received "maybe")',
    "meta: must be an object (received 1)",
    "tags: must be a list (received 1)",
    "at_least: must be at least 1 (received 0)",
    "above: must be greater than 0 (received 0)",
    "at_most: must be at most 5 (received 6)",
    "below: must be less than 5 (received 5)",
    "triple: must be a multiple of 3 (received 4)",
    'code: must be at least 3 characters long (received "a")',
    'short: must be at most 2 characters long (received "abc")',
    'upper: must match the pattern ^[A-Z]+$ (received "abc")',
    "pair: must have at least 2 items (received [1])",
    "single: must have at most 1 item (received [1, 2])",
    'shade: must be one of: "red", "blue" (received "green")',
    'unit: must be one of: "c", "f" (received "k")',
    'day: must be a date like "2024-01-31" (received "nope")',
    'when: must be a date-time like "2024-01-31T09:30:00Z" (RFC 3339) (received "nope")',
    'alarm: must be a time like "09:30:00Z" (received "nope")',
    'wait: must be a duration like "P3DT4H" (received "nope")',
    'ident: must be a UUID like "123e4567-e89b-12d3-a456-426614174000" (received "nope")',
    'link: must be an absolute URI (a scheme, a colon, then the rest) (received "nope")',
    'inner.n: must be an integer (received "x")',
    "inners[1].n: is required",
    'label: must not be blank (received " ")',
    "Missing parameters: needed",
    "Unrecognized parameters: extra_key",
]


def lines(source: Any, arguments: dict[str, Any]) -> list[str]:
    result = tp.Function("tool", lambda a: "done", args_schema=source).execute(arguments)
    assert isinstance(result, tp.Error)
    message = result.message.splitlines()
    assert message[-1] == "Fix these arguments and call the tool again."
    return [line for line in message[2:-2] if not line.startswith("Accepted parameters:")]


def test_v1_and_v2_read_the_same_in_the_shared_words() -> None:
    # in two calls: one message shows at most 20 problem lines
    names = list(WRONG)
    first = {**VALID, "needed": 1, **{name: WRONG[name] for name in names[:14]}}
    rest = {**VALID, **{name: WRONG[name] for name in names[14:]}}  # "needed" missing
    for wrong, shared in ((first, SHARED[:14]), (rest, SHARED[14:])):
        assert lines(Voice, wrong) == shared
        assert lines(LegacyVoice, wrong) == shared


@pytest.mark.parametrize(("field", "line"), list(zip(list(WRONG)[:-1], SHARED, strict=False)))
def test_each_wrong_field_alone_reads_the_same(field: str, line: str) -> None:
    one = {field: WRONG[field]}
    v2 = lines(Voice, one)
    assert line in v2
    assert v2 == lines(LegacyVoice, one)


@pytest.mark.parametrize("check", ONE_VOICE, ids=lambda check: check.key)
def test_the_kits_wrong_calls_read_the_same_under_v1(check: OneVoice) -> None:
    # the conformance kit's one-voice checks (run on pydantic 2 models by the
    # kit itself), on the same declarations in pydantic.v1
    # every declaration the pydantic 2 case gives the kit has its v1 twin
    assert set(V1_ONE_VOICE) == set(SOURCES), set(SOURCES) ^ set(V1_ONE_VOICE)
    fn = tp.Function("tool", lambda a: "x", args_schema=V1_ONE_VOICE[check.key])
    assert fn.execute({"value": check.right}) == tp.Ok("x")
    result = fn.execute(check.arguments)
    assert isinstance(result, tp.Error)
    assert result.message == one_voice_message(check)


def test_a_union_reads_the_same_under_v1() -> None:
    from .models_v1 import LegacyEither

    class Either(BaseModel):
        value: int | str
        items: list[int] | dict[str, int] = []

    wrong = {"value": [1], "items": "x"}
    assert lines(LegacyEither, wrong) == lines(Either, wrong)


_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
_JSON = st.recursive(
    _LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
#: the shared words' openings (and the validator's own words)
_SHARED_OPENINGS = ("must ", "is required", "is not accepted")
#: pydantic.v1 says "none is not an allowed value" for a null inside a list
#: without naming the type it wanted: no shared words can be chosen for it
_V1_GAP = "none is not an allowed value"


def _at(data: Any, path: tuple[str | int, ...]) -> bool:
    for part in path[:-1]:
        in_list = isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)
        if not in_list and not (isinstance(data, dict) and part in data):
            return False
        data = data[part]
    return True


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(list(WRONG)), _JSON, max_size=6))
def test_whatever_the_model_sends_reads_in_the_shared_words(changed: dict[str, Any]) -> None:
    arguments = {**VALID, "needed": 1, **changed}
    for source in (Voice, LegacyVoice):
        result = tp.Function("tool", lambda a: "x", args_schema=source).execute(arguments)
        if isinstance(result, tp.Ok):
            continue
        assert isinstance(result.exception, tp.InvalidArguments), result
        for problem in result.exception.problems:
            assert problem.reason.startswith(_SHARED_OPENINGS) or problem.reason in (
                "must not be blank",
                _V1_GAP,
            ), (source.__name__, problem)
            # the path leads into what was sent (its last step may be a name left out)
            assert _at(arguments, problem.path), (source.__name__, problem)
