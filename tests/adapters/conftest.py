"""Collect an adapter's tests only where that adapter is installed (tox runs each alone)."""

from __future__ import annotations

import importlib.util

_ADAPTERS = ("pydantic", "marshmallow", "attrs", "jsonschema")

collect_ignore_glob = [
    f"{name}/*" for name in _ADAPTERS if importlib.util.find_spec(f"toolparse_{name}") is None
]
