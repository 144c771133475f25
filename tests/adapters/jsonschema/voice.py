"""The JSON Schema adapter's sources for the conformance kit's one-voice check."""

from __future__ import annotations

from typing import Any

from toolparse.testing import OneVoice


def one_voice(check: OneVoice) -> Any:
    """The check's own schema: JSON Schema says every one of them."""
    return check.json_schema()
