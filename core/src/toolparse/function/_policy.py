"""The ``unknown_arguments`` policy over a Function's top-level names, and the required-key check.

Two places apply the policy: before any parser (a Function without one: the
required keys, then the unknown names), and after an adapter's parser, where
a rejection already names every unknown name and an accepted call is
rejected only for a likely typo (``"report"``) or any unknown name
(``"reject"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import messages
from ..arguments import Arguments
from ..contract import Error, ParseResult
from ..problems import InvalidArguments, invalid_arguments

__all__: list[str] = []

#: how many unknown names one Function remembers as resembling a parameter or not
_REMEMBERED = 256


class Policy:
    """The policy of one Function over its accepted and required top-level names.

    :param bound: names the application bound (a partial's): a call that
        sends one is rejected under every policy, so the model can never set them.
    :param values: the check of the declared values that :meth:`checked` runs
        last (a Function without a parser that declares ``parameters``): the
        Error, ``None`` when they fit, or the arguments the body gets instead.
    """

    __slots__ = (
        "_harmless",
        "_resembling",
        "accepted",
        "accepted_set",
        "bound",
        "exact",
        "policy",
        "required",
        "required_set",
        "values",
    )

    def __init__(
        self,
        policy: str,
        accepted: Sequence[str],
        required: Sequence[str],
        bound: frozenset[str] = frozenset(),
        values: Callable[[Arguments], Error | Arguments | None] | None = None,
    ) -> None:
        self.policy = policy
        self.values = values
        self.bound = bound
        self.accepted = tuple(accepted)
        self.accepted_set = frozenset(accepted)
        self.required = tuple(required)
        self.required_set = frozenset(required)
        #: every accepted name and nothing else: a call that sends exactly these
        #: passes both checks with one comparison (``None`` when that is not so)
        self.exact = (
            self.accepted_set if self.accepted and self.required_set <= self.accepted_set else None
        )
        # models send the same extra names again and again: whether one
        # resembles a parameter is worked out once (a bounded memory)
        self._resembling: dict[str, bool] = {}
        self._harmless: set[str] = set()  # the names remembered as resembling none

    # -- before any parser ------------------------------------------------------

    def checked(self, args: dict[str, Any]) -> Arguments | Error:
        """The required-key check and the policy, then ``values``: the body's :class:`Arguments`, or the Error."""
        keys = args.keys()
        if keys == self.exact or (
            keys >= self.required_set and (not self.accepted or self.accepted_set >= keys)
        ):
            found = Arguments(args)  # the usual call: every name required sent, none unknown
        elif not keys >= self.required_set:
            return Error(self._missing(args))
        elif self.policy == "ignore":
            found = Arguments({k: v for k, v in args.items() if k in self.accepted_set})
        elif flagged := self.flagged(args):
            return Error(messages.unrecognized_only(flagged, self.accepted))
        else:
            found = Arguments(args)
        if self.values is None:
            return found
        problem = self.values(found)
        return found if problem is None else problem

    def rejected_bound(self, args: Mapping[str, Any]) -> Error:
        """The rejection of a call that sends a name the application bound.

        The required-key message comes first, as for any other call; the
        bound name is one more unrecognized name (never "accepted").
        """
        if not args.keys() >= self.required_set:
            return Error(self._missing(args))
        return Error(messages.unrecognized_only(self._suggested(args), self.accepted))

    def _suggested(self, args: Mapping[str, Any]) -> dict[str, str | None]:
        names = messages.unrecognized_names(args, self.accepted)
        return messages.suggestions(names, self.accepted, args)

    def _missing(self, args: Mapping[str, Any]) -> str:
        missing = [n for n in self.required if n not in args]
        return messages.missing_required(
            self.required, missing, self._suggested(args), self.accepted
        )

    def flagged(self, args: Mapping[str, Any]) -> dict[str, str | None]:
        """Unknown names the policy turns into a rejection, with their suggestions (empty: none).

        Under ``"report"`` only names that resemble a parameter count; then
        every unknown name is in the rejection (the model learns them all).
        """
        if self.policy == "ignore" or not self.accepted:
            return {}
        extra = args.keys() - self.accepted_set
        if self.policy == "report" and extra <= self._harmless:
            return {}  # the usual extra names: each seen before, resembling no parameter
        unknown = sorted(k for k in extra if isinstance(k, str))
        # "report": only the names a message can show are looked at (bounded
        # work for a call with thousands of unknown names)
        if not unknown or (
            self.policy == "report" and not any(map(self._resembles, unknown[: messages.MAX_NAMES]))
        ):
            return {}
        found = messages.suggestions(unknown, self.accepted, args)
        # (a name resembling only accepted names already sent gets no suggestion)
        if self.policy == "reject" or any(hint is not None for hint in found.values()):
            return found
        return {}

    def _resembles(self, name: str) -> bool:
        """Whether ``name`` resembles any accepted name (remembered per name)."""
        known = self._resembling.get(name)
        if known is None:
            known = messages.did_you_mean(name, messages.nearest(name, self.accepted)) is not None
            if len(self._resembling) < _REMEMBERED:
                self._resembling[name] = known
                if not known:
                    self._harmless.add(name)
        return known

    # -- after an adapter's parser ----------------------------------------------

    def after_parser(self, result: ParseResult, args: dict[str, Any]) -> ParseResult:
        """An adapter's result with the policy applied to the names it was sent.

        An adapter's rejection rendered with these accepted names names every
        unknown name already (``invalid_arguments`` does): it is the answer. A
        rejection rendered with other names is rendered again with these; an
        accepted call with a name the policy flags is rejected for it.
        """
        if type(result) is Error:
            exc = result[1]
            if not isinstance(exc, InvalidArguments) or exc.accepted == self.accepted:
                return result
            # its names are rendered again against these (one it called unknown may be known)
            known = self.accepted_set
            problems = [
                p
                for p in exc.problems
                if p.kind != "unrecognized" or len(p.path) != 1 or p.path[0] not in known
            ]
            return invalid_arguments(
                problems,
                arguments=args,
                accepted=self.accepted,
                cause=exc.__cause__,
                more=exc.more,
            )
        if self.accepted_set.issuperset(args) or not self.flagged(args):
            return result
        return invalid_arguments((), arguments=args, accepted=self.accepted)
