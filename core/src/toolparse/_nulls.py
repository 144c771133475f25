"""What ``function/_plan.py`` still reads of the null step; it goes once the plan calls :mod:`.nulls`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .nulls import null_restorer

__all__ = ["deep_names", "null_restorer"]


def deep_names(schema: Mapping[str, Any]) -> frozenset[str] | None:
    """The top-level names under which the step may change something further down.

    ``None``: the top-level names are not all known (a union, or a schema for
    the names not declared); ask per name.
    """
    restorer = null_restorer(schema)
    if restorer is None:
        return frozenset()
    return restorer._deep
