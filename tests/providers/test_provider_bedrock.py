"""Amazon Bedrock's Converse API, checked by botocore's own input validation (offline)."""

from __future__ import annotations

import base64

import pytest
from botocore.stub import Stubber

import toolparse as tp
from toolparse import providers

from .cases import PIXEL, PLAN_TRIP, no_args, plan_trip, with_params
from .corpus import CASES
from .payloads import bedrock_reply
from .sdk_shapes import converse_request

USER = {"role": "user", "content": [{"text": "Plan a trip to Paris."}]}


def test_export_is_the_documented_shape() -> None:
    tools = providers.to_tools([plan_trip(), no_args()], "bedrock")
    converse_request([USER], tools)
    assert tools[0] == {
        "toolSpec": {
            "name": "plan_trip",
            "description": "Plan a trip and return an itinerary.",
            "inputSchema": {"json": PLAN_TRIP},
        }
    }
    assert tools[1]["toolSpec"]["inputSchema"] == {"json": {"type": "object", "properties": {}}}


def test_strict_mode_is_bedrocks_structured_outputs() -> None:
    (tool,) = providers.to_tools([with_params()], "bedrock", strict=True)
    converse_request([USER], [tool])
    spec = tool["toolSpec"]
    assert spec["strict"] is True
    assert spec["inputSchema"]["json"]["additionalProperties"] is False
    assert "strict" not in providers.to_tool(with_params(), "bedrock")["toolSpec"]


def test_names_follow_botocores_tool_name_rule() -> None:
    fn = tp.Function("math.factorial/v2", lambda a: "120", description="")
    (tool,) = providers.to_tools([fn], "bedrock")
    assert tool["toolSpec"] == {
        "name": "math_factorial_v2",  # an empty description is left out (NonEmptyString)
        "inputSchema": {"json": {"type": "object", "properties": {}}},
    }
    converse_request([USER], [tool])
    reply = bedrock_reply([("math_factorial_v2", {"n": 5})])
    (call,) = providers.parse_tool_calls(reply, "bedrock", functions=[fn])
    assert call == tp.ToolCall("tooluse_0_0", "math.factorial/v2", {"n": 5})


@pytest.mark.parametrize("strict", [False, True])
def test_corpus_exports_pass_botocores_validation(strict: bool) -> None:
    exported = 0
    for case in CASES:
        try:
            tools = providers.to_tools([case.build()], "bedrock", strict=strict)
        except ValueError:  # Bedrock's structured outputs take Anthropic's schema subset
            with pytest.raises(ValueError, match="anthropic strict mode"):
                providers.to_tools([case.build()], "anthropic", strict=strict)
            continue
        converse_request([USER], tools)
        exported += 1
    assert exported > len(CASES) - 5


def test_a_whole_turn_goes_back_through_converse() -> None:
    tools = tp.Toolset([plan_trip(), tp.Function("snapshot", lambda a: [tp.ImagePart(PIXEL)])])
    reply = bedrock_reply(
        [
            ("plan_trip", {"city": "Paris", "unit": "celsius", "stops": []}),
            ("plan_trip", {"city": "Oslo"}),  # missing keys: an error result
            ("snapshot", {}),
        ]
    )
    calls = tools.parse_tool_calls(reply, "bedrock")
    assert [c.id for c in calls] == ["tooluse_0_0", "tooluse_0_1", "tooluse_0_2"]
    results = tools.execute(calls)
    (answer,) = tools.to_result_message(results, "bedrock")
    ok, failed, image = (block["toolResult"] for block in answer["content"])
    assert ok == {"toolUseId": "tooluse_0_0", "content": [{"text": "Paris: 0 stops over 3 days"}]}
    assert failed["status"] == "error"
    assert failed["content"][0]["text"].startswith("Missing required parameters")
    assert image["content"] == [
        {"image": {"format": "png", "source": {"bytes": base64.b64decode(PIXEL)}}}
    ]
    converse_request([USER, reply["output"]["message"], answer], tools.to_tools("bedrock"))


def test_a_stubbed_client_accepts_the_request() -> None:
    import botocore.session

    client = botocore.session.get_session().create_client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    tools = providers.to_tools([plan_trip()], "bedrock")
    reply = bedrock_reply([("plan_trip", {"city": "Paris"})])
    del reply["ResponseMetadata"]
    with Stubber(client) as stub:
        stub.add_response("converse", reply)
        got = client.converse(modelId="m", messages=[USER], toolConfig={"tools": tools})
    (call,) = providers.parse_tool_calls(got, "bedrock")
    assert call == tp.ToolCall("tooluse_0_0", "plan_trip", {"city": "Paris"})


def test_shapes_it_reads_and_refuses() -> None:
    reply = bedrock_reply([("ping", {})])
    message = reply["output"]["message"]
    for shape in (reply, message, message["content"], message["content"][1]):
        assert providers.parse_tool_calls(shape, "bedrock") == [
            tp.ToolCall("tooluse_0_0", "ping", {})
        ]
    server = {"toolUse": {"toolUseId": "s1", "name": "web", "input": {}, "type": "server_tool_use"}}
    assert providers.parse_tool_calls([server], "bedrock") == []
    made = providers.parse_tool_calls([{"toolUse": {"name": "ping", "input": {}}}] * 2, "bedrock")
    assert [c.id for c in made] == ["tooluse_1", "tooluse_2"]
    with pytest.raises(ValueError, match=r"^bedrock: expected"):
        providers.parse_tool_calls({"role": "assistant", "content": "text"}, "bedrock")


def test_results_bedrock_cannot_carry_are_refused() -> None:
    def result(content: object) -> tp.ToolResult:
        return tp.ToolResult("t1", "snap", content)

    with pytest.raises(ValueError, match="s3://"):
        providers.to_result_message(
            [result([tp.ImagePart("https://x.test/a.png", url=True)])], "bedrock"
        )
    with pytest.raises(ValueError, match="cannot carry"):
        providers.to_result_message([result([tp.ImagePart(PIXEL, "image/bmp")])], "bedrock")
    s3 = tp.ImagePart("s3://bucket/a.png", url=True)
    (answer,) = providers.to_result_message([result([s3])], "bedrock")
    converse_request([answer])
    assert answer["content"][0]["toolResult"]["content"][0]["image"]["source"] == {
        "s3Location": {"uri": "s3://bucket/a.png"}
    }
