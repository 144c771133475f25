"""What Functions of one declaration share: keys for it, the compiled check, the quick tests.

Tools of one declaration (the same FunctionParams, policy and accepted names)
share what is built from it, once per process in bounded caches: the
compiled check of the declared values and the null-restoring step.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from ..params import FunctionParam
from ._steps import QuickTest

__all__ = ["Keyed", "checker", "params_key", "quick_tests", "shared_checker"]


class Keyed:
    """A value cached under a key that fully determines it (compared by the key alone)."""

    __slots__ = ("key", "value")

    def __init__(self, key: Hashable, value: Any) -> None:
        self.key = key
        self.value = value

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Keyed) and self.key == other.key


#: enum values whose type and text say all a check does with them
_SCALARS = frozenset((str, int, float, bool, type(None)))


def params_key(params: Iterable[FunctionParam]) -> tuple[Any, ...] | None:
    """What the declared ``params`` mean, as a key (``None``: not expressible as one).

    ``FunctionParam`` equality says ``1 == True`` and ``0.0 == -0.0``; a check
    and its message tell them apart, so enum values are keyed by type and text.
    """
    key = []
    for p in params:
        if not all(type(v) in _SCALARS for v in p.enum):
            return None
        try:
            enum = tuple((type(v), repr(v)) for v in p.enum)
        except ValueError:  # an integer past Python's text limit
            return None
        nested = params_key(p.object_properties) if p.object_properties else ()
        if nested is None:
            return None
        key.append((p.name, p.type, p.item_type, enum, p.required, p.description, nested))
    return tuple(key)


#: the exact types the check keeps as they are, by declared type (a boolean is
#: no integer: ``type`` tells them apart; an integer sent for a number goes to
#: the check, which also refuses one past what a float holds)
_KEPT_TYPES: Mapping[str, frozenset[type]] = {
    "string": frozenset((str,)),
    "integer": frozenset((int,)),
    "number": frozenset((float,)),
    "boolean": frozenset((bool,)),
}

#: past this many parameters the check runs on every call (the quick test is one expression)
_MAX_QUICK = 16


def quick_tests(params: Sequence[FunctionParam], accepted: Sequence[str]) -> tuple[QuickTest, ...]:
    """The quick tests of the top-level parameters (empty: none can be made)."""
    names = set(accepted)
    tests = []
    passes: frozenset[Any]
    for p in params:
        if p.name not in names:
            continue  # bound: never sent
        if p.enum:
            if p.type != "string" or not all(type(v) is str for v in p.enum):
                kind, passes = "absent", frozenset()
            else:
                kind, passes = "choice", frozenset(p.enum)
        elif p.type in _KEPT_TYPES:
            kind, passes = "type", _KEPT_TYPES[p.type]
        else:
            kind, passes = "absent", frozenset()  # arrays and objects: the check's alone
        if kind == "absent" and p.required:
            return ()  # always sent, never passed by the quick test: no use for one
        tests.append(QuickTest(kind, p.name, passes, not p.required))
    return tuple(tests) if len(tests) <= _MAX_QUICK else ()


def checker(keyed: Keyed) -> Callable[[Any], Any]:
    """The compiled check of declared parameters' values."""
    # lazy: the built-in adapter's compiler is loaded by the first Function
    # that declares parameters, not by ``import toolparse``
    from ..plain._params import params_checker

    params, accepted, policy = keyed.value
    return params_checker(params, accepted, policy)


# the check only reads the arguments it is given: Functions of one declaration share it
shared_checker = functools.lru_cache(maxsize=256)(checker)
