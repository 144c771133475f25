"""``Context``: the marker type for context injection, and what of a context the model never reads."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Iterable, Mapping
from itertools import chain, islice
from typing import Any

__all__ = ["Context", "approved"]

#: a context string shorter than this is not redacted: short values (``"en"``,
#: ``"prod"``, a small id) are too common in ordinary text to stand for a secret
MIN_SECRET_CHARS = 6
#: what a redacted string reads as
REDACTED = "[redacted]"
#: how far into a context the strings are looked for (the context is level 1)
MAX_SECRET_DEPTH = 4
#: how many values of a context are looked at, whatever its size
MAX_SECRET_VALUES = 1000

# what toolparse itself adds to the caller's context, not searched: the call's id (the
# model wrote it) and an agent framework's run state, which holds the conversation and
# the tool's own name (the application's part of it is under its own key too)
_OWN_KEYS = frozenset({"tool_call_id", "run_context"})


class Context(dict):  # type: ignore[type-arg]
    """Annotate a ``@tool`` parameter with ``Context`` to receive the call's context.

    The parameter receives the context object exactly as the caller passed
    it (with ``tool_call_id`` added when run from a tool call). It is never
    in the JSON Schema, never in a message to the model and never among the
    accepted parameters.

    The context's strings never reach the model either: wherever one of at
    least 6 characters appears in an error text (an exception's message, an
    ``Error`` or ``ToolError`` the tool or its parser returned, a parser's
    rejection) or in an ``Interrupt``'s display text, it reads ``[redacted]``.
    The strings are looked for in the context itself, in its mapping values,
    list, tuple and set items and dataclass fields, 4 levels deep and among
    its first 1,000 values, and in ``get_secret_value()`` of pydantic's
    ``SecretStr``; not under ``tool_call_id``, nor under ``run_context`` (an
    agent framework's run state, see the integrations). A tool's answer (its
    ``Ok`` content) is its own and is not changed.
    """

    __slots__ = ()


#: the answers to LangGraph's ``interrupt()`` that approve (any case, spaces around)
_YES = frozenset({"yes", "y", "approve", "approved"})


def approved(context: object) -> bool:
    """Whether a person approved this call, in the way the host running the tool carries it.

    The one test a tool that asks first (:func:`~toolparse.interrupt`) makes in every host:
    your own loop, ``context["approved"] is True``; LangGraph, ``context["resume"]`` is
    ``True``, ``"yes"``, ``"approve"`` or ``"approved"``, or a mapping whose ``"approved"`` is
    ``True`` or whose ``"type"`` is ``"approve"``; MCP, ``context["mcp"].approved``;
    pydantic-ai, ``context["tool_call_approved"] is True``; the OpenAI Agents SDK, the run
    approved this call (``RunContextWrapper.is_tool_approved``, for a tool made with
    ``needs_approval=``). Anything else, or a context that is not a mapping, is not.
    """
    if not isinstance(context, Mapping):
        return False
    if context.get("approved") is True or context.get("tool_call_approved") is True:
        return True
    if getattr(context.get("mcp"), "approved", False) is True:
        return True
    resume = context.get("resume")
    if resume is True or (isinstance(resume, str) and resume.strip().lower() in _YES):
        return True
    if isinstance(resume, Mapping) and (
        resume.get("approved") is True or resume.get("type") == "approve"
    ):
        return True
    run = context.get("run_context")
    asked = getattr(run, "is_tool_approved", None)  # the OpenAI Agents SDK's ToolContext
    if callable(asked):
        try:
            return asked(run.tool_name, run.tool_call_id) is True  # type: ignore[union-attr]
        except (AttributeError, TypeError):  # a run context of another shape
            return False
    return False


def is_context(annotation: Any) -> bool:
    """Whether an annotation marks the context parameter."""
    origin = getattr(annotation, "__origin__", None)
    return annotation is Context or origin is Context or annotation == "Context"


def secrets_of(context: object) -> tuple[str, ...]:
    """The strings of ``context`` no model-facing text may carry, longest first.

    Each string also stands for the forms it takes inside another text: its ``repr`` and its
    JSON encoding (escaped quotes, backslashes, non-ASCII). Bounded work whatever the context
    (:data:`MAX_SECRET_DEPTH`, :data:`MAX_SECRET_VALUES`); a value that fails to be read is skipped.
    """
    if context is None or (type(context) is dict and context.keys() <= _OWN_KEYS):
        return ()  # no context, or only what a batch adds: nothing to look for
    found: set[str] = set()
    stack: list[tuple[object, int]] = [(context, 1)]
    seen: set[int] = set()
    budget = MAX_SECRET_VALUES
    while stack and budget > 0:
        value, depth = stack.pop()
        budget -= 1
        if isinstance(value, str):
            if len(value) >= MIN_SECRET_CHARS:
                found.add(str(value))
            continue
        if depth > MAX_SECRET_DEPTH or id(value) in seen:
            continue
        seen.add(id(value))
        try:
            children = _children(value, depth == 1)
            stack.extend((child, depth + 1) for child in islice(children, budget))
        except Exception:  # a context object that cannot be read hides nothing it can show
            continue
    secrets: set[str] = set()
    for text in found:
        secrets.add(text)
        for form in (repr(text)[1:-1], json.dumps(text)[1:-1]):
            if len(form) >= MIN_SECRET_CHARS:
                secrets.add(form)
    return tuple(sorted(secrets, key=len, reverse=True))


def _children(value: object, top: bool) -> Iterable[object]:
    """The values inside one value of a context."""
    if isinstance(value, Mapping):
        if top:
            return (v for k, v in value.items() if k not in _OWN_KEYS)
        return value.values()
    if isinstance(value, (list, tuple, set, frozenset)):
        return value
    # a dataclass instance exists only once dataclasses is imported: not importing it
    # here keeps ``import toolparse`` from loading it (and inspect)
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is not None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (getattr(value, f.name, None) for f in dataclasses.fields(value))
    reveal = getattr(type(value), "get_secret_value", None)
    if callable(reveal):
        return (reveal(value),)  # pydantic's SecretStr: the secret is what it hides
    return ()


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every one of ``secrets`` (longest first) and of :func:`environ_secrets` replaced."""
    for secret in chain(secrets, environ_secrets()):
        text = text.replace(secret, REDACTED)
    return text


#: an environment variable whose name holds one of these words (any case) holds a secret
_SECRET_NAME = re.compile("TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL|AUTH", re.IGNORECASE)
# what was read of the environment: its size, when, the secret names, their values, the secrets
_ENVIRON: list[Any] = [-1, 0.0, (), (), ()]


def environ_secrets() -> tuple[str, ...]:
    """The values (6+ characters) of environment variables named like secrets, longest first.

    Asked for each error text, and for each span's captured content. The names (tens of microseconds to read) are read again when
    the environment's size changes or a second on; the values always (no sign tells of a change).
    """
    size, when, names, values, secrets = _ENVIRON
    if len(os.environ) != size or time.monotonic() - when > 1.0:
        names = tuple(name for name in os.environ if _SECRET_NAME.search(name))
        _ENVIRON[:3] = len(os.environ), time.monotonic(), names
    current = tuple(map(os.environ.get, names)) if names else ()
    if current != values:
        secrets = secrets_of(current)  # and the forms each takes inside another text
        _ENVIRON[3:] = current, secrets
    return secrets  # type: ignore[no-any-return]
