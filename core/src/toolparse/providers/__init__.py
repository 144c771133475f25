"""Provider formats (placeholder until written)."""

from __future__ import annotations

from typing import Any


def builtin_providers() -> list[Any]:
    return []
