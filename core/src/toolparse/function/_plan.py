"""A Function's plan: the steps its calls go through, chosen once at definition.

A call is decoded, its nulls restored (where the schema has optional
properties), checked (the required keys and the policy, then the declared
parameters' values; or the parser, with the policy after an adapter's), and
then its body runs and what it returned becomes an outcome. Each step is a
plain callable picked when the Function is defined: a call runs the ones it
needs and nothing else, and ``parse_arguments`` runs exactly what
``execute`` runs before the body.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..arguments import Arguments, Limits, decode
from ..context import secrets_of
from ..contract import Error, Interrupt, Ok, Outcome, ParseResult
from ..results import ToolResult
from ._callables import isawaitable, run_sync
from ._outcomes import Outcomes, redacted, text_of
from ._policy import Policy

__all__: list[str] = []

#: what a step gives: a parse result, or an awaitable of one (an async parser's)
Check = Callable[[dict[str, Any], Any], ParseResult]
Restore = Callable[[dict[str, Any]], dict[str, Any]]

#: the exact types a body commonly returns that are never awaitable: one set
#: test spares them the awaitable test (an ABC check) before their outcome
_SETTLED: frozenset[type] = frozenset(
    {dict, list, tuple, int, float, bool, type(None), Ok, Error, Interrupt, ToolResult}
)
_OUTCOMES: frozenset[type] = frozenset({Ok, Error, Interrupt})


class Parameters:
    """No parser, declared ``parameters``: the required keys and the policy, then the values.

    ``values(arguments)`` is the built-in adapter's check of the declared
    values: the ``Error`` naming every problem, ``None`` when they fit, or the
    arguments the body gets instead (names a nested object does not declare
    dropped under ``"ignore"``).
    """

    __slots__ = ("checked", "values")

    def __init__(
        self, policy: Policy, values: Callable[[Arguments], Error | Arguments | None]
    ) -> None:
        self.checked = policy.checked
        self.values = values

    def __call__(self, args: dict[str, Any], context: Any = None) -> ParseResult:
        found = self.checked(args)
        if type(found) is Error:
            return found
        problem = self.values(found[0])
        if problem is None:
            return found
        return problem if type(problem) is Error else Ok(problem)


class Parser:
    """A parser's step: called with the context when it takes one, its result checked.

    :param policy: the policy applied after an adapter's parser (``None``
        for your own ``parse_args``, which owns validation outright, and for
        an adapter whose accepted names are unknown).
    :param retry: for an adapter whose parser checks its schema's nulls
        itself (``Compiled.nulls_after_reject``): the full null-restoring
        walk, run only once a call is rejected; a call it changes is parsed
        again, and that verdict is the answer.
    """

    __slots__ = ("drop", "limits", "outcomes", "parser", "policy", "retry", "with_context")

    def __init__(
        self,
        parser: Callable[..., Any],
        *,
        with_context: bool,
        policy: Policy | None,
        outcomes: Outcomes,
        limits: Limits,
        retry: Restore | None,
    ) -> None:
        self.parser = parser
        self.with_context = with_context
        self.policy = policy
        #: under "ignore", the names to keep: the parser never sees the others
        self.drop = (
            policy.accepted_set if policy is not None and policy.policy == "ignore" else None
        )
        self.outcomes = outcomes
        self.limits = limits
        self.retry = retry

    def _kept(self, args: dict[str, Any]) -> dict[str, Any]:
        keep = self.drop
        if keep is None or keep.issuperset(args):
            return args
        return {k: v for k, v in args.items() if k in keep}

    def __call__(self, args: dict[str, Any], context: Any = None) -> ParseResult:
        args = self._kept(args)
        try:
            result = self.parser(args, context) if self.with_context else self.parser(args)
        except Exception as exc:
            return self.outcomes.parser_failed(exc, args, self.limits, context)
        settled = self.settled(result, args, context)
        again = self.again(settled, args)
        return settled if again is None else self(again, context)

    async def acall(self, args: dict[str, Any], context: Any = None) -> ParseResult:
        """:meth:`__call__` for an ``async def`` parser (a sync one is called as it is)."""
        args = self._kept(args)
        try:
            result = self.parser(args, context) if self.with_context else self.parser(args)
            if isawaitable(result):
                result = await result
        except Exception as exc:
            return self.outcomes.parser_failed(exc, args, self.limits, context)
        settled = self.settled(result, args, context)
        again = self.again(settled, args)
        return settled if again is None else await self.acall(again, context)

    def settled(self, result: object, args: dict[str, Any], context: Any) -> ParseResult:
        """The parser's result as a parse result: its shape checked, the policy applied.

        A rejection has the context's strings redacted (a parser given the
        context may quote it).
        """
        kind = type(result)
        outcome: ParseResult
        if kind is Ok:
            outcome = result if result[0] is not None else Ok(args)  # type: ignore[index, assignment]
        elif kind is Error:
            message = result[0]  # type: ignore[index]
            outcome = (
                result  # type: ignore[assignment]
                if isinstance(message, str)
                else Error(text_of(message, secrets_of(context)), result[1])  # type: ignore[index]
            )
        else:
            # the type alone: the value may hold anything (the context, secrets)
            return Error(f"parse_args returned unexpected shape: {kind.__name__}")
        if self.policy is not None:
            outcome = self.policy.after_parser(outcome, args)
        return outcome if isinstance(outcome, Ok) else redacted(outcome, context)

    def again(self, settled: ParseResult, args: dict[str, Any]) -> dict[str, Any] | None:
        """The arguments to parse again after a rejection (``None``: the answer stands)."""
        if self.retry is None or type(settled) is Ok:
            return None
        restored = self.retry(args)
        # (the walk may hand back an equal copy: that call is not parsed twice)
        return None if restored is args or restored == args else restored


class Plan:
    """The steps of one Function's calls (see the module's docstring).

    :param check: the step that decides a call: ``Policy.checked``,
        :class:`Parameters` or :class:`Parser`.
    :param restore: the null-restoring step before ``check`` (``None``: none).
    """

    __slots__ = (
        "acheck",
        "bound",
        "check",
        "function",
        "limits",
        "name",
        "outcomes",
        "policy",
        "restore",
        "with_context",
    )

    def __init__(
        self,
        *,
        name: str,
        limits: Limits,
        restore: Restore | None,
        policy: Policy,
        check: Check,
        function: Callable[..., Any],
        with_context: bool,
        outcomes: Outcomes,
    ) -> None:
        self.name = name
        self.limits = limits
        self.restore = restore
        self.policy = policy
        self.bound = policy.bound
        self.check = check
        self.acheck: Callable[[dict[str, Any], Any], Awaitable[ParseResult]] | None = getattr(
            check, "acall", None
        )
        self.function = function
        self.with_context = with_context
        self.outcomes = outcomes

    def prepare(self, arguments: object) -> dict[str, Any] | Error:
        """The arguments as a dict, nulls restored, or the Error that ends the call."""
        args = arguments if type(arguments) is dict else decode(arguments, self.name, self.limits)
        if isinstance(args, Error):
            return args
        if self.restore is not None:
            args = self.restore(args)
        if self.bound and not self.bound.isdisjoint(args):
            return self.policy.rejected_bound(args)
        return args

    def parse(self, arguments: object, context: Any = None) -> ParseResult:
        """What ``parse_arguments`` returns: ``Ok`` of the body's value, or the Error."""
        args = self.prepare(arguments)
        if isinstance(args, Error):
            return args
        return self.check(args, context)

    async def aparse(self, arguments: object, context: Any = None) -> ParseResult:
        """:meth:`parse` for async code (an ``async def`` parser is awaited)."""
        args = self.prepare(arguments)
        if isinstance(args, Error):
            return args
        if self.acheck is None:
            return self.check(args, context)
        return await self.acheck(args, context)

    def call(self, value: Any, context: Any = None) -> Any:
        """The body step alone: the outcome, or an awaitable to complete with ``finish``."""
        try:
            out = self.function(value, context) if self.with_context else self.function(value)
        except (Exception, SystemExit) as exc:  # a body's exit is its failure, not the caller's
            return self.outcomes.rescue(exc, value, context)
        if type(out) is str:
            return Ok(out)
        if type(out) in _SETTLED or not isawaitable(out):
            return self.outcomes.outcome(out, context)
        return out

    def finish(self, awaitable: Awaitable[Any], value: Any, context: Any = None) -> Any:
        """Complete what an async body returned (a coroutine of its outcome)."""
        return self.outcomes.finish(awaitable, value, context)

    def run(self, arguments: object, context: Any = None) -> Outcome:
        """What ``execute`` returns, for a sync parser and body."""
        parsed = self.parse(arguments, context)
        if type(parsed) is not Ok:
            return parsed
        value = parsed[0]
        out = self.call(value, context)
        if type(out) in _OUTCOMES:
            return out  # type: ignore[no-any-return]
        # a sync callable may still return an awaitable (a partial of an async def)
        return run_sync(self.outcomes.finish(out, value, context))  # type: ignore[no-any-return]

    async def arun(self, arguments: object, context: Any = None) -> Outcome:
        """What ``aexecute`` returns: async parsers and bodies awaited."""
        parsed = await self.aparse(arguments, context)
        if type(parsed) is not Ok:
            return parsed
        value = parsed[0]
        out = self.call(value, context)
        if type(out) in _OUTCOMES:
            return out  # type: ignore[no-any-return]
        return await self.outcomes.finish(out, value, context)

    def parse_to_completion(self, arguments: object, context: Any = None) -> ParseResult:
        """:meth:`parse` for an ``async def`` parser, from sync code (its own event loop)."""
        return run_sync(self.aparse(arguments, context))  # type: ignore[no-any-return]

    def run_to_completion(self, arguments: object, context: Any = None) -> Outcome:
        """:meth:`run` for an ``async def`` parser or body: one event loop for both."""
        return run_sync(self.arun(arguments, context))  # type: ignore[no-any-return]
