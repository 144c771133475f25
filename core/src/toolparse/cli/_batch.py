"""One batch of recorded lines, checked: the unit of work of ``toolparse check``, in or out of process."""

from __future__ import annotations

import json

from ..checking import check_calls
from ..function import Function
from ._summary import Summary

__all__ = ["check_batch"]

_encode = json.JSONEncoder().encode


def check_batch(
    tools: list[Function],
    names: list[str],
    first: int,
    lines: list[bytes],
    fmt: str,
    label: str,
    as_json: bool,
) -> tuple[Summary, str]:
    """Check one batch of lines: its summary, and its ``--json`` text (``""`` without ``--json``).

    Both are made where the batch is checked, so that a worker process sends
    back a few counts and one string, not a result object per call.
    """
    summary = Summary(names)
    summary.records = len(lines)
    out = []
    dumps = _encode
    for result in check_calls(tools, lines, format=fmt, start=first):
        summary.add(result, label)
        if as_json:
            out.append(dumps({"file": label, **result.as_dict()}) + "\n")
    return summary, "".join(out)
