"""FunctionParam speaks the shared words: the kit's one-voice checks it can declare read the same line."""

from __future__ import annotations

import pytest

import toolparse as tp
from toolparse.adapter import REQUIRED
from toolparse.testing import ONE_VOICE, OneVoice, one_voice_message

P = tp.FunctionParam
NAMED = [P("name", "string", required=True)]

#: the checks FunctionParam can declare (no ranges, lengths or patterns)
DECLARED: dict[str, P] = {
    "string": P("value", "string", required=True),
    "integer": P("value", "integer", required=True),
    "number": P("value", "number", required=True),
    "boolean": P("value", "boolean", required=True),
    "object": P("value", "object", object_properties=NAMED, required=True),
    "list": P("value", "array", item_type="integer", required=True),
    "enum": P("value", "string", enum=["a", "b"], required=True),
    "nested_required": P("value", "object", object_properties=NAMED, required=True),
}
CHECKS = [check for check in ONE_VOICE if check.key in DECLARED]


def test_every_check_functionparam_can_declare_is_run() -> None:
    assert [c.key for c in CHECKS] == list(DECLARED)


@pytest.mark.parametrize("check", CHECKS, ids=[c.key for c in CHECKS])
def test_the_same_wrong_call_reads_the_same_line(check: OneVoice) -> None:
    param = DECLARED[check.key]
    fn = tp.Function("tool", lambda a: "x", parameters=[param])
    # the declaration is the one the check describes
    assert (
        tp.FunctionParam.to_parameters_schema([param])["properties"]["value"]["type"]
        == (check.schema["type"])
    )
    assert fn.execute({"value": check.right}) == tp.Ok("x")
    result = fn.execute(check.arguments)
    assert isinstance(result, tp.Error)
    assert result.message == one_voice_message(check)


def test_a_nested_name_left_out_is_required_in_the_shared_words() -> None:
    problem = tp.ArgumentProblem.missing(("items", 2, "sku"))
    assert problem.reason == REQUIRED == "is required"
    assert problem.line() == "items[2].sku: is required"
    assert problem.kind == "missing"
