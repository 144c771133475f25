"""parse_tool_calls reads any Mapping as it reads a dict: the same calls, the same refusals."""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

import hypothesis.strategies as st
from hypothesis import given, settings

from toolparse import providers

from .payloads import REPLIES


def as_proxies(data: Any) -> Any:
    """``data`` with every dict a read-only ``MappingProxyType`` (a Mapping that is no dict)."""
    if isinstance(data, dict):
        return MappingProxyType({k: as_proxies(v) for k, v in data.items()})
    if isinstance(data, list):
        return [as_proxies(v) for v in data]
    return data


def pieces(data: Any) -> Iterator[Any]:
    """``data`` and every value inside it: the smaller shapes a provider reads too."""
    yield data
    values = data.values() if isinstance(data, dict) else data if isinstance(data, list) else ()
    for value in values:
        yield from pieces(value)


def outcome(payload: Any, provider: str) -> Any:
    try:
        calls = providers.parse_tool_calls(payload, provider)
    except ValueError as exc:
        return str(exc).replace("mappingproxy", "dict")
    return [(c.id, c.name, c.arguments, c.kind) for c in calls]


names = st.sampled_from(["plan_trip", "math.factorial", ""])
arguments = st.dictionaries(st.sampled_from(["city", "days"]), st.integers() | st.text(max_size=3))


@settings(max_examples=60, deadline=None)
@given(
    given_by=st.sampled_from(sorted(REPLIES)),
    parser=st.sampled_from(sorted(REPLIES)),
    calls=st.lists(st.tuples(names, arguments), max_size=3),
)
def test_a_mapping_reads_as_the_dict_it_holds(
    given_by: str, parser: str, calls: list[tuple[str, dict[str, Any]]]
) -> None:
    reply = REPLIES[given_by](calls)
    dumped = reply.model_dump() if hasattr(reply, "model_dump") else reply
    for piece in pieces(dumped):
        expected = outcome(piece, parser)
        got = outcome(as_proxies(piece), parser)
        if isinstance(expected, list) and isinstance(got, list):
            # arguments read from a proxy are the proxy itself: compare what they hold
            got = [
                (i, n, a if not isinstance(a, MappingProxyType) else dict(a), k)
                for i, n, a, k in got
            ]
        assert got == expected
