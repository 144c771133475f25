"""The official JSON-Schema-Test-Suite through both engines.

Each engine, jsonschema-rs and the pure one (the jsonschema library alone),
decides every instance as the suite says, and words every rejection. Where the
pure engine does not (a format check of the jsonschema library's that is
looser), the case is listed in ``KNOWN_DIFFERENCES`` below and on the docs page
(docs/adapters/jsonschema.md); a difference not listed fails.

The suite's schemas are not all object schemas, and its instances not all
objects, so this file compiles them through the adapter's engine choice itself
(``_adapter.engine_parser``), past the object-schema check a tool needs.

Data: tests/data/json-schema-test-suite (a copy of the files used, with the
suite's LICENSE), so the tests run from a clone alone.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

import toolparse as tp
from toolparse import FunctionDefinitionError
from toolparse_jsonschema import JsonSchema
from toolparse_jsonschema._adapter import engine_parser
from toolparse_jsonschema._schema import check

from .models import rs_usable


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version(name).split(".")[:2])


#: jsonschema-rs is optional: without it the pure engine alone is held to the suite
RS = rs_usable()

DATA = Path(__file__).parents[2] / "data" / "json-schema-test-suite"
DIALECT = {
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft7": "http://json-schema.org/draft-07/schema#",
}

_EMAIL = "optional/format/email.json::validation of e-mail addresses"
_URI = "optional/format/uri.json::validation of URIs"
_UUID = "draft2020-12/optional/format/uuid.json::uuid format"

#: (group, test) where the two engines decide differently; in each, jsonschema-rs
#: agrees with the suite and the pure engine accepts: the
#: jsonschema library's "email" check only looks for an "@", its "uuid" check
#: accepts what Python's uuid.UUID accepts, and toolparse's own "uri" check
#: reads "127.0.0.01" as a host name.
KNOWN_DIFFERENCES: frozenset[tuple[str, str]] = frozenset(
    {
        *(
            (f"{draft}/{_EMAIL}", test)
            for draft in DIALECT
            for test in (
                "dot before local part is not valid",
                "dot after local part is not valid",
                "two subsequent dots inside local part are not valid",
                "two email addresses is not valid",
                'full "From" header is invalid',
                "local part is required",
                "domain is required",
                "unquoted space in local part is invalid",
            )
        ),
        (f"draft2020-12/{_EMAIL}", "an invalid domain"),
        (f"draft2020-12/{_EMAIL}", "an invalid IPv4-address-literal"),
        *(
            (f"{draft}/{_URI}", "leading zero in an embedded IPv4 address is invalid")
            for draft in DIALECT
        ),
        (_UUID, "trailing hyphen after a complete UUID is invalid"),
        (_UUID, "non-ASCII digit '২' (a Bengali 2) is invalid"),
        (_UUID, "an underscore in place of a hex digit is invalid"),
    }
)

_ENUM = "enum.json::enum with [{}] does not match [{}]"
#: (group, test) the jsonschema library decides wrongly before 4.24 (fixed
#: upstream); there only jsonschema-rs is held to the suite
OLD_JSONSCHEMA_BUGS: frozenset[tuple[str, str]] = frozenset(
    {
        *(
            (f"{draft}/{_ENUM.format(a, b)}", test)
            for draft in DIALECT
            for a, b, tests in (
                ("false", "0", ("[0] is invalid", "[0.0] is invalid")),
                ("true", "1", ("[1] is invalid", "[1.0] is invalid")),
                ("0", "false", ("[false] is invalid",)),
                ("1", "true", ("[true] is invalid",)),
            )
            for test in tests
        ),
        (
            "draft2020-12/unevaluatedItems.json::unevaluatedItems with $dynamicRef",
            "with no unevaluated items",
        ),
        (
            "draft2020-12/unevaluatedProperties.json::unevaluatedProperties with adjacent non-bool "
            "additionalProperties",
            "with additional properties",
        ),
        (
            "draft2020-12/unevaluatedProperties.json::unevaluatedProperties with $dynamicRef",
            "with no unevaluated properties",
        ),
        # jsonschema 4.18 to 4.20 raise TypeError here
        (
            "draft7/additionalItems.json::additionalItems with heterogeneous array",
            "heterogeneous invalid instance",
        ),
    }
)
_TOLERATED = KNOWN_DIFFERENCES | (
    OLD_JSONSCHEMA_BUGS if _version("jsonschema") < (4, 24) else frozenset()
)

#: groups toolparse refuses at definition, and why (never a network access)
REFUSED = {
    "refers outside the schema": "points outside the schema",
    "custom metaschema": "is not a supported draft",
    # \p{...} is ECMA-262 syntax that Python's re (the jsonschema library's
    # regex engine) does not know: the metaschema's "regex" format refuses it
    "pattern Python cannot compile": "is not a 'regex'",
}


def _groups() -> list[Any]:
    params = []
    for path in sorted(DATA.rglob("*.json")):
        name = path.relative_to(DATA).as_posix()
        draft = name.split("/")[0]
        for group in json.loads(path.read_text(encoding="utf-8")):
            params.append(pytest.param(draft, name, group, id=f"{name}::{group['description']}"))
    return params


Parser = Any


def _engines(draft: str, schema: Any) -> dict[str, Parser]:
    """The parsers of ``schema`` on each engine that takes it ("rs" may be missing)."""
    definition = check({"$schema": DIALECT[draft], **schema}, object_only=False)
    engines = {"pure": engine_parser(definition, JsonSchema(schema, fast=False))}
    if not RS:
        return engines
    try:
        engines["rs"] = engine_parser(definition, JsonSchema(schema, fast=True))
    except FunctionDefinitionError as exc:
        refused = str(exc)
    else:
        refused = ""
    # only a pattern that needs backtracking keeps jsonschema-rs away
    assert not refused or 'is not a "regex"' in refused, refused
    return engines


def _decides(parse: Parser, data: Any) -> bool:
    result = parse(data)
    if isinstance(result, tp.Error):
        # every rejection is worded
        assert result.message.startswith("Invalid arguments for this tool.\n\n"), result
        return False
    assert isinstance(result, tp.Ok)
    return True


def test_the_data_is_there() -> None:
    assert (DATA / "LICENSE").is_file()
    assert len(_groups()) > 500


@pytest.mark.parametrize(("draft", "file", "group"), _groups())
def test_both_engines_decide_as_the_suite_says(
    draft: str, file: str, group: dict[str, Any]
) -> None:
    if not isinstance(group["schema"], dict):
        pytest.skip("a boolean schema is not an object schema, so never a tool's")
    key = f"{file}::{group['description']}"
    try:
        engines = _engines(draft, group["schema"])
    except FunctionDefinitionError as exc:
        refused = str(exc)
        assert any(why in refused for why in REFUSED.values()), refused
        pytest.skip(f"refused at definition: {refused}")
    # format.json expects formats as annotations; the adapter asserts them
    annotation_only = file.endswith("/format.json")
    for test in group["tests"]:
        for engine, parse in engines.items():
            decided = _decides(parse, test["data"])
            if annotation_only or (engine == "pure" and (key, test["description"]) in _TOLERATED):
                continue
            assert decided == test["valid"], (engine, test["description"])


def test_known_differences_are_real() -> None:
    """Every listed difference still happens (an entry fixed upstream goes)."""
    if not RS:
        pytest.skip("needs jsonschema-rs")
    seen: set[tuple[str, str]] = set()
    for param in _groups():
        draft, file, group = param.values
        key = f"{file}::{group['description']}"
        tests = [t for t in group["tests"] if (key, t["description"]) in KNOWN_DIFFERENCES]
        if not tests:
            continue
        engines = _engines(draft, group["schema"])
        for test in tests:
            if _decides(engines["pure"], test["data"]) != _decides(engines["rs"], test["data"]):
                seen.add((key, test["description"]))
    assert seen == KNOWN_DIFFERENCES


@pytest.mark.parametrize("draft", sorted(DIALECT))
def test_every_remote_reference_is_refused_at_definition(draft: str) -> None:
    groups = json.loads((DATA / draft / "refRemote.json").read_text(encoding="utf-8"))
    assert groups
    for group in groups:
        with pytest.raises(FunctionDefinitionError, match="points outside the schema"):
            _engines(draft, group["schema"])
