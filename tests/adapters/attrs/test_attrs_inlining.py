"""The scalar checks written into cattrs' class hooks: the same results, the same errors."""

import collections
import linecache
from typing import Any

import attrs
import cattrs
from hypothesis import given, settings
from hypothesis import strategies as st

import toolparse as tp
from toolparse_attrs import configure_converter, make_converter, using
from toolparse_attrs._converter import get_structure_hook
from toolparse_attrs._inlining import inline_scalars


@attrs.define
class Flat:
    name: str
    count: int
    ratio: float = 0.5
    flag: bool = False
    tags: list[str] = attrs.field(factory=list)


def test_scalar_fields_are_checked_inline_and_others_keep_their_hook() -> None:
    hook = get_structure_hook(make_converter(), Flat)
    source = "".join(linecache.getlines(hook.__code__.co_filename))
    for name in ("name", "count", "ratio", "flag"):
        assert f"type(__v := o['{name}']) is __c_type_{name}" in source
    assert "__c_structure_tags(o['tags'], __c_type_tags)" in source


def test_a_hook_whose_source_is_not_cattrs_is_kept() -> None:
    def hook(value: Any, _: Any) -> Any:
        return value

    assert inline_scalars(hook) is hook
    assert inline_scalars(len) is len


def _strict(converter: cattrs.Converter) -> Any:
    """The same class on a converter whose class hooks are cattrs' own (not inlined)."""
    return cattrs.gen.make_dict_structure_fn(
        Flat, converter, _cattrs_detailed_validation=converter.detailed_validation
    )


SCALAR = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2) | st.text(max_size=3)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["name", "count", "ratio", "flag", "tags"]), SCALAR))
def test_inlined_and_cattrs_hooks_agree(arguments: dict[str, Any]) -> None:
    converter = make_converter()
    inlined = get_structure_hook(converter, Flat)
    plain = _strict(converter)
    assert inlined is not plain

    def outcome(hook: Any) -> Any:
        try:
            return hook(arguments, Flat)
        except cattrs.ClassValidationError as exc:
            # the notes too: the one a field's error gets is built once per class
            notes = [
                (type(n), str(n), n.name, n.type)
                for sub in exc.exceptions
                for n in getattr(sub, "__notes__", ())
            ]
            return sorted(cattrs.transform_error(exc)), notes

    assert outcome(inlined) == outcome(plain)


def test_a_field_s_note_is_built_once_and_an_array_item_s_too() -> None:
    hook = get_structure_hook(make_converter(), Flat)
    source = "".join(linecache.getlines(hook.__code__.co_filename))
    assert "__c_avn(" not in source

    def notes(arguments: dict[str, Any]) -> list[Any]:
        try:
            hook(arguments, Flat)
        except cattrs.ClassValidationError as exc:
            return [n for sub in exc.exceptions for n in sub.__notes__]
        raise AssertionError("accepted")

    first = notes({"name": 1, "count": 2, "tags": ["a", 5]})
    again = notes({"name": 2, "count": 3, "tags": ["b", 6]})
    assert [str(n) for n in first] == [
        "Structuring class Flat @ attribute name",
        "Structuring class Flat @ attribute tags",
    ]
    assert all(a is b for a, b in zip(first, again, strict=True))

    def item_note(tags: list[Any]) -> Any:
        try:
            hook({"name": "a", "count": 1, "tags": tags}, Flat)
        except cattrs.ClassValidationError as exc:
            (field,) = exc.exceptions
            (item,) = field.exceptions
            (note,) = item.__notes__
            return note
        raise AssertionError("accepted")

    note = item_note(["a", 5])
    assert (str(note), note.index, note.type) == ("Structuring list[str] @ index 1", 1, str)
    assert item_note(["b", None]) is note


def test_without_detailed_validation_the_inlined_hook_still_structures() -> None:
    converter = configure_converter(cattrs.Converter(detailed_validation=False))
    parsed = tp.Function("t", lambda a: a, args_schema=using(Flat, converter)).parse_arguments(
        {"name": "a", "count": 2, "ratio": 1, "flag": True}
    )
    assert parsed == tp.Ok(Flat("a", 2, 1.0, True))


@attrs.define
class Item:
    qty: int = attrs.field()

    @qty.validator
    def _positive(self, attribute: Any, value: int) -> None:
        runs[value] += 1
        if value < 1:
            raise ValueError("must be positive")


@attrs.define
class Order:
    items: list[Item]


runs: collections.Counter[int] = collections.Counter()


def test_an_array_goes_on_from_its_failing_item_without_structuring_any_twice() -> None:
    runs.clear()
    result = tp.Function("t", lambda a: "x", args_schema=Order).execute(
        {"items": [{"qty": 1}, {"qty": 0}, {"qty": 2}, {"qty": -1}]}
    )
    assert isinstance(result, tp.Error)
    assert result.message.split("\n\n")[1].splitlines() == [
        "items[1].qty: must be positive (received 0)",
        "items[3].qty: must be positive (received -1)",
    ]
    assert runs == {1: 1, 0: 1, 2: 1, -1: 1}
