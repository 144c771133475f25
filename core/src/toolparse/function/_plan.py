"""A Function's plan: the steps its calls go through, chosen once at definition.

A call is decoded, its nulls restored (where the schema has optional
properties), then decided: by the parser, with the policy applied after an
adapter's, or, without a parser, by the required-key check and the policy
(then the declared parameters' values). Then the body runs and what it
returned becomes an outcome. The pieces (the parser, the check, the restorer,
the body) are chosen when the Function is defined; :meth:`Plan.steps` runs
them in order, one readable function, and ``parse_arguments`` runs exactly
what ``execute`` runs before the body.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .._repair import Mender
from ..arguments import decode
from ..contract import Error, Interrupt, Ok, Outcome, ParseResult
from ..nulls import null_restorer
from ..results import ToolResult
from ._callables import arity, bound_names, is_async, isawaitable
from ._outcomes import Outcomes, redacted
from ._policy import Policy

if TYPE_CHECKING:
    from ._declaration import Declaration
    from ._function import Function

__all__: list[str] = []


#: the exact types a body commonly returns that are never awaitable: one set
#: test spares them the awaitable test (an ABC check) before their outcome
_SETTLED: frozenset[type] = frozenset(
    {dict, list, tuple, int, float, bool, type(None), Ok, Error, Interrupt, ToolResult}
)
#: what :meth:`Plan.steps` gives when it is finished (anything else is awaited)
OUTCOMES: frozenset[type] = frozenset({Ok, Error, Interrupt})
_new = tuple.__new__  # Ok(value) without its Python-level constructor, on every call


class Pending:
    """An ``async def`` parser's result still to be awaited, with the arguments it was given."""

    __slots__ = ("args", "awaitable")

    def __init__(self, awaitable: Awaitable[Any], args: dict[str, Any]) -> None:
        self.awaitable = awaitable
        self.args = args


class Plan:
    """The pieces one Function's calls go through (see the module's docstring), chosen here.

    ``body_arity``/``parser_arity``: 1, or 2 with the context. The parser is
    the Function's ``parse_args``, else its adapter's (``None``: ``check``, the
    required-key check and the policy, then the declared values, decides). The
    policy applies after an adapter's parser whose names are known
    (``guarded``), never after your own; such a parser's ``verdict`` lets a
    call it accepts skip the parser. An adapter whose parser checks its
    schema's nulls itself (``nulls_after_reject``) gets only the top-level
    nulls restored, and ``retry``, the full walk, runs once it rejects a call:
    a call the walk changes is parsed again, and that verdict is the answer.
    """

    __slots__ = (
        "body_async",
        "bound",
        "check",
        "deep",
        "drop",
        "function",
        "guarded",
        "limits",
        "mend_text",
        "name",
        "names",
        "outcomes",
        "parser",
        "parser_async",
        "parser_context",
        "policy",
        "restore",
        "retry",
        "verdict",
        "with_context",
    )

    def __init__(
        self, owner: Function, found: Declaration, body_arity: int, parser_arity: int
    ) -> None:
        self.name = owner.name
        self.limits = owner.limits
        self.function = owner.function
        self.with_context = body_arity == 2
        self.body_async = is_async(owner.function)
        bound = bound_names(owner.function)
        parser = owner.parse_args if owner.parse_args is not None else found.parser
        # without a parser, the built-in adapter checks the declared parameters' values
        # (bound names are never sent: not checked)
        params = tuple(p for p in owner.parameters if p.name not in bound)
        values = None
        if parser is None and params:
            # loaded by the first Function that declares parameters (not by ``import toolparse``)
            from ..plain import params_checker

            values = params_checker(params, owner._accepted, owner.unknown_arguments)
        self.policy = policy = Policy(
            owner.unknown_arguments, owner._accepted, owner._required, bound, values
        )
        self.bound = policy.bound
        adapters = parser is not None and parser is found.parser
        if adapters:
            parser_arity = arity(parser, "parser", [])  # type: ignore[arg-type]
        self.parser = parser
        self.parser_context = parser_arity == 2
        self.parser_async = parser is not None and is_async(parser)
        guarded = adapters and bool(owner._accepted)
        #: the policy after the parser, or None
        self.guarded = policy if guarded else None
        #: the names an accepted call may send for the policy to have nothing to say
        self.names = policy.accepted_set if guarded else None
        #: the adapter's verdict: for its own sync parser whose names are known
        self.verdict = found.verdict if guarded and not self.parser_async else None
        #: under "ignore", the names to keep: an adapter's parser never sees the others
        self.drop = policy.accepted_set if guarded and policy.policy == "ignore" else None
        # the "wrong argument name" message is for bodies given the arguments as sent
        self.outcomes = Outcomes(owner, owner._pm, owner._accepted if parser is None else ())
        self.check = policy.checked
        restorer = null_restorer(owner._schema, found.key)
        early = restorer is not None and restorer.early
        if early:  # a free-form union branch takes what the walk changes: it runs first
            self.verdict = None
        after = adapters and found.nulls_after_reject and restorer is not None and not early
        self.restore: Callable[[dict[str, Any]], dict[str, Any]] | None = restorer
        self.deep: frozenset[str] | None = frozenset() if restorer is None else restorer.deep
        self.retry: Callable[[dict[str, Any]], dict[str, Any]] | None = restorer if after else None
        if restorer is not None and after:
            self.restore, self.deep = restorer.top, frozenset()
        # the walk that also decodes text where an object is wanted runs once an adapter's
        # parser, which refuses such text, rejected a call (else first); then text mended
        walk = owner.repair and null_restorer(owner._schema, found.key, repair=True)
        mend = Mender(walk or None, restorer, owner.name, owner.limits)
        if walk and adapters:
            self.retry = mend
        elif walk:
            self.restore, self.deep = mend, mend.deep
        self.mend_text = mend.text if owner.repair == "json" else None

    def steps(self, arguments: object, context: Any = None, body: bool = True) -> Any:  # noqa: PLR0912 - the hot path as one readable function, a branch per step
        """One call's steps, in order; ``body=False`` stops at the parsed value.

        Returns the outcome (``Ok``/``Error``/``Interrupt``; with
        ``body=False``, ``Ok`` of the body's value or the ``Error``), or what
        is left to await: an async body's coroutine of its outcome, or a
        :class:`Pending` async parser's result.
        """
        args: Any = arguments
        if type(args) is not dict:
            args = decode(arguments, self.name, self.limits)
            if type(args) is Error and (
                self.mend_text is None or type(args := self.mend_text(arguments, args)) is Error
            ):
                return args
        verdict = self.verdict
        if verdict is not None:
            # the library's own cheaper "valid": the parser's Ok of these very arguments
            try:
                valid = verdict(args) is True and self.names.issuperset(args)  # type: ignore[union-attr]
            except Exception:  # not decided: the parser decides
                valid = False
            if valid:
                return self.call(args, context) if body else Ok(args)
        # null means absent: restored where a top-level null, or a value that may hold one, was sent
        restore = self.restore
        if restore is not None:
            deep = self.deep
            # (a null is falsy: most calls pass the truth test, which costs less than the look)
            if (
                deep is None
                or (deep and not deep.isdisjoint(args))
                or (not all(v := args.values()) and None in v)
            ):
                args = restore(args)
        # a name the application bound is never the model's to send
        if self.bound and not self.bound.isdisjoint(args):
            return self.policy.rejected_bound(args)
        parser = self.parser
        if parser is None:  # the required keys and the policy, then the declared values
            value = self.check(args)
            if type(value) is Error:
                return value
            return self.call(value, context) if body else Ok(value)
        if self.drop is not None and not self.drop.issuperset(args):
            args = {k: v for k, v in args.items() if k in self.drop}
        try:
            result = parser(args, context) if self.parser_context else parser(args)
        except Exception as exc:
            return self.outcomes.parser_failed(exc, args, self.limits, context)
        names = self.names
        if type(result) is Ok and (names is None or names.issuperset(args)):
            # the usual valid call: the parser's own Ok (of None: the arguments as they are)
            parsed = result if result[0] is not None else _new(Ok, (args, None))
        else:
            parsed = self.settled(result, args, context)
        if type(parsed) is not Ok or not body:
            return parsed
        return self.call(parsed[0], context)

    def settled(self, result: object, args: dict[str, Any], context: Any) -> Any:
        """The parser's result as a parse result: its shape checked, the policy applied.

        A rejection has the context's strings redacted (a parser given the
        context may quote it), and, with ``retry``, a rejected call whose
        nulls the walk restores is parsed again.
        """
        kind = type(result)
        outcome: ParseResult
        if kind is Ok:
            outcome = result if result[0] is not None else Ok(args)  # type: ignore[index, assignment]
        elif kind is Error:  # (a message that is not text becomes text in ``redacted``)
            outcome = result  # type: ignore[assignment]
        elif isawaitable(result):
            return Pending(result, args)  # type: ignore[arg-type]
        else:
            # the type alone: the value may hold anything (the context, secrets)
            return Error(f"parse_args returned unexpected shape: {kind.__name__}")
        if self.guarded is not None:
            outcome = self.guarded.after_parser(outcome, args)
        if isinstance(outcome, Ok):
            return outcome
        # (the walk may hand back an equal copy: that call is not parsed twice)
        if self.retry is not None and (new := self.retry(args)) is not args and new != args:
            return self.steps(new, context, body=False)
        return redacted(outcome, context)

    def call(self, value: Any, context: Any = None) -> Any:
        """The body step alone: the outcome, or, for an async body, a coroutine of it."""
        try:
            out = self.function(value, context) if self.with_context else self.function(value)
        except (Exception, SystemExit) as exc:  # a body's exit is its failure, not the caller's
            return self.outcomes.rescue(exc, value, context)
        if type(out) is str:
            return _new(Ok, (out, None))
        if type(out) in _SETTLED or not isawaitable(out):
            return self.outcomes.outcome(out, context)
        return self.outcomes.finish(out, value, context)

    async def aparse(self, arguments: object, context: Any = None) -> ParseResult:
        """What ``aparse_arguments`` returns: an ``async def`` parser awaited."""
        parsed = self.steps(arguments, context, body=False)
        while type(parsed) is Pending:
            try:
                result = await parsed.awaitable
            except Exception as exc:
                return self.outcomes.parser_failed(exc, parsed.args, self.limits, context)
            parsed = self.settled(result, parsed.args, context)
        return parsed  # type: ignore[no-any-return]

    async def arun(self, arguments: object, context: Any = None) -> Outcome:
        """What ``aexecute`` returns: async parsers and bodies awaited."""
        parsed = await self.aparse(arguments, context)
        if type(parsed) is not Ok:
            return parsed
        out = self.call(parsed[0], context)
        return out if type(out) in OUTCOMES else await out  # type: ignore[no-any-return]
