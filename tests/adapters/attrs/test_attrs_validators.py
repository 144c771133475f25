"""attrs validators: what each says to the model, and how often each runs in one call."""

import collections
import re
from collections.abc import Callable
from typing import Any

import attrs
import cattrs
import pytest
from attrs import validators as v
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse_attrs import using


def lines(source: Any, arguments: Any) -> list[str]:
    """The problem lines of the one error message."""
    result = tp.Function("t", lambda a: "x", args_schema=source).execute(arguments)
    assert isinstance(result, tp.Error), result
    return result.message.split("\n\n")[1].splitlines()


def one_field(validator: Any, annotation: Any = Any, default: Any = attrs.NOTHING) -> type:
    return attrs.make_class(
        "Model", {"x": attrs.field(type=annotation, validator=validator, default=default)}
    )


class Thing:
    pass


def _reject_sevens(instance: Any, attribute: Any, value: Any) -> None:
    if value == 7:
        # a message of your own, with the reprs a programmer writes
        raise ValueError(f"{value!r} is a {type(value)}, not allowed {object()}\nsecond line")


def is_even(instance: Any, attribute: Any, value: Any) -> None:
    if value % 2:
        raise ValueError("odd")


def or_(*validators: Any) -> Any:
    """attrs' ``or_`` (``None`` before attrs 24.1, which has none: its cases are skipped)."""
    return v.or_(*validators) if hasattr(v, "or_") else None


def _delegating(instance: Any, attribute: Any, value: Any) -> None:
    v.ge(10)(instance, attribute, value)


# -- every kind in the shared words ------------------------------------------------------

CASES: list[tuple[str, Any, Any, Any, str]] = [
    ("instance_of", v.instance_of(int), Any, "a", 'must be an integer (received "a")'),
    ("instance_of tuple", v.instance_of((int, str)), Any, 1.5, "must be an integer or a string"),
    ("instance_of list", v.instance_of(list), Any, "a", "must be a list"),
    ("instance_of dict", v.instance_of(dict), Any, 1, "must be an object"),
    ("instance_of class", v.instance_of(Thing), Any, 1, 'must be of type "Thing"'),
    ("in_", v.in_(["s", "m"]), str, "xl", 'must be one of: "s", "m" (received "xl")'),
    ("in_ one", v.in_([3]), int, 4, "must be 3 (received 4)"),
    ("in_ set", v.in_({1}), int, 2, "must be 1"),
    ("in_ string", v.in_("abc"), str, "z", 'must be part of "abc"'),
    ("matches_re", v.matches_re(r"[A-Z]{3}"), str, "ab", "must match the pattern [A-Z]{3}"),
    ("gt", v.gt(0), int, 0, "must be greater than 0 (received 0)"),
    ("ge", v.ge(1), int, 0, "must be at least 1 (received 0)"),
    ("lt", v.lt(5), int, 5, "must be less than 5 (received 5)"),
    ("le", v.le(5), float, 5.5, "must be at most 5 (received 5.5)"),
    ("min_len str", v.min_len(2), str, "a", 'must be at least 2 characters long (received "a")'),
    ("max_len str", v.max_len(1), str, "ab", "must be at most 1 character long"),
    ("min_len list", v.min_len(1), list[int], [], "must have at least 1 item (received [])"),
    ("max_len list", v.max_len(1), list[int], [1, 2], "must have at most 1 item"),
    ("optional type", v.optional(v.instance_of(int)), Any, "a", "must be an integer or null"),
    ("optional bound", v.optional(v.ge(1)), int | None, 0, "must be at least 1 (received 0)"),
    ("and_", v.and_(v.ge(0), v.le(5)), int, 9, "must be at most 5 (received 9)"),
    ("or_", or_(v.in_([1, 2]), v.gt(10)), int, 5, "must be one of: 1, 2, or greater than 10"),
    (
        "or_ types",
        or_(v.instance_of(int), v.instance_of(str)),
        Any,
        1.5,
        "must be an integer or a string",
    ),
    (
        "or_ verbs",
        or_(v.matches_re("^a"), v.min_len(5)),
        str,
        "bb",
        "must match the pattern ^a or be at least 5 characters long",
    ),
    (
        "or_ with yours",
        or_(v.instance_of(str), is_even),
        Any,
        3,
        'must be a string or pass the check "is_even"',
    ),
    (
        "or_ nested",
        or_(v.optional(v.ge(5)), v.and_(v.ge(0), v.le(1))),
        int,
        3,
        "must be null or at least 5, or at least 0 and at most 1",
    ),
    ("not_", v.not_(v.in_(["admin"])), str, "admin", 'must not be "admin" (received "admin")'),
    ("not_ pattern", v.not_(v.matches_re("x.*")), str, "xy", "must not match the pattern x.*"),
    (
        "not_ msg",
        v.not_(v.in_(["root"]), msg="that name is reserved"),
        str,
        "root",
        "that name is reserved",
    ),
    ("not_ yours", v.not_(is_even), int, 4, 'must not pass the check "is_even"'),
    ("not_ lambda", v.not_(lambda i, a, x: None), int, 4, "is not allowed"),
    ("is_callable", v.is_callable(), Any, 3, "must be callable (received 3)"),
    ("yours", _reject_sevens, int, 7, "7 is a int, not allowed <object object> (received 7)"),
    # its own exception's message, which here is attrs' (no frame is read to find who raised)
    ("yours, handing to attrs", _delegating, int, 3, "'x' must be >= 10: 3 (received 3)"),
]


@pytest.mark.parametrize(
    ("validator", "annotation", "sent", "expected"),
    [
        pytest.param(*case[1:], marks=pytest.mark.skipif(case[1] is None, reason="no or_"))
        for case in CASES
    ],
    ids=[case[0] for case in CASES],
)
def test_each_validator_reads_in_the_shared_words(
    validator: Any, annotation: Any, sent: Any, expected: str
) -> None:
    (line,) = lines(one_field(validator, annotation), {"x": sent})
    assert line.startswith(f"x: {expected}"), line


def test_deep_iterable_names_each_item_and_the_collection() -> None:
    model = one_field(v.deep_iterable(v.instance_of(int), v.max_len(2)), list[Any])
    assert lines(model, {"x": [1, "a", 2.5]}) == [
        'x: must have at most 2 items (received [1, "a", 2.5])'
    ]
    assert lines(model, {"x": ["a", 1]}) == ['x[0]: must be an integer (received "a")']


def test_deep_mapping_names_keys_values_and_the_mapping() -> None:
    model = one_field(v.deep_mapping(v.matches_re("[a-z]+"), v.ge(0), v.max_len(3)), dict[str, int])
    assert lines(model, {"x": {"ok": 1, "BAD": -1}}) == [
        'x.BAD: must match the pattern [a-z]+ (received "BAD")',
        "x.BAD: must be at least 0 (received -1)",
    ]
    assert lines(model, {"x": {"a": 1, "b": 2, "c": 3, "d": -4}})[0] == (
        'x: must have at most 3 items (received {"a": 1, "b": 2, "c": 3, "d": -4})'
    )


_RAW = re.compile(
    r"<class |<\w+ validator|None of|satisfied for value| at 0x|must be [<>]=|'\w+' must"
)


@attrs.define
class Everything:
    a: int = attrs.field(default=1, validator=[v.ge(0), v.lt(10)])
    b: Any = attrs.field(default=None, validator=v.optional(v.instance_of((int, str))))
    c: str = attrs.field(default="s", validator=v.in_(["s", "m", "l"]))
    d: str = attrs.field(default="AB", validator=[v.matches_re("[A-Z]+"), v.max_len(4)])
    e: Any = attrs.field(default=1, validator=or_(v.instance_of(bool), v.in_([1, 2])) or v.in_([1]))
    f: list[Any] = attrs.field(factory=list, validator=v.deep_iterable(v.instance_of(int)))
    g: Any = attrs.field(default="x", validator=v.not_(v.instance_of(int)))
    h: Any = attrs.field(default=0, validator=_reject_sevens)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.sampled_from("abcdefgh"), JSON, max_size=8))
def test_no_attrs_text_or_repr_ever_reaches_the_model(arguments: dict[str, Any]) -> None:
    result = tp.Function("t", lambda a: "x", args_schema=Everything).execute(arguments)
    if isinstance(result, tp.Error):
        assert not _RAW.search(result.message), result.message


# -- how often each validator runs ----------------------------------------------------
# A valid call runs each validator once, in __init__. A rejected one runs the
# validators of each class that failed once more, to name every problem: so
# at most twice what __init__ alone would run, and never a validator of a
# field that could not be structured.

calls: collections.Counter[str] = collections.Counter()


def counter(name: str) -> Callable[..., Any]:
    """A validator of yours that counts its runs (beside the attrs validator it counts for)."""

    def count(instance: Any, attribute: Any, value: Any) -> None:
        calls[name] += 1

    return count


def counted(name: str, inner: Any) -> Any:
    """``inner`` (an attrs validator, its words kept), its runs counted."""
    return v.and_(counter(name), inner)


def converted(name: str, convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def run(value: Any) -> Any:
        calls[name] += 1
        return convert(value)

    return run


def assert_runs(once: dict[str, int]) -> None:
    """Each counted check ran between ``once`` (as __init__ alone would) and twice that."""
    for name in {*once, *calls}:
        assert once.get(name, 0) <= calls[name] <= 2 * once.get(name, 0), (name, dict(calls))


@attrs.define
class Item:
    qty: int = attrs.field(validator=counted("qty", v.ge(1)))


@attrs.define
class Counted:
    code: str = attrs.field(
        validator=[counted("pattern", v.matches_re("[A-Z]+")), counted("length", v.min_len(2))]
    )
    age: int = attrs.field(validator=counted("age", v.ge(0)))
    nums: list[int] = attrs.field(
        factory=list,
        validator=v.deep_iterable(counted("num", v.ge(0)), counted("nums", v.max_len(5))),
    )
    tags: dict[str, int] = attrs.field(
        factory=dict,
        validator=v.deep_mapping(counted("key", v.matches_re("[a-z]+")), counted("value", v.ge(0))),
    )
    items: list[Item] = attrs.field(factory=list)
    opt: int | None = attrs.field(default=None, validator=v.optional(counted("opt", v.ge(1))))
    last: int = attrs.field(default=0, validator=counted("last", v.le(5)))


ONCE = {"pattern": 1, "length": 1, "age": 1, "nums": 1, "last": 1}


@pytest.mark.parametrize(
    ("arguments", "expected", "runs"),
    [
        ({"code": "AB", "age": 1, "nums": [1], "tags": {"a": 1}, "opt": 2}, None,
         {**ONCE, "num": 1, "key": 1, "value": 1, "opt": 1}),
        ({"code": "abc", "age": -1}, ['code: must match the pattern [A-Z]+ (received "abc")',
                                      "age: must be at least 0 (received -1)"], ONCE),
        ({"code": "A", "age": 1, "nums": [1, -1, 2, -3], "last": 9},
         ['code: must be at least 2 characters long (received "A")', "nums[1]: must be at least 0 (received -1)",
          "nums[3]: must be at least 0 (received -3)", "last: must be at most 5 (received 9)"],
         {**ONCE, "num": 4}),
        ({"code": "AB", "age": 1, "tags": {"a": 1, "b": -1, "C": 2}},
         ["tags.b: must be at least 0 (received -1)", 'tags.C: must match the pattern [a-z]+ (received "C")'],
         {**ONCE, "key": 3, "value": 3}),
        ({"code": "AB", "age": 1, "opt": 0}, ["opt: must be at least 1 (received 0)"], {**ONCE, "opt": 1}),
        # a type error first: __init__ never runs, the nested items are not structured twice
        ({"code": "AB", "age": "x", "items": [{"qty": 1}, {"qty": 2}], "nums": [-1]},
         ['age: must be an integer (received "x")', "nums[0]: must be at least 0 (received -1)"],
         {**ONCE, "age": 0, "num": 1, "qty": 2}),
        ({"code": "AB", "age": 1, "items": [{"qty": 0}, {"qty": 2}], "last": 6},
         ["items[0].qty: must be at least 1 (received 0)", "last: must be at most 5 (received 6)"],
         {**ONCE, "qty": 2}),
    ],
    ids=["valid", "first-fails", "and-and-items", "mapping", "optional", "type-error", "nested"],
)  # fmt: skip
def test_each_validator_runs_at_most_twice_per_call(
    arguments: dict[str, Any], expected: list[str] | None, runs: dict[str, int]
) -> None:
    calls.clear()
    result = tp.Function("t", lambda a: "x", args_schema=Counted).execute(arguments)
    if expected is None:
        assert result == tp.Ok("x")
        assert dict(calls) == {k: n for k, n in runs.items() if n}  # once each
    else:
        assert isinstance(result, tp.Error)
        assert result.message.split("\n\n")[1].splitlines() == expected
        assert_runs(runs)


@attrs.define
class Converted:
    a: Any = attrs.field(converter=converted("convert a", int), validator=counted("a", v.ge(0)))
    b: Any = attrs.field(converter=converted("convert b", int), validator=counted("b", v.ge(0)))
    c: Any = attrs.field(
        default="3", converter=converted("convert c", int), validator=counted("c", v.ge(0))
    )

    def __attrs_post_init__(self) -> None:
        calls["post-init"] += 1
        if self.a == 99:
            raise ValueError("99 is reserved")


CONVERTERS = {"convert a": 1, "convert b": 1, "convert c": 1}


@pytest.mark.parametrize(
    ("arguments", "expected", "runs"),
    [
        ({"a": "-1", "b": "x", "c": "-1"},
         ['a: must be at least 0 (received "-1")', "b: invalid literal for int() with base 10: 'x' (received \"x\")",
          'c: must be at least 0 (received "-1")'],
         {**CONVERTERS, "a": 1, "c": 1}),
        ({"a": "1", "b": "-2"}, ['b: must be at least 0 (received "-2")'], {**CONVERTERS, "a": 1, "b": 1, "c": 1}),
        ({"a": "99", "b": "1"}, ["(arguments): 99 is reserved"],
         {**CONVERTERS, "a": 1, "b": 1, "c": 1, "post-init": 1}),
    ],
    ids=["converter-fails", "validator-fails", "post-init-fails"],
)  # fmt: skip
def test_each_converter_and_validator_runs_at_most_twice_when_init_raises(
    arguments: dict[str, Any], expected: list[str], runs: dict[str, int]
) -> None:
    calls.clear()
    assert lines(Converted, arguments) == expected
    assert_runs(runs)


def test_a_converter_without_detailed_validation_names_every_problem_too() -> None:
    source = using(Converted, cattrs.Converter(detailed_validation=False))
    calls.clear()
    assert lines(source, {"a": "-1", "b": "x", "c": "-1"}) == [
        'a: must be at least 0 (received "-1")',
        "b: invalid literal for int() with base 10: 'x' (received \"x\")",
        'c: must be at least 0 (received "-1")',
    ]
    assert_runs({**CONVERTERS, "a": 1, "c": 1})


def test_disabled_validators_stay_disabled_on_the_error_path() -> None:
    calls.clear()
    with v.disabled():
        assert lines(Converted, {"a": "-1", "b": "x"}) == [
            "b: invalid literal for int() with base 10: 'x' (received \"x\")"
        ]
        assert lines(Counted, {"code": "abc", "age": "x"}) == [
            'age: must be an integer (received "x")'
        ]
    assert_runs(CONVERTERS)  # and no validator at all


def test_one_validator_for_both_keys_and_values_is_told_apart() -> None:
    check = counted("both", v.min_len(2))
    model = one_field(v.deep_mapping(check, check), dict[str, str])
    calls.clear()
    assert lines(model, {"x": {"ab": "cd", "ef": "g", "h": "ij"}}) == [
        'x.ef: must be at least 2 characters long (received "g")',
        'x.h: must be at least 2 characters long (received "h")',
    ]
    assert 6 <= calls["both"] <= 12


@attrs.define
class Box:
    qty: int = attrs.field()

    @qty.validator
    def _positive(self, attribute: Any, value: int) -> None:
        calls[f"qty {value}"] += 1
        if value < 1:
            raise ValueError("must be positive")


@attrs.define
class Crate:
    boxes: list[Box]


def test_an_array_names_each_failing_item_and_structures_each_item_once() -> None:
    calls.clear()
    assert lines(Crate, {"boxes": [{"qty": 1}, {"qty": 0}, {"qty": 2}, {"qty": -1}]}) == [
        "boxes[1].qty: must be positive (received 0)",
        "boxes[3].qty: must be positive (received -1)",
    ]
    # the items that passed ran their validator once; a failing one, once more to be named
    assert dict(calls) == {"qty 1": 1, "qty 0": 2, "qty 2": 1, "qty -1": 2}
