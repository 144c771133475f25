"""A new user's agent loop, per provider, with a scripted model; the SDKs' types accept every request.

The script: a dotted tool name (exported under an alias where the provider's
rule needs one), a renamed key, a wrong type, an unknown tool, a sequential
write then a concurrent read, and an interrupt that is then resolved.
"""

from __future__ import annotations

import math
from typing import Any

import mcp.types as mt
import ollama
import pydantic
import pytest
from anthropic.types import MessageParam, ToolParam
from google.genai import types as gt
from openai.types.chat import (
    ChatCompletionMessageParam,
    ChatCompletionToolMessageParam,
    ChatCompletionToolParam,
)
from openai.types.responses import FunctionToolParam, ResponseInputParam
from openai.types.responses.response_input_param import FunctionCallOutput

import toolparse as tp
from toolparse import providers

from .payloads import REPLIES
from .sdk_shapes import converse_request, exact_model, exact_ollama, exact_param, ollama_request

P = tp.FunctionParam

SCRIPT: list[list[tuple[str, dict[str, Any]]]] = [
    [
        ("math.factorial", {"num": 5}),  # a renamed key
        ("math.factorial", {"n": "five"}),  # a wrong type
        ("math.factorail", {"n": 5}),  # an unknown tool
    ],
    [
        ("math.factorial", {"n": 5}),
        ("notes.write", {"text": "hello"}),  # sequential ...
        ("notes.read", {}),  # ... then concurrent: must see the write
    ],
    [("deploy", {"target": "prod"})],  # an interrupt
    [],  # the final answer
]


@tp.tool("math.factorial")
def factorial(n: int) -> str:
    """n! for a whole number n."""
    return str(math.factorial(n))


def toolset() -> tp.Toolset:
    notes: dict[str, str] = {}

    def write(a: Any) -> str:
        notes["note"] = a["text"]
        return "saved"

    def read(a: Any) -> str:
        return notes.get("note", "<no note yet>")

    def deploy(a: Any, ctx: Any) -> Any:
        if ctx.get("approved"):
            return f"deployed {a['target']}"
        return tp.interrupt("Deploy to production?", {"target": a["target"]})

    return tp.Toolset(
        [
            tp.Function("notes.write", write, parameters=[P("text", "string", required=True)]),
            tp.Function("notes.read", read, concurrent=True),
            factorial,
            tp.Function("deploy", deploy, parameters=[P("target", "string", required=True)]),
        ]
    )


def exported_names(tools: list[Any], provider: str) -> list[str]:
    if provider in ("openai", "ollama"):
        return [t["function"]["name"] for t in tools]
    if provider == "bedrock":
        return [t["toolSpec"]["name"] for t in tools]
    if provider == "gemini":
        return [d["name"] for d in tools[0]["functionDeclarations"]]
    return [t["name"] for t in tools]


def check_tools(provider: str, tools: list[Any]) -> None:
    for tool in tools:
        if provider == "openai":
            exact_param(ChatCompletionToolParam, tool)
        elif provider == "openai-responses":
            exact_param(FunctionToolParam, tool)
        elif provider == "anthropic":
            exact_param(ToolParam, tool)
        elif provider == "gemini":
            exact_model(gt.Tool, tool)
        elif provider == "ollama":
            exact_ollama(ollama.Tool, tool)
        elif provider == "bedrock":
            converse_request([{"role": "user", "content": [{"text": "Go."}]}], [tool])
        else:
            mt.Tool.model_validate(tool)


def check_answer(provider: str, messages: list[dict[str, Any]]) -> None:
    for message in messages:
        if provider == "openai":
            exact_param(ChatCompletionToolMessageParam, message)
        elif provider == "openai-responses":
            exact_param(FunctionCallOutput, message)
        elif provider == "anthropic":
            exact_param(MessageParam, message)
        elif provider == "gemini":
            exact_model(gt.Content, message)
        elif provider == "ollama":
            exact_ollama(ollama.Message, message)
        elif provider == "bedrock":
            converse_request([message])
        else:
            mt.CallToolResult.model_validate(message)


def echo(provider: str, reply: Any) -> list[Any]:
    """The model's turn as the next request carries it."""
    if provider == "openai":
        return [reply.choices[0].message.model_dump(exclude_none=True)]
    if provider == "openai-responses":
        return [item.model_dump(exclude_none=True) for item in reply.output]
    if provider == "anthropic":
        return [
            {
                "role": "assistant",
                "content": [b.model_dump(exclude_none=True) for b in reply.content],
            }
        ]
    if provider == "gemini":
        return [reply.candidates[0].content]
    if provider == "bedrock":
        return [reply["output"]["message"]]
    if provider == "ollama":
        return [reply.message.model_dump(exclude_none=True)]
    return []


def check_request(provider: str, conversation: list[Any], tools: list[Any]) -> None:
    """The whole next request, validated by the SDK's own request types."""
    if provider == "openai":
        pydantic.TypeAdapter(list[ChatCompletionMessageParam]).validate_python(conversation)
    elif provider == "openai-responses":
        pydantic.TypeAdapter(ResponseInputParam).validate_python(conversation)
    elif provider == "anthropic":
        pydantic.TypeAdapter(list[MessageParam]).validate_python(conversation)
    elif provider == "gemini":
        gt.GenerateContentConfig.model_validate({"tools": tools})
        for content in conversation:
            gt.Content.model_validate(content)
    elif provider == "bedrock":
        converse_request(conversation, tools)
    elif provider == "ollama":
        ollama_request(conversation, tools)


def run_loop(provider: str) -> list[list[tp.ToolResult]]:
    tools_ = toolset()
    tools = tools_.to_tools(provider)
    check_tools(provider, tools)
    alias = dict(zip([fn.name for fn in tools_], exported_names(tools, provider), strict=True))
    conversation: list[Any] = (
        [] if provider in ("gemini", "mcp") else [{"role": "user", "content": "Go."}]
    )
    if provider == "bedrock":
        conversation = [{"role": "user", "content": [{"text": "Go."}]}]
    turns: list[list[tp.ToolResult]] = []
    for turn, planned in enumerate(SCRIPT):
        # the model calls tools by the names it was given
        sent = [(alias.get(name, name.replace(".", "_")), args) for name, args in planned]
        reply = REPLIES[provider](sent, text=None if planned else "All done.", turn=turn)
        calls = tools_.parse_tool_calls(reply, provider)
        if not calls:
            break
        results = tools_.execute(calls)
        # a human reviews each interrupt; here the user declines
        results = [
            r.resolve("The user declined the deployment.", is_error=True) if r.is_interrupt else r
            for r in results
        ]
        answer = tools_.to_result_message(results, provider)
        check_answer(provider, answer)
        conversation += echo(provider, reply) + answer
        check_request(provider, conversation, tools)
        turns.append(results)
    return turns


@pytest.mark.parametrize("provider", sorted(REPLIES))
def test_the_agent_loop_runs_to_completion(provider: str) -> None:
    turns = run_loop(provider)
    assert len(turns) == 3  # the fourth reply had no calls: the loop ended
    renamed, wrong_type, unknown = turns[0]
    assert renamed.is_error
    assert 'num (did you mean "n"?)' in renamed.text
    assert wrong_type.is_error
    assert wrong_type.text.startswith("Invalid arguments for this tool.\n\nn: ")
    assert '(received "five")' in wrong_type.text
    assert unknown.is_error
    # the name this provider was given, which the model can call
    exported = "math.factorial" if provider in ("gemini", "mcp") else "math_factorial"
    assert f'but tool not found. Did you mean "{exported}"?' in unknown.text
    assert [r.text for r in turns[1]] == ["120", "saved", "hello"]
    assert [r.name for r in turns[1]][1:] == ["notes.write", "notes.read"]
    (declined,) = turns[2]
    assert declined.is_error
    assert declined.text == "The user declined the deployment."


def test_an_approved_interrupt_runs_again_with_the_approval() -> None:
    tools_ = toolset()
    reply = REPLIES["anthropic"]([("deploy", {"target": "prod"})])
    calls = tools_.parse_tool_calls(reply, "anthropic")
    (paused,) = tools_.execute(calls)
    assert paused.is_interrupt
    (done,) = tools_.execute(calls, {"approved": True})
    assert done.text == "deployed prod"
    (message,) = providers.to_result_message([done], "anthropic")
    exact_param(MessageParam, message)
