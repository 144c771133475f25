"""What an adapter's tests hand the conformance kit, and the shared expectations."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import toolparse as tp

__all__ = [
    "FORBIDDEN_IN_MESSAGES",
    "ConformanceCase",
    "Invalid",
    "agree",
    "generated_titles",
    "metaschema",
]


@dataclass
class Invalid:
    """One kind of invalid input and what the message must name."""

    #: the arguments the model sends
    arguments: dict[str, Any]
    #: substrings the ONE error message must contain (every problem named)
    expect: Sequence[str]


@dataclass
class ConformanceCase:
    """What an adapter's tests provide to the kit.

    :param adapter: the adapter under test (an instance); the kit registers
        it on a fresh plugin manager. For the core's built-in adapter, the
        one the manager already holds under that name is used.
    :param source: the model under test: at least one required field (an
        integer or number among the fields), one optional field, and a nested
        object or a list of objects.
    :param valid: arguments the library accepts.
    :param check_parsed: asserts on what the body receives for ``valid``.
    :param invalid: a wrong type, a missing required name, a nested problem,
        several problems at once (at least four kinds, at most six).
    :param typo: a misspelling of an OPTIONAL accepted name, and that name.
    :param instance: a model instance a tool body may return ...
    :param instance_json: ... and the JSON value it serialises to.
    :param corpus: models whose exported schema must agree with the parser
        (at least ten): values generated from the schema must parse.
    :param one_voice: for the one-voice check, ``one_voice(check)`` returns a
        source whose one required field ``value`` is declared as
        ``check.schema`` says (a :class:`~toolparse.testing.OneVoice`), or
        ``None`` where the library cannot declare that; ``None`` (the
        default): only the wrong types of ``source`` are checked.
    :param one_voice_gaps: checks (by key) the adapter does not yet word in
        the shared words, each with the text it reads instead: expected
        failures, reported until they pass.
    """

    adapter: Any
    source: Any
    valid: dict[str, Any]
    check_parsed: Callable[[Any], None]
    invalid: Sequence[Invalid]
    typo: tuple[str, str]
    instance: Any
    instance_json: Any
    corpus: Sequence[Any] = field(default_factory=list)
    one_voice: Callable[[Any], Any] | None = None
    one_voice_gaps: Mapping[str, str] = field(default_factory=dict)


#: what a message the model reads must never contain: links, tracebacks,
#: the validation library's own vocabulary
FORBIDDEN_IN_MESSAGES = re.compile(
    r"https?://|input_value=|Traceback|ValidationError|pydantic|marshmallow|cattrs|jsonschema\b"
)


def generated_titles(schema: object, path: str = "") -> list[str]:
    """The paths of ``title`` keywords anywhere in ``schema`` (they only cost tokens)."""
    found: list[str] = []
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "title" and isinstance(value, str):
                found.append(path or "/")
            elif key in ("properties", "$defs", "definitions", "patternProperties") and isinstance(
                value, Mapping
            ):
                # property *names* may legitimately be "title"
                for name, sub in value.items():
                    found.extend(generated_titles(sub, f"{path}/{key}/{name}"))
            else:
                found.extend(generated_titles(value, f"{path}/{key}"))
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            found.extend(generated_titles(item, f"{path}/{i}"))
    return found


def metaschema() -> Any:
    """The JSON Schema 2020-12 validator class (the test is skipped without ``jsonschema``)."""
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator


def agree(fn: tp.Function, schema: dict[str, Any]) -> None:
    """Every instance hypothesis-jsonschema draws from ``schema`` parses with ``fn``."""
    from_schema = pytest.importorskip("hypothesis_jsonschema").from_schema

    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        derandomize=True,  # the same instances on every run: a failure is reproducible
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
        ],
    )
    @given(from_schema(schema))
    def check(instance: Any) -> None:
        result = fn.parse_arguments(instance)
        assert isinstance(result, tp.Ok), (instance, result)

    check()
