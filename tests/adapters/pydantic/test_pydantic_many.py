"""Many problems: the lines the message shows are built, the rest counted, the text unchanged."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

import toolparse as tp
from toolparse_pydantic._mapper import SHOWN, Mapper


class Sub(BaseModel):
    a: int


# one field of each kind the mapping treats apart: fixed words, a bound (its
# reason read from the context), a list, a union (two errors, one line), a
# nested model, a choice; (field type, a valid value, a wrong value)
KINDS: list[tuple[Any, Any, Any]] = [
    (int, 1, "x"),
    (Annotated[int, Field(gt=0)], 1, 0),
    (list[int], [1], [1, "y", "z"]),
    (int | bool, 1, "maybe"),
    (Sub, {"a": 1}, {"a": "q"}),
    (Literal["a", "b"], "a", "c"),
    (Annotated[str, Field(min_length=2)], "ab", "a"),
]
WIDTH = 42  # six of each kind: more lines than the message shows


def _wide(forbid: bool) -> type[BaseModel]:
    fields: dict[str, Any] = {f"f{i}": (KINDS[i % len(KINDS)][0], ...) for i in range(WIDTH)}
    config = ConfigDict(extra="forbid") if forbid else None
    return create_model(f"Wide{int(forbid)}", __config__=config, **fields)


WIDE = {False: _wide(False), True: _wide(True)}


def _sent(actions: list[str], extra: int) -> dict[str, Any]:
    sent: dict[str, Any] = {}
    for i, action in enumerate(actions):
        _, good, bad = KINDS[i % len(KINDS)]
        if action != "missing":
            sent[f"f{i}"] = good if action == "valid" else bad
    sent.update({f"extra_{j}": j for j in range(extra)})
    return sent


def _rendered(found: list[tp.ArgumentProblem], more: int, sent: dict[str, Any]) -> tp.Error:
    return tp.invalid_arguments(
        found, arguments=sent, accepted=[f"f{i}" for i in range(WIDTH)], more=more
    )


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    actions=st.lists(
        st.sampled_from(["valid", "wrong", "wrong", "missing"]), min_size=WIDTH, max_size=WIDTH
    ),
    extra=st.integers(0, 3),
    forbid=st.booleans(),
)
def test_counting_past_the_lines_shown_reads_the_same_as_building_every_problem(
    actions: list[str], extra: int, forbid: bool
) -> None:
    model = WIDE[forbid]
    sent = _sent(actions, extra)
    try:
        model.model_validate(sent)
    except ValidationError as exc:
        caught = exc
    else:
        return
    counting = Mapper()
    every, none_left = Mapper(shown=10**9)(caught, sent)
    assert none_left == 0
    # twice: the second time the remembered reasons answer
    for _ in range(2):
        found, more = counting(caught, sent)
        ours = _rendered(found, more, sent)
        full = _rendered(every, 0, sent)
        assert ours.message == full.message
        assert isinstance(ours.exception, tp.InvalidArguments)
        assert isinstance(full.exception, tp.InvalidArguments)
        assert len(ours.exception.problems) + more == len(full.exception.problems)
        # what is kept is what the full list starts with, plus what it holds deeper
        assert set(ours.exception.problems) <= set(full.exception.problems)


def test_three_hundred_wrong_fields_build_the_twenty_lines_shown_and_count_the_rest() -> None:
    model = create_model("Wide300", **{f"field_{i}": (int, ...) for i in range(300)})  # type: ignore[call-overload]
    fn = tp.Function("wide", lambda arguments: "ok", args_schema=model)
    result = fn.execute({f"field_{i}": "x" for i in range(300)})
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert lines[2:4] == [
        'field_0: must be an integer (received "x")',
        'field_1: must be an integer (received "x")',
    ]
    assert lines[21] == 'field_19: must be an integer (received "x")'
    assert lines[22] == "... and 280 more"
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    assert len(exc.problems) == SHOWN
    assert exc.more == 280


def test_missing_and_unknown_names_past_the_lines_shown_are_all_named() -> None:
    model = create_model(
        "Named",
        __config__=ConfigDict(extra="forbid"),
        **{f"n{i}": (int, ...) for i in range(40)},  # type: ignore[call-overload]
    )
    fn = tp.Function("named", lambda arguments: "ok", args_schema=model)
    sent: dict[str, Any] = {f"n{i}": "x" for i in range(30)}  # n30..n39 missing
    sent["zzz"] = 1
    result = fn.execute(sent)
    assert isinstance(result, tp.Error)
    lines = result.message.splitlines()
    assert "... and 10 more" in lines
    assert "Missing parameters: " + ", ".join(f"n{i}" for i in range(30, 40)) in lines
    assert "Unrecognized parameters: zzz" in lines
    exc = result.exception
    assert isinstance(exc, tp.InvalidArguments)
    assert exc.more == 10


class _Recording:
    """A ValidationError's stand-in that records how its errors are read."""

    def __init__(self, exc: ValidationError) -> None:
        self.exc = exc
        self.reads: list[bool] = []

    def error_count(self) -> int:
        return self.exc.error_count()

    def errors(self, **options: Any) -> Any:
        self.reads.append(options["include_context"])
        return self.exc.errors(**options)


def test_the_context_of_many_errors_is_read_only_until_their_reasons_are_remembered() -> None:
    model = create_model(
        "Bounded",
        **{f"b{i}": (Annotated[int, Field(gt=i)], ...) for i in range(30)},  # type: ignore[call-overload]
    )
    sent = {f"b{i}": -1 for i in range(30)}
    try:
        model.model_validate(sent)
    except ValidationError as exc:
        caught = exc
    mapper = Mapper()
    first = _Recording(caught)
    found, more = mapper(first, sent)
    assert first.reads == [False, True]  # the context once, for the reasons not yet known
    assert [p.reason for p in found[:2]] == ["must be greater than 0", "must be greater than 1"]
    assert more == 10
    again = _Recording(caught)
    assert mapper(again, sent) == (found, more)
    assert again.reads == [False]
    # a few errors (all shown) are read once, with their context
    few = {f"b{i}": (-1 if i < 3 else 99) for i in range(30)}
    try:
        model.model_validate(few)
    except ValidationError as exc:
        small = _Recording(exc)
    found, more = mapper(small, few)
    assert small.reads == [True]
    assert [p.reason for p in found] == [f"must be greater than {i}" for i in range(3)]
    assert more == 0


def test_a_second_error_at_one_key_past_the_lines_shown_is_counted_only_if_it_reads_otherwise() -> (
    None
):
    # pydantic reports one error per place, but a validator can raise a
    # ValidationError of its own with several at one key: counted as built
    sent = {f"k{i}": "x" for i in range(30)}
    errors: list[dict[str, Any]] = [
        {"type": "int_parsing", "loc": (f"k{i}",), "msg": "m", "input": "x"} for i in range(30)
    ]
    errors += [
        {"type": "int_parsing", "loc": ("k25",), "msg": "m", "input": "x"},  # a repeat
        {"type": "bool_parsing", "loc": ("k25",), "msg": "m", "input": "x"},  # reads otherwise
        {"type": "int_parsing", "loc": ("k3",), "msg": "m", "input": "x"},  # repeats a shown one
        {"type": "string_type", "loc": ("k3",), "msg": "m", "input": "x"},  # reads otherwise
    ]
    found, more = Mapper().map(errors, sent)
    every, _ = Mapper(shown=10**9).map(errors, sent)
    accepted = list(sent)
    ours = tp.invalid_arguments(found, arguments=sent, accepted=accepted, more=more)
    full = tp.invalid_arguments(every, arguments=sent, accepted=accepted)
    assert ours.message == full.message
    assert "... and 12 more" in ours.message.splitlines()
