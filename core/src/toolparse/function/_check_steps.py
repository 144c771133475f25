"""The steps of a call with no parser, each written once: required keys, policy, quick tests.

Pieces of the plan's source as ``_steps`` joins them (``args`` is the
arguments dict so far; a step leaves ``value``, what the body gets), and the
quick test of one declared parameter's value.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ABSENT",
    "CHECK",
    "CHECK_NAMED",
    "GET",
    "PARAMETERS",
    "QUICK",
    "QUICK_PARAMETERS",
    "QuickTest",
]

# no parser: the required keys, then the policy; the body gets Arguments
CHECK = """
    if {fits}:
        value = Arguments(args)
    else:
        parsed = checked(args)
        if type(parsed) is Error:
            return parsed
        value = parsed[0]
"""

# the same where the accepted names are known. The names of the last call that
# passed (at first the accepted names) or every accepted name sent and no
# other: one comparison says it all. The last call's names come first: a model
# tends to send the same names again (an optional name left out, an extra name
# it keeps sending). Else the required names and only names that pass: the
# accepted ones, and under "report" those remembered as resembling none of
# them (the names that pass only grow, so a set of names that passed once
# always does). A keys view compares with a set in place (``issubset`` of a
# dict would first copy its keys into a new set); one view serves every test.
CHECK_NAMED = """
    keys = args.keys()
    if keys == last[0] or keys == accepted:
        value = Arguments(args)
    elif keys >= required and passes.issuperset(args):
        last[0] = frozenset(args)
        value = Arguments(args)
    else:
        parsed = checked(args)
        if type(parsed) is Error:
            return parsed
        value = parsed[0]
"""

# checks of the declared parameters after the required-key check (no parser):
# an Error ends the call, None lets it through, other arguments replace the
# body's (nested names dropped under "ignore")
PARAMETERS = """
    checked_value = check_parameters(value)
    if checked_value is not None:
        if type(checked_value) is Error:
            return checked_value
        value = checked_value
"""

# before that check, a quick test of the declared values: when each is absent
# or of the exact type the check keeps as it is (a string among a string enum),
# the check would pass and is not called; any other value goes to the check.
# The test reads ``args``: the body's arguments hold the same value for every
# accepted name (under "ignore" only the other names are dropped), and a plain
# dict is the quicker read. The required names were sent (the check before
# says so), so they are read by subscript; ``{get}`` binds ``get`` when an
# optional one needs it.
QUICK_PARAMETERS = """{get}
    if not ({quick}):
        checked_value = check_parameters(value)
        if checked_value is not None:
            if type(checked_value) is Error:
                return checked_value
            value = checked_value
"""

#: one parameter's quick test by its code (see ``QuickTest.code``; ``{i}``: its
#: place in the declaration). ``type1``: one type, ``_t{i}`` is that type.
QUICK = {
    "type1": "type(args[_k{i}]) is _t{i}",
    "type": "type(args[_k{i}]) in _t{i}",
    "type?": "type(get(_k{i}, _absent)) in _t{i}",
    "choice": "(type(v := args[_k{i}]) is str and v in _t{i})",
    "choice?": "((v := get(_k{i}, _absent)) is _absent or (type(v) is str and v in _t{i}))",
    "absent?": "_k{i} not in args",
    "absent": "False",  # sent (it is required), so never passed: the check decides
}

GET = """
    get = args.get"""


class _Absent:
    """What a quick test reads for a parameter that was not sent."""

    __slots__ = ()


ABSENT = _Absent()


class QuickTest:
    """One declared parameter's quick test: its kind (see ``QUICK``), name and what passes.

    ``passes``: the exact types (kind ``"type"``) or the strings (``"choice"``)
    a value may have to pass without the check; ``optional``: absent passes too.
    """

    __slots__ = ("kind", "name", "optional", "passes")

    def __init__(self, kind: str, name: str, passes: frozenset[Any], optional: bool) -> None:
        self.kind = kind
        self.name = name
        self.passes = passes | {_Absent} if kind == "type" and optional else passes
        self.optional = optional

    @property
    def code(self) -> str:
        """The test's piece of the plan (a key of ``QUICK``)."""
        if self.optional:
            return f"{self.kind}?"
        if self.kind == "type" and len(self.passes) == 1:
            return "type1"
        return self.kind

    @property
    def operand(self) -> Any:
        """What the test's piece compares with (``_t{i}``): for ``type1`` the one type."""
        return next(iter(self.passes)) if self.code == "type1" else self.passes
