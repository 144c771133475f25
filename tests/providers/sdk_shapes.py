"""Checks of exported shapes against the providers' own SDK types.

A TypedDict validated by pydantic silently drops keys it does not know, and a
pydantic model may ignore them too; so every check validates and then compares
what came out with what went in: an unknown key, a wrong nesting or a wrong
type makes the two differ (or the validation fail).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import pydantic


def _materialise(value: Any) -> Any:
    if isinstance(value, Iterator):  # pydantic validates Iterable[...] lazily
        return [_materialise(v) for v in value]
    if isinstance(value, dict):
        return {k: _materialise(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_materialise(v) for v in value]
    if isinstance(value, pydantic.BaseModel):
        raise AssertionError(f"validated into a response model, not a param: {value!r}")
    return value


def exact_param(kind: Any, value: Any) -> None:
    """``value`` is a valid ``kind`` (an SDK TypedDict param), with no extra keys."""
    # the adapter must outlive the lazy iterators it hands out (pydantic-core
    # panics when their definitions are gone), so it is cached
    validated = _adapter(kind).validate_python(value, strict=True)
    assert _materialise(validated) == value


@functools.cache
def _adapter(kind: Any) -> pydantic.TypeAdapter[Any]:
    return pydantic.TypeAdapter(kind)


def exact_model(model: type[pydantic.BaseModel], value: dict[str, Any]) -> pydantic.BaseModel:
    """``value`` (REST JSON, camelCase) is a valid ``model``, with no extra keys."""
    instance = model.model_validate_json(json.dumps(value))
    dumped = instance.model_dump(mode="json", by_alias=True, exclude_unset=True)
    # the SDK leaves unset fields out as None: compare without nulls on both
    # sides (a schema's own `"default": null` is data the dump keeps too)
    assert _drop_none(dumped) == _drop_none(value)
    return instance


def _drop_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_none(v) for v in value]
    return value


@functools.cache
def _converse_input() -> Any:
    import botocore.session

    client = botocore.session.get_session().create_client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    return client.meta.service_model.operation_model("Converse").input_shape


def converse_request(
    messages: list[Any], tools: list[Any] | None = None, model: str = "anthropic.claude-sonnet-4-5"
) -> None:
    """A Bedrock ``Converse`` request passes botocore's own input validation (offline)."""
    from botocore.validate import ParamValidator

    params: dict[str, Any] = {"modelId": model, "messages": messages}
    if tools is not None:
        params["toolConfig"] = {"tools": tools}
    report = ParamValidator().validate(params, _converse_input())
    assert not report.has_errors(), report.generate_report()


def exact_ollama(model: type[pydantic.BaseModel], value: dict[str, Any]) -> pydantic.BaseModel:
    """``value`` is a valid ``ollama`` ``model`` that keeps every key (its types drop unknown ones)."""
    instance = model.model_validate(value)
    assert instance.model_dump(exclude_none=True, by_alias=True) == value
    return instance


def ollama_request(messages: list[Any], tools: list[Any]) -> dict[str, Any]:
    """What ``ollama.Client.chat`` sends for these messages and tools: it must keep every key."""
    import httpx
    import ollama

    sent: list[Any] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        reply = {"model": "qwen3", "created_at": "2026-01-01T00:00:00Z", "done": True}
        return httpx.Response(200, json={**reply, "message": {"role": "assistant", "content": ""}})

    client = ollama.Client("http://ollama.test", transport=httpx.MockTransport(answer))
    client.chat(model="qwen3", messages=messages, tools=tools)
    (body,) = sent
    assert body["tools"] == tools
    # the answers go out exactly as written (the echoed turns are the client's to shape)
    answers = [m for m in messages if isinstance(m, dict) and m.get("role") == "tool"]
    assert [m for m in body["messages"] if m["role"] == "tool"] == answers
    return body  # type: ignore[no-any-return]
