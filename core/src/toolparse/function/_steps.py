"""The steps a Function's calls go through, each written once, and their compiled code.

Each step is a short, fixed piece of Python; a plan's shape (which steps a
Function needs) picks and joins them into straight-line entry points
(``parse``, ``aparse``, ``run``, ``arun``, ``call``), compiled once per shape.
A Function binds that code to its own namespace (``_plan``): names,
descriptions and schemas reach the code as values, never as text. The steps
of a call with no parser are written in ``_check_steps``.
"""

from __future__ import annotations

import functools
import textwrap
from types import CodeType

from ..contract import Error, Interrupt, Ok
from ..results import ToolResult
from ._check_steps import (
    ABSENT,
    CHECK,
    CHECK_NAMED,
    GET,
    PARAMETERS,
    QUICK,
    QUICK_PARAMETERS,
    QuickTest,
)

__all__ = ["ABSENT", "SETTLED", "QuickTest", "entry_points"]

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
# no property that may hold such a null was sent, as in most calls. A null is
# falsy: one truth test per value (``all``, stopping at the first falsy one)
# is cheaper than comparing each with None, and most values are truthy, so
# the comparison runs only for a call that sends a falsy value
_NULLS = """
    if not watch.isdisjoint(args) and (
        not deep.isdisjoint(args) or (not all(values := args.values()) and None in values)
    ):
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

# A rejection leaves the plan with ``parsed`` unbound (``del`` in ``finally``,
# once the value to return is on the stack): the cause's traceback holds the
# parser's frame, whose ``f_back`` is this one, so a local still holding the
# Error at return would keep it, and everything it holds, in a reference cycle.
# An adapter's rejection of accepted names, rendered with these very names and
# no context to redact (none, or one ``clean`` sees holds no string), is the
# answer as it is: ``settle`` would return it unchanged (the policy adds
# nothing, and there is nothing to redact), so the test here spares the call.
_PARSE_GUARDED = """{within}
    try:{parsing}{retry}
    except Exception as exc:
        return failed(exc, args, context)
    if within and type(parsed) is Ok:
        value = parsed[0]
        if value is None:
            value = args
    else:
        if not (
            within
            and (context is None or clean(context))
            and type(parsed) is Error
            and type(parsed[0]) is str
            and parsed[0]
            and type(parsed[1]) is InvalidArguments
            and parsed[1].accepted == names
        ):
            parsed = settle(parsed, args, within, context)
        if type(parsed) is Error:
            try:
                return parsed
            finally:
                del parsed
        value = parsed[0]
"""

# a parser no policy wraps (yours, or an adapter's for names that are unknown)
_CALL = """
parsed = {call}
{awaiting}"""

_PARSE = """
    try:{parsing}{retry}
    except Exception as exc:
        return failed(exc, args, context)
    if type(parsed) is not Ok:
        try:
            # a text rejection with no context to redact is the answer as it is
            if (
                (context is None or clean(context))
                and type(parsed) is Error
                and type(parsed[0]) is str
            ):
                return parsed
            return settle(parsed, args, True, context)
        finally:
            del parsed  # no cycle through this frame (see ``_PARSE_GUARDED``)
    value = parsed[0]
    if value is None:
        value = args
"""

# restoring nulls after the parser, for an adapter whose parser checks the very
# schema the step reads (``Compiled.nulls_after_reject``): the step only turns a
# value that schema rejects into one it may accept, so a call the parser accepts
# has nothing to restore, and the look is paid only by a rejected call. A
# rejected call the step changes is parsed again (the same call piece), and that
# verdict is the answer. The step's look may say "maybe" (a null under a
# required name) and its walk then hands back an equal copy: that call is not
# parsed, nor its rejection rendered, twice.
_RETRY = """
if type(parsed) is not Ok and (restored := restore(args)) is not args and restored != args:
    args = restored"""

_WITHIN = """
    within = accepted.issuperset(args)"""

# under "ignore" the names not accepted were dropped (``_DROP``) and restoring
# nulls only drops names: every name left is accepted
_WITHIN_IGNORED = """
    within = True"""


def _at(piece: str, spaces: int) -> str:
    """``piece`` placed ``spaces`` deep (its lines are written from column 0)."""
    return textwrap.indent(piece, " " * spaces)


# before such a parser, only a null at the top level is restored (one look at
# the values): a strict export makes every optional property nullable, and a
# model that leaves one out sends its null, which would cost a rejected parse.
# The values are looked at first: most calls hold no null, and then the names
# are not looked at (a watched name is sent in nearly every call, so that
# test alone rarely decides); the truth test first, as in ``_NULLS``
_NULLS_TOP = """
    if not all(values := args.values()) and None in values and not watch.isdisjoint(args):
        args = restore(args)
"""

_NULLS_TOP_ALWAYS = """
    if not all(values := args.values()) and None in values:
        args = restore(args)
"""

# an adapter's verdict (``Compiled.verdict``) before its parser: a call it
# accepts is the parser's Ok of these very arguments, so it skips the parser
# and the top-level null look (an accepted call has no null to restore);
# ``{within}`` is the accepted-names test, dropped where no name can be
# outside them (a closed parser, or "ignore" after ``_DROP``). Any other
# answer, or an exception (``None``: not decided), goes the way it went
# before: ``{slow}``, the null look and the parser, which decide alone.
# ``{judged}`` keeps the arguments judged, for ``_FIRST``.
_VERDICT = """{judged}
    try:
        good = verdict(args)
    except Exception:
        good = None
    if good is True{within}:
        value = args
    else:{slow}"""

# past a verdict that refused these very arguments (no null look changed
# them), the adapter's ``Compiled.explain`` words the rejection without
# deciding again; restored arguments are the parser's to decide
_FIRST = """
    first = explain if good is False and args is judged else parser"""

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
    if type(out) in settled or not isawaitable(out):
        return outcome(out, context)
    return {finish}
"""

#: the exact types a body commonly returns that are never awaitable: one set
#: test spares them the awaitable test (an ABC check) before their outcome
SETTLED: frozenset[type] = frozenset(
    {dict, list, tuple, int, float, bool, type(None), Ok, Error, Interrupt, ToolResult}
)

_AWAITING = "if isawaitable(parsed): parsed = await parsed"


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
_Shape = tuple[
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    bool,
    str,
    bool,
    bool,
    bool,
    bool,
]


@functools.lru_cache(maxsize=512)
def entry_points(shape: _Shape) -> dict[str, CodeType]:
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
        after_reject,
        has_verdict,
        closed,
        has_explain,
    ) = shape
    context = ", context" if parser_context else ""

    def parsing(awaiting: str) -> list[str]:
        steps = [_DECODE]
        # restoring after a rejection needs a parser that rejects
        after = after_reject and nulls and has_parser
        verdict = has_verdict and has_parser
        # the top-level null look, before the parser (past the verdict, with one)
        top = [_NULLS_TOP_ALWAYS if nulls_always else _NULLS_TOP] if after else []
        if after and not verdict:
            steps.extend(top)
        elif nulls and not after:
            steps.append(_NULLS_ALWAYS if nulls_always else _NULLS)
        if bound:
            steps.append(_BOUND)
        if not has_parser:
            steps.append(CHECK_NAMED if named else CHECK.format(fits="args.keys() >= required"))
            if quick:
                codes = quick.split(",")
                test = " and ".join(QUICK[code].format(i=i) for i, code in enumerate(codes))
                get = GET if any(code.endswith("?") for code in codes) else ""
                steps.append(QUICK_PARAMETERS.format(quick=test, get=get))
            elif check_parameters:
                steps.append(PARAMETERS)
            return steps
        if guarded and ignore:
            steps.append(_DROP)
        step = _PARSE_GUARDED if guarded else _PARSE
        piece = _CALL
        call = piece.format(call=f"parser(args{context})", awaiting=awaiting)
        explain = verdict and has_explain
        first = piece.format(call=f"first(args{context})", awaiting=awaiting) if explain else call
        retry = ""
        within = _WITHIN_IGNORED if ignore else _WITHIN
        if after:
            again = (within if guarded else "") + _at(call, 4)
            retry = _at(_RETRY + again, 8)
        parse = step.format(parsing=_at(first, 8), retry=retry, within=within)
        if verdict:
            test = "" if closed or ignore or not guarded else " and accepted.issuperset(args)"
            slow = [*top, _FIRST, parse] if explain else [*top, parse]
            steps.append(
                _VERDICT.format(
                    judged="\n    judged = args" if explain else "",
                    within=test,
                    slow=_at("".join(slow), 4),
                )
            )
        else:
            steps.append(parse)
        return steps

    body_call = "function(value, context)" if body_context else "function(value)"

    def body(finish: str) -> str:
        return _BODY.format(call=body_call, finish=finish)

    sync = "def {}(arguments, context):"
    asynchronous = "async def {}(arguments, context):"
    # (past a verdict that accepted the call, there is no parser's Ok to hand on)
    parsed = _PARSED_AS_IS if has_parser and not has_verdict else _PARSED
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
