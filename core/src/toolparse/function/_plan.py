"""A Function's plan: the steps its calls go through, chosen and compiled once.

At definition a Function picks its steps: decode the arguments, restore nulls
(when its schema has optional properties), then either the required-key check
and the policy (no parser) or the parser with the policy around it, then the
body and its outcome. Each step is written once (``_steps``), as a short piece
of Python; the plan joins the pieces a Function needs into straight-line
functions and compiles them (as attrs compiles its ``__init__``), so a call
runs one function with no flags to read and no step-to-step calls. Execution
is parsing followed by the body step, by construction: ``parse_arguments``
runs exactly what ``execute`` runs first.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from types import FunctionType
from typing import Any

from .._nulls import deep_names, null_restorer
from ..arguments import Arguments, Limits, decode
from ..contract import Error, Ok, Outcome, ParseResult
from ..problems import InvalidArguments
from ._callables import _run_sync, isawaitable
from ._outcome import Outcomes, holds_no_string, redacted, text_of
from ._policy import Policy
from ._shared import Keyed
from ._steps import ABSENT, SETTLED, QuickTest, entry_points

__all__: list[str] = []


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
    deep = deep_names(schema)  # one plan for every name, where the root is a plain object
    if deep is None:
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


_Nulls = tuple[Callable[[Any], Any] | None, tuple[frozenset[str], frozenset[str]] | None]


def _nulls_step(schema: Mapping[str, Any]) -> _Nulls:
    """The null-restoring step of ``schema`` and the names it watches (``None``: no step)."""
    restore = null_restorer(schema)
    return restore, (_watch(schema, restore) if restore is not None else None)


@functools.lru_cache(maxsize=256)
def _shared_nulls_step(keyed: Keyed) -> _Nulls:
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
    nulls_after_reject: bool = False,
    verdict: Callable[[Any], bool] | None = None,
    closed: bool = False,
    explain: Callable[..., Any] | None = None,
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
    :param nulls_after_reject: ``parser`` checks ``schema`` itself, so nulls
        deeper than the top level are restored only when it rejects a call
        (see :attr:`~toolparse.adapter.Compiled.nulls_after_reject`).
    :param verdict: the sync ``parser``'s verdict alone: a call it accepts
        skips the parser (see :attr:`~toolparse.adapter.Compiled.verdict`).
    :param closed: ``parser`` refuses every name outside the accepted ones,
        so a call ``verdict`` accepts skips the accepted-names test.
    :param explain: ``parser`` for a call ``verdict`` refused, without
        deciding again (see :attr:`~toolparse.adapter.Compiled.explain`).
    """
    if parser is None or parser_async:
        verdict = None
    if verdict is None:
        explain = None
    if schema_key is None:
        restore, watched = _nulls_step(schema)
    else:
        restore, watched = _shared_nulls_step(Keyed(schema_key, schema))
    namespace: dict[str, Any] = {
        "__builtins__": builtins,
        "Arguments": Arguments,
        "Error": Error,
        "Ok": Ok,
        "_new": tuple.__new__,
        "_run_sync": _run_sync,
        "accepted": policy.accepted_set,
        "passes": policy.passes,
        # the names of the last call that passed the quick test (one slot, per Function)
        "last": [policy.accepted_set],
        "bound": policy.bound,
        "rejected_bound": policy.rejected_bound,
        "check_parameters": check_parameters,
        "clean": holds_no_string,
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
        "InvalidArguments": InvalidArguments,
        "names": policy.accepted,
        "required": policy.required_set,
        "rescue": outcomes.rescue,
        "restore": restore,
        "settle": _settler(policy if guarded else None),
        "settled": SETTLED,
        "verdict": verdict,
        "explain": explain,
        "watch": watched[0] if watched is not None else frozenset(),
        "_absent": ABSENT,
    }
    for i, test in enumerate(quick_tests):
        namespace[f"_k{i}"] = test.name
        namespace[f"_t{i}"] = test.operand
    codes = entry_points(
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
            ",".join(t.code for t in quick_tests) if check_parameters is not None else "",
            nulls_after_reject,
            verdict is not None,
            closed,
            explain is not None,
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
