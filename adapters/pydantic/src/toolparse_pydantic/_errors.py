"""pydantic's validation errors, read once, as the problems the core renders.

A rejected call reads ``ValidationError.errors()`` (pydantic 2, or
``pydantic.v1``) once; each error becomes an :class:`~toolparse.ArgumentProblem`.

The reason is in the adapter SDK's shared words (pydantic's error types, v2's
and ``pydantic.v1``'s, which never share a name, are mapped onto them in one
table). A validator's own message is kept, without pydantic's ``Value error,
`` prefix; so is pydantic's text where no shared wording fits.

pydantic's ``loc`` is not quite a path into the data: it names the member of a
union that was tried (``("pet", "cat", "meow")``, ``("value", "int")``), and
``pydantic.v1`` writes ``__root__`` for model-level errors. The path is found
by walking ``loc`` through the arguments, keeping the steps that exist there.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import (
    MAX_PROBLEMS,
    REQUIRED,
    format_reason,
    length_reason,
    multiple_reason,
    one_of_reason,
    pattern_reason,
    range_reason,
    type_reason,
)

__all__ = ["FIXED", "problems", "raised_lines"]

# -- pydantic's error types in the shared words ---------------------------------------


def _kinds(words: dict[str, str]) -> dict[str, str]:
    """``{"a b": word}`` as ``{"a": word, "b": word}``: many error types, one word."""
    return {kind: word for names, word in words.items() for kind in names.split()}


#: each error type that says "not a value of this JSON type", and the type
_TYPE_KINDS: dict[str, str] = _kinds(
    {
        # (not int_parsing_size: a string of thousands of digits is an integer,
        # too long to parse, and pydantic's text says so)
        "int_type int_parsing int_from_float type_error.integer type_error.int": "integer",
        "float_type float_parsing decimal_type decimal_parsing finite_number"
        " type_error.float type_error.decimal value_error.number.not_finite_number": "number",
        "string_type string_unicode bytes_type type_error.str type_error.bytes": "string",
        "bool_type bool_parsing type_error.bool value_error.strictbool": "boolean",
        "dict_type frozen_dict_type ordered_dict_type counter_type mapping_type model_type"
        " model_attributes_type dataclass_type dataclass_exact_type arguments_type"
        " type_error.dict type_error.dataclass type_error.mapping": "object",
        "list_type tuple_type set_type frozen_set_type deque_type iterable_type"
        " named_tuple_type type_error.list type_error.tuple type_error.set"
        " type_error.frozenset type_error.sequence type_error.deque type_error.iterable": "array",
        "none_required type_error.none.allowed type_error.not_none": "null",
    }
)
_FORMATS = _kinds(
    {
        "date_type date_parsing date_from_datetime_parsing date_from_datetime_inexact"
        " value_error.date": "date",
        "datetime_type datetime_parsing datetime_from_date_parsing datetime_object_invalid"
        " value_error.datetime": "date-time",
        "time_type time_parsing value_error.time": "time",
        "time_delta_type time_delta_parsing value_error.duration": "duration",
        "uuid_type uuid_parsing type_error.uuid": "uuid",
        "url_type url_parsing url_syntax_violation value_error.url value_error.url.host"
        " value_error.url.port value_error.url.extra": "uri",
        "ip_v4_address value_error.ipv4address": "ipv4",
        "ip_v6_address value_error.ipv6address": "ipv6",
        "value_error.email": "email",
    }
)
#: the error types whose reason is always the same words
FIXED: dict[str, str] = {
    **{kind: type_reason(word) for kind, word in _TYPE_KINDS.items()},
    **{kind: format_reason(word) for kind, word in _FORMATS.items()},
}
#: the error types a validator raises: its own message is the reason, without this prefix
_CUSTOM = {"value_error": "Value error, ", "assertion_error": "Assertion failed, "}

#: each error type whose reason words one value of its context, and which value
_WORDED = _kinds(
    {
        "greater_than_equal value_error.number.not_ge": "ge",
        "less_than_equal value_error.number.not_le": "le",
        "greater_than value_error.number.not_gt": "gt",
        "less_than value_error.number.not_lt": "lt",
        "multiple_of value_error.number.not_multiple": "multiple_of",
        "string_too_short value_error.any_str.min_length": "min_length",
        "string_too_long url_too_long value_error.any_str.max_length": "max_length",
        "too_short value_error.list.min_items value_error.set.min_items"
        " value_error.frozenset.min_items": "min_items",
        "too_long value_error.list.max_items value_error.set.max_items"
        " value_error.frozenset.max_items": "max_items",
        "string_pattern_mismatch value_error.str.regex": "pattern",
        "literal_error enum": "expected",
        "value_error.const": "permitted",
        "type_error.enum": "enum_values",
    }
)
# the context key of each value whose key is not its name (pydantic.v1 says
# ``limit_value`` for every bound and length)
_KEYS = {"min_items": "min_length", "max_items": "max_length"}
_RANGE = {"ge": "minimum", "le": "maximum", "gt": "exclusive_minimum", "lt": "exclusive_maximum"}
_LENGTH = _kinds({"min_length min_items": "minimum", "max_length max_items": "maximum"})


def _as_written(value: Any) -> Any:
    # pydantic 2 turns ``le=5`` on a float field into 5.0; the user wrote 5
    # (and pydantic.v1 keeps 5), so the bound reads as written
    if type(value) is float and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


# a reason depends on one value of the context (typed: 1, 1.0 and True read
# apart), and a call with many problems has the same few: each is worded once
@functools.lru_cache(maxsize=2048, typed=True)
def _worded(what: str, value: Any) -> str | None:
    """The reason a context's ``what`` value says (``None``: pydantic's text stays)."""
    if what in _RANGE:
        return range_reason(**{_RANGE[what]: _as_written(value)})
    if what in _LENGTH:
        return length_reason(**{_LENGTH[what]: value}, items=what.endswith("items"))
    if what == "multiple_of":
        return multiple_reason(_as_written(value))
    if what == "pattern":
        return None if value is None else pattern_reason(str(value))
    if what == "expected":  # pydantic's text of the choices
        values = _choices(value) if isinstance(value, str) else None
    elif what == "enum_values":  # pydantic.v1's members: their values are what is sent
        values = [getattr(member, "value", member) for member in value]
    else:  # pydantic.v1's permitted values
        values = list(value)
    return one_of_reason(values) if values else None


# pydantic.v1 parses dates and times with a plain TypeError for a value of
# the wrong JSON type (no code of its own): its fixed message says which
_V1_PARSED = {"date": "date", "datetime": "date-time", "time": "time", "timedelta": "duration"}
_V1_WRONG_TYPE = {
    f"invalid type; expected {name}, string, bytes, int or float": format_reason(fmt)
    for name, fmt in _V1_PARSED.items()
}

# one value in pydantic's list of choices ("'a', 'b' or 'c'", "1 or 2"): a
# Python literal as repr() wrote it
_LITERAL = re.compile(
    r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|True|False|None"""
)
_SEPARATORS = re.compile(r"(?:, | or )?")


def _choices(expected: str) -> list[Any] | None:
    """The values in pydantic's ``expected`` (``"'a', 'b' or 'c'"``), ``None`` when unclear.

    (An enum member whose value has no literal repr is unclear: pydantic's text stays.)
    """
    found: list[Any] = []
    at = 0
    for match in _LITERAL.finditer(expected):
        if not _SEPARATORS.fullmatch(expected, at, match.start()):
            return None
        try:
            found.append(ast.literal_eval(match.group()))
        except (ValueError, SyntaxError):
            return None
        at = match.end()
    return found if found and at == len(expected) else None


def _reason(kind: str, ctx: Mapping[str, Any] | None, msg: str) -> str:
    """The reason for an error of type ``kind`` that is not one of :data:`FIXED`."""
    what = _WORDED.get(kind)
    if what is None:
        return _own_words(kind, ctx, msg)
    key = _KEYS.get(what, what)
    if ctx and key not in ctx:
        key = "limit_value"
    if not ctx or key not in ctx:
        return msg  # a custom error of that type, without the value: its own words
    value = ctx[key]
    try:
        return _worded(what, value) or msg
    except TypeError:  # an unhashable value (a list in a custom error's context)
        return _worded.__wrapped__(what, value) or msg


def _own_words(kind: str, ctx: Mapping[str, Any] | None, msg: str) -> str:
    """The reason of an error whose context holds no value to word: mostly pydantic's text."""
    prefix = _CUSTOM.get(kind)
    if prefix is not None:
        if kind == "value_error" and msg.startswith("value is not a valid email address"):
            return format_reason("email")  # pydantic's EmailStr raises a plain value_error
        return msg.removeprefix(prefix)
    if kind == "type_error":
        return _V1_WRONG_TYPE.get(msg, msg)
    if kind == "value_error.url.scheme" and not (ctx and ctx.get("allowed_schemes")):
        # no allowed schemes named: the URL has no scheme at all, not an absolute URI
        # (a scheme that is not allowed has no shared words: pydantic's are kept)
        return format_reason("uri")
    return msg  # pydantic's own words: no shared wording fits


# -- the reading -----------------------------------------------------------------

Path = tuple[str | int, ...]

# error types that say "a required name was not sent" (the last one pydantic.v1's)
_MISSING = frozenset(
    {"missing", "missing_argument", "value_error.missing"}
    | {"missing_keyword_only_argument", "missing_positional_only_argument"}
)
# error types that say "this name is not accepted" (the last one pydantic.v1's)
_UNRECOGNIZED = frozenset({"extra_forbidden", "unexpected_keyword_argument", "value_error.extra"})
_NAMES = _MISSING | _UNRECOGNIZED
# a discriminated union: the tag is a key of the object at the error's path
_TAGS = frozenset({"union_tag_invalid", "union_tag_not_found"})
# values echoed as they are without an isinstance check (which is slow for ABCs)
_LEAVES = frozenset({str, int, float, bool, type(None), list})


def _echoed(value: Any) -> Any:
    """``value`` as echoed: an object is not (40 characters of its JSON tell the model nothing)."""
    return NOT_GIVEN if isinstance(value, Mapping) else value


def _walk(loc: Path, data: Any) -> tuple[Path, Any, bool]:
    """``loc``'s path into ``data``, the value there, and whether every step was one into it."""
    found = data
    for part in loc:  # most often every step is one into JSON's objects and arrays
        kind = type(found)
        if (kind is dict and type(part) is str and part in found) or (
            kind is list and type(part) is int and 0 <= part < len(found)
        ):
            found = found[part]
        else:
            break
    else:
        return loc, found, True  # (the path is loc itself)
    path: list[str | int] = []
    whole = True
    for part in loc:
        kind = type(data)
        # exact type checks first: arguments decoded from JSON are dicts and lists
        if kind is dict or (kind is not list and isinstance(data, Mapping)):
            if type(part) is str and part in data:
                path.append(part)
                data = data[part]
                continue
        elif (kind is list or kind is tuple) and type(part) is int and 0 <= part < len(data):
            path.append(part)
            data = data[part]
            continue
        # a union member, a validator's label, ``__root__``: not a place in the data
        whole = False
    return tuple(path), data, whole


def _named(loc: Path, arguments: Any) -> Path:
    """The path of a missing or unknown name: its last step need not be in the data."""
    if len(loc) == 1 and type(loc[0]) is str:
        return tuple(loc)
    path = _walk(loc[:-1], arguments)[0]
    return path if not loc or loc[-1] == "__root__" else (*path, loc[-1])


def _tag(err: Mapping[str, Any], path: Path) -> ArgumentProblem | None:
    """A discriminated union's tag problem, at the tag's own key (``pet.kind``)."""
    ctx = err.get("ctx") or {}
    value = err.get("input")
    try:
        key = ast.literal_eval(str(ctx.get("discriminator")))
    except (ValueError, SyntaxError):
        return None  # a callable discriminator: no key in the data to point at
    if not isinstance(key, str) or not isinstance(value, Mapping):
        return None
    if err["type"] == "union_tag_not_found":
        return ArgumentProblem.missing((*path, key))
    tags = _choices(str(ctx.get("expected_tags", "")))
    if not tags:
        return None
    # the value the model sent (pydantic's ``tag`` is its text); an object is not echoed
    sent = value.get(key, NOT_GIVEN)
    return ArgumentProblem((*path, key), one_of_reason(tags), _echoed(sent))


def problems(
    errors: Sequence[Mapping[str, Any]], arguments: Any, *, v1: bool = False
) -> tuple[list[ArgumentProblem], int]:
    """``ValidationError.errors()`` as problems, and how many more were only counted.

    ``v1``: the errors are ``pydantic.v1``'s, which carry no input (the value
    received is read from the arguments at the error's path) and report each
    member of a failed union at the union's own path.
    """
    kept = errors
    if len(errors) > MAX_PROBLEMS:  # the SDK's bound: past it, only the names (each is listed)
        names = [e for e in errors[MAX_PROBLEMS:] if len(e["loc"]) == 1 and e["type"] in _NAMES]
        kept = [*errors[:MAX_PROBLEMS], *names]
    out: list[ArgumentProblem] = []
    # the type problems of one union's members join ("must be an integer or a
    # string"): the index of the last one in ``out``, its path and its words
    union: tuple[int, Path, list[str]] | None = None
    top = arguments if type(arguments) is dict else {}
    for err in kept:
        kind = err["type"]
        loc = err["loc"]
        if kind in _NAMES:
            out.append(_name(kind, _named(loc, arguments)))
            continue
        if len(loc) == 1 and loc[0] in top:
            # the most common place, a name sent at the top level: _walk's answer
            path, found, whole = loc, top[loc[0]], True
        else:
            path, found, whole = _walk(loc, arguments)
        text = FIXED.get(kind)
        if text is None:
            tagged = _tag(err, path) if kind in _TAGS and whole else None
            if tagged is not None:
                out.append(tagged)
                continue
            text = _reason(kind, err.get("ctx"), str(err["msg"]))
        # pydantic 2 names a union's member in loc (so not whole); v1 does not
        elif (v1 or not whole) and kind in _TYPE_KINDS:
            if union is not None and union[0] == len(out) - 1 and union[1] == path:
                _join(out[-1], union[2], _TYPE_KINDS[kind])
                continue
            union = (len(out), path, [_TYPE_KINDS[kind]])
        value = err.get("input", found if whole else NOT_GIVEN) if path else NOT_GIVEN
        if type(value) not in _LEAVES:  # (the common values, without _echoed's call)
            value = _echoed(value)
        out.append(ArgumentProblem(path, text, value))
    return out, len(errors) - len(kept)


def _name(kind: str, path: Path) -> ArgumentProblem:
    """The problem of a required name not sent, or of a name not accepted."""
    if kind in _MISSING:  # (ArgumentProblem.missing without its two calls: the common one)
        return ArgumentProblem(path, REQUIRED, NOT_GIVEN, "missing")
    return ArgumentProblem.unrecognized(path)


def _join(problem: ArgumentProblem, words: list[str], word: str) -> None:
    """Join ``word`` to the type words of a union's ``problem`` (``must be an integer or a string``)."""
    if word not in words:
        words.append(word)
        problem.reason = type_reason(*words)


#: how many of a raised error's problems are worded (the text is cut to
#: 300 characters anyway)
_RAISED_SHOWN = 10


def raised_lines(errors: Sequence[Mapping[str, Any]]) -> list[str]:
    """Problem lines for a ``ValidationError`` a tool body raised on its own data.

    The path is pydantic's ``loc`` (no arguments to walk), and no value is
    echoed: it is the tool's data, not the model's.
    """
    shown: list[str] = []
    for err in errors[:_RAISED_SHOWN]:
        kind = err["type"]
        path = tuple(part for part in err["loc"] if part != "__root__")
        if kind in _NAMES:
            shown.append(_name(kind, path).line())
        else:
            text = FIXED.get(kind) or _reason(kind, err.get("ctx"), str(err["msg"]))
            shown.append(ArgumentProblem(path, text).line())
    if len(errors) > _RAISED_SHOWN:
        shown.append(f"... and {len(errors) - _RAISED_SHOWN} more")
    return shown
