"""A Function's plan: the steps its calls go through, chosen and compiled once.

At definition a Function picks its steps: decode the arguments, restore nulls
(when its schema has optional properties), then either the required-key check
and the policy (no parser) or the parser with the policy around it, then the
body and its outcome. Each step is written once below, as a short piece of
Python; the plan joins the pieces a Function needs into straight-line
functions and compiles them (as attrs compiles its ``__init__``), so a call
runs one function with no flags to read and no step-to-step calls. Execution
is parsing followed by the body step, by construction: ``parse_arguments``
runs exactly what ``execute`` runs first.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from types import CodeType, FunctionType
from typing import Any

from .._nulls import null_restorer
from ..arguments import Arguments, Limits, decode
from ..contract import Error, Ok, Outcome, ParseResult
from ..problems import InvalidArguments, pending
from ._callables import _run_sync, isawaitable
from ._outcome import Outcomes, redacted, text_of
from ._policy import Policy

__all__: list[str] = []

# -- the steps, each written once ---------------------------------------------------
# ``args`` is the arguments dict so far; a parsing step leaves ``parsed`` (an
# Ok) or ``value`` (what the body gets); ``{call}`` and ``{aw}`` are filled in
# per Function (how its parser and body are called, and whether to await).

_DECODE = """
    if type(arguments) is dict:
        args = arguments
    else:
        args = decode(arguments, name, limits)
        if type(args) is Error:
            return args
"""

# null for an optional property means "absent"; skipped (one set test) when
# no property that may hold such a null was sent, as in most calls
_NULLS = """
    if not watch.isdisjoint(args) and (not deep.isdisjoint(args) or None in args.values()):
        args = restore(args)
"""

# the same where the top-level names are unknown (e.g. a root $ref)
_NULLS_ALWAYS = """
    args = restore(args)
"""

# a name the application bound (a partial's) rejects the call under every policy
_BOUND = """
    if not bound.isdisjoint(args):
        return rejected_bound(args)
"""

# "ignore" before an adapter's parser: the parser never sees unknown names
_DROP = """
    if not accepted.issuperset(args):
        args = {k: v for k, v in args.items() if k in accepted}
"""

# no parser: the required keys, then the policy; the body gets Arguments
_CHECK = """
    if {fits}:
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
_PARAMETERS = """
    checked_value = check_parameters(value)
    if checked_value is not None:
        if type(checked_value) is Error:
            return checked_value
        value = checked_value
"""

# before that check, a quick test of the declared values: when each is absent
# or of the exact type the check keeps as it is (a string among a string enum),
# the check would pass and is not called; any other value goes to the check
_QUICK_PARAMETERS = """
    get = value.get
    if not ({quick}):
        checked_value = check_parameters(value)
        if checked_value is not None:
            if type(checked_value) is Error:
                return checked_value
            value = checked_value
"""

#: one parameter's quick test by its kind (``{i}``: its place in the declaration)
_QUICK = {
    "type": "type(get(_k{i}, _absent)) in _t{i}",
    "choice": "((v := get(_k{i}, _absent)) is _absent or (type(v) is str and v in _t{i}))",
    "absent": "get(_k{i}, _absent) is _absent",
}


class _Absent:
    """What a quick test reads for a parameter that was not sent."""

    __slots__ = ()


_ABSENT = _Absent()


class QuickTest:
    """One declared parameter's quick test: its kind (see ``_QUICK``), name and what passes.

    ``passes``: the exact types (kind ``"type"``) or the strings (``"choice"``)
    a value may have to pass without the check; ``optional``: absent passes too.
    """

    __slots__ = ("kind", "name", "optional", "passes")

    def __init__(self, kind: str, name: str, passes: frozenset[Any], optional: bool) -> None:
        self.kind = kind
        self.name = name
        self.passes = passes | {_Absent} if kind == "type" and optional else passes
        self.optional = optional


# a parser with the policy around it: arguments with names the policy may add
# are parsed with the adapter's rendering held back, so they join its problems
# before the one rendering (in settle)
_PARSE_GUARDED = """
    within = accepted.issuperset(args)
    try:
        if within:
            parsed = {call}
            {awaiting}
        else:
            with pending(args):
                parsed = {call}
                {awaiting}
    except Exception as exc:
        return failed(exc, args, context)
    if within and type(parsed) is Ok:
        value = parsed[0]
        if value is None:
            value = args
    else:
        parsed = settle(parsed, args, within, context)
        if type(parsed) is Error:
            return parsed
        value = parsed[0]
"""

# a parser no policy wraps (yours, or an adapter's for names that are unknown)
_PARSE = """
    try:
        parsed = {call}
        {awaiting}
    except Exception as exc:
        return failed(exc, args, context)
    if type(parsed) is not Ok:
        return settle(parsed, args, True, context)
    value = parsed[0]
    if value is None:
        value = args
"""

_PARSED = """
    return _new(Ok, (value, None))
"""

# a parser's own Ok, when it carries the value, is the result as it is
_PARSED_AS_IS = """
    return parsed if type(parsed) is Ok and parsed[0] is value else _new(Ok, (value, None))
"""

# the body, and the outcome of what it returned: {finish} is how an awaitable
# result is completed (awaited, run to completion, or handed back)
_BODY = """
    try:
        out = {call}
    except (Exception, SystemExit) as exc:  # a body's exit is its failure, not the caller's
        return rescue(exc, value, context)
    if type(out) is str:
        return _new(Ok, (out, None))
    if isawaitable(out):
        return {finish}
    return outcome(out, context)
"""

_AWAITING = "if isawaitable(parsed): parsed = await parsed"


class Plan:
    """The entry points of one Function, compiled from its steps.

    ``call(value, context)`` is the body step alone (for callers that parse
    first and run the body elsewhere); it gives an outcome, or an awaitable to
    pass to ``finish(awaitable, value, context)``.
    """

    __slots__ = ("aparse", "arun", "call", "finish", "parse", "run")

    parse: Callable[[Any, Any], ParseResult]
    aparse: Callable[[Any, Any], Awaitable[ParseResult]]
    run: Callable[[Any, Any], Outcome]
    arun: Callable[[Any, Any], Awaitable[Outcome]]
    call: Callable[[Any, Any], Any]
    finish: Callable[[Any, Any, Any], Awaitable[Outcome]]


def _watch(
    schema: Mapping[str, Any], restore: Callable[[Any], Any]
) -> tuple[frozenset[str], frozenset[str]] | None:
    """The top-level names that may hold a null to drop: ``(watch, deep)``.

    ``deep`` are those under which a null may hide further down; ``watch``
    adds those whose own null means absent. ``None``: the top-level names are
    not known, so every call is walked.
    """
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return None
    deep = frozenset(
        name
        for name, prop in props.items()
        if null_restorer({**schema, "properties": {name: prop}, "required": [name]}) is not None
    )
    own = frozenset(name for name in props if isinstance(name, str) and not restore({name: None}))
    return own | deep, deep


def _settler(
    policy: Policy | None,
) -> Callable[[object, dict[str, Any], bool, Any], ParseResult]:
    merge = policy.merge if policy is not None else None
    accepted = policy.accepted if policy is not None else ()

    def settle(result: object, args: dict[str, Any], within: bool, context: Any) -> ParseResult:
        """Check a parser's result; merge the unknown-name policy into it.

        A rejection has the context's strings redacted (a parser given the
        context may quote it).
        """
        kind = type(result)
        outcome: ParseResult
        if kind is Ok:
            outcome = result if result[0] is not None else Ok(args)  # type: ignore[index, assignment]
        elif kind is Error:
            message = result[0]  # type: ignore[index]
            outcome = result if isinstance(message, str) else Error(text_of(message), result[1])  # type: ignore[assignment, index]
        else:
            # the type alone: the value may hold anything (the context, secrets)
            return Error(f"parse_args returned unexpected shape: {kind.__name__}")
        if merge is None or (within and kind is Ok):
            return outcome if kind is Ok else redacted(outcome, context)  # type: ignore[arg-type]
        if within:
            # every name sent is accepted: the policy adds nothing, and an adapter
            # that rendered its rejection with these names said it all already
            exc = outcome[1]
            if not isinstance(exc, InvalidArguments) or (outcome[0] and exc.accepted == accepted):
                return redacted(outcome, context)  # type: ignore[arg-type]
        merged = merge(outcome, args)
        return merged if type(merged) is Ok else redacted(merged, context)  # type: ignore[arg-type]

    return settle


# A source is only ever a join of the fixed pieces above (never a name, a
# description or any other text from a definition), so a few hundred distinct
# sources exist at most; each is compiled once per process. The bound holds
# whatever the number of Functions defined.
@functools.lru_cache(maxsize=512)
def _code(source: str) -> CodeType:
    return compile(source, "<toolparse plan>", "exec")


def _function_code(header: str, pieces: list[str]) -> CodeType:
    """The code of the one function a source defines (its module code holds it)."""
    module = _code(header + "".join(pieces))  # our own pieces, joined at definition
    return next(c for c in module.co_consts if isinstance(c, CodeType))


#: which pieces a plan is made of (see ``_shape``): the entry points' code is
#: compiled once per shape, and each Function only binds it to its namespace
_Shape = tuple[bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, bool, str]


@functools.lru_cache(maxsize=512)
def _entry_points(shape: _Shape) -> dict[str, CodeType]:
    (
        nulls,
        nulls_always,
        bound,
        has_parser,
        named,
        check_parameters,
        guarded,
        ignore,
        parser_context,
        body_context,
        parser_async,
        body_async,
        quick,
    ) = shape
    context = ", context" if parser_context else ""

    def parsing(awaiting: str) -> list[str]:
        steps = [_DECODE]
        if nulls:
            steps.append(_NULLS_ALWAYS if nulls_always else _NULLS)
        if bound:
            steps.append(_BOUND)
        if not has_parser:
            fits = (
                # every accepted name sent and no other: one comparison says it
                # all; else the required names, and only names that pass (the
                # accepted ones, and under "report" those remembered as
                # resembling none of them)
                # (a keys view compares with a set in place: ``issubset`` of a
                # dict would first copy its keys into a new set)
                "args.keys() == accepted or (args.keys() >= required and passes.issuperset(args))"
                if named
                else "args.keys() >= required"
            )
            steps.append(_CHECK.format(fits=fits))
            if quick:
                test = " and ".join(
                    _QUICK[kind].format(i=i) for i, kind in enumerate(quick.split(","))
                )
                steps.append(_QUICK_PARAMETERS.format(quick=test))
            elif check_parameters:
                steps.append(_PARAMETERS)
            return steps
        if guarded and ignore:
            steps.append(_DROP)
        step = _PARSE_GUARDED if guarded else _PARSE
        steps.append(step.format(call=f"parser(args{context})", awaiting=awaiting))
        return steps

    body_call = "function(value, context)" if body_context else "function(value)"

    def body(finish: str) -> str:
        return _BODY.format(call=body_call, finish=finish)

    sync = "def {}(arguments, context):"
    asynchronous = "async def {}(arguments, context):"
    parsed = _PARSED_AS_IS if has_parser else _PARSED
    codes = {
        "aparse": _function_code(asynchronous.format("aparse"), [*parsing(_AWAITING), parsed]),
        "arun": _function_code(
            asynchronous.format("arun"),
            [*parsing(_AWAITING), body("await finish(out, value, context)")],
        ),
        "call": _function_code("def call(value, context):", [body("out")]),
    }
    if not parser_async:
        codes["parse"] = _function_code(sync.format("parse"), [*parsing(""), parsed])
    if not (parser_async or body_async):
        # a sync callable may still return an awaitable (a partial of an async def)
        codes["run"] = _function_code(
            sync.format("run"), [*parsing(""), body("_run_sync(finish(out, value, context))")]
        )
    return codes


class _Keyed:
    """A value cached under a key that fully determines it (compared by the key alone)."""

    __slots__ = ("key", "value")

    def __init__(self, key: Hashable, value: Any) -> None:
        self.key = key
        self.value = value

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Keyed) and self.key == other.key


_Nulls = tuple[Callable[[Any], Any] | None, tuple[frozenset[str], frozenset[str]] | None]


def _nulls_step(schema: Mapping[str, Any]) -> _Nulls:
    """The null-restoring step of ``schema`` and the names it watches (``None``: no step)."""
    restore = null_restorer(schema)
    return restore, (_watch(schema, restore) if restore is not None else None)


@functools.lru_cache(maxsize=256)
def _shared_nulls_step(keyed: _Keyed) -> _Nulls:
    # the step only reads the arguments it is given: Functions of one schema share it
    return _nulls_step(keyed.value)


def compile_plan(
    *,
    name: str,
    limits: Limits,
    schema: Mapping[str, Any],
    policy: Policy,
    parser: Callable[..., Any] | None,
    parser_arity: int,
    guarded: bool,
    outcomes: Outcomes,
    function: Callable[..., Any],
    body_arity: int,
    parser_async: bool,
    body_async: bool,
    check_parameters: Callable[[Any], Any] | None = None,
    quick_tests: Sequence[QuickTest] = (),
    schema_key: Hashable | None = None,
) -> Plan:
    """Choose a Function's steps and compile them into its plan.

    :param guarded: apply the policy around ``parser`` (an adapter's parser
        whose accepted names are known; never your own ``parse_args``).
    :param check_parameters: without a parser, the check of the declared
        parameters' values that follows the required-key check (``None``:
        none); it returns the Error that rejects the call, ``None``, or the
        arguments the body gets instead.
    :param schema_key: a key that fully determines ``schema`` (a declaration
        the core turned into it), so that tools of one declaration share the
        steps built from it; ``None``: built for this schema alone.
    """
    if schema_key is None:
        restore, watched = _nulls_step(schema)
    else:
        restore, watched = _shared_nulls_step(_Keyed(schema_key, schema))
    namespace: dict[str, Any] = {
        "__builtins__": builtins,
        "Arguments": Arguments,
        "Error": Error,
        "Ok": Ok,
        "_new": tuple.__new__,
        "_run_sync": _run_sync,
        "accepted": policy.accepted_set,
        "passes": policy.passes,
        "bound": policy.bound,
        "rejected_bound": policy.rejected_bound,
        "check_parameters": check_parameters,
        "checked": policy.checked,
        "decode": decode,
        "deep": watched[1] if watched is not None else frozenset(),
        "failed": lambda exc, args, context: outcomes.parser_failed(exc, args, limits, context),
        "finish": outcomes.finish,
        "function": function,
        "isawaitable": isawaitable,
        "limits": limits,
        "name": name,
        "outcome": outcomes.outcome,
        "parser": parser,
        "pending": pending,
        "required": policy.required_set,
        "rescue": outcomes.rescue,
        "restore": restore,
        "settle": _settler(policy if guarded else None),
        "watch": watched[0] if watched is not None else frozenset(),
        "_absent": _ABSENT,
    }
    for i, test in enumerate(quick_tests):
        namespace[f"_k{i}"] = test.name
        namespace[f"_t{i}"] = test.passes
    codes = _entry_points(
        (
            restore is not None,
            restore is not None and watched is None,
            bool(policy.bound),
            parser is not None,
            bool(policy.accepted),
            check_parameters is not None,
            guarded,
            policy.policy == "ignore",
            parser_arity == 2,
            body_arity == 2,
            parser_async,
            body_async,
            ",".join(t.kind for t in quick_tests) if check_parameters is not None else "",
        )
    )
    plan = Plan()
    plan.aparse = FunctionType(codes["aparse"], namespace)
    plan.arun = FunctionType(codes["arun"], namespace)
    plan.call = FunctionType(codes["call"], namespace)
    plan.finish = outcomes.finish
    if parser_async:
        aparse = plan.aparse

        def parse(arguments: Any, context: Any) -> ParseResult:
            return _run_sync(aparse(arguments, context))  # type: ignore[no-any-return]

        plan.parse = parse
    else:
        plan.parse = FunctionType(codes["parse"], namespace)
    if parser_async or body_async:
        arun = plan.arun

        def run(arguments: Any, context: Any) -> Outcome:
            # one event loop for the parser and the body
            return _run_sync(arun(arguments, context))  # type: ignore[no-any-return]

        plan.run = run
    else:
        plan.run = FunctionType(codes["run"], namespace)
    return plan
