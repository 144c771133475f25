"""The ``unknown_arguments`` policy and the required-key check, as plan steps.

Two places apply the policy: before any parser (the required-key check of a
Function without one), and around an adapter's parser, where the unknown
names join the adapter's problems so the rejected call is rendered once. The
quick tests that let most calls through run in the plan itself (``_plan``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any

from .. import messages
from ..arguments import Arguments
from ..contract import Error, Ok, ParseResult
from ..problems import InvalidArguments, invalid_arguments

__all__: list[str] = []

#: how many unknown names one Function remembers as resembling a parameter or not
_REMEMBERED = 256


class Policy:
    """The policy of one Function over its accepted and required top-level names."""

    __slots__ = (
        "_resembling",
        "accepted",
        "accepted_set",
        "bound",
        "passes",
        "policy",
        "required",
        "required_set",
    )

    def __init__(
        self,
        policy: str,
        accepted: Sequence[str],
        required: Sequence[str],
        bound: frozenset[str] = frozenset(),
    ) -> None:
        self.policy = policy
        #: names the application bound (a partial's): a call that sends one is
        #: rejected under every policy, so the model can never set them
        self.bound = bound
        self.accepted = tuple(accepted)
        self.accepted_set = frozenset(accepted)
        self.required = tuple(required)
        self.required_set = frozenset(required)
        self._resembling: dict[str, bool] = {}
        #: the names a call may send and pass the quick test: the accepted
        #: names, and under "report" those remembered as resembling none of
        #: them (such a call is accepted with no search; see ``_resembles``)
        self.passes: set[str] | frozenset[str] = (
            set(accepted) if policy == "report" else self.accepted_set
        )

    # -- before any parser ------------------------------------------------------

    def checked(self, args: dict[str, Any]) -> ParseResult:
        """The required-key check and the policy, for arguments the quick test did not pass.

        Its ``Ok`` carries the :class:`~toolparse.Arguments` the body receives.
        """
        if not self.required_set.issubset(args):
            return Error(self._missing(args))
        if self.policy == "ignore":
            return Ok(Arguments({k: v for k, v in args.items() if k in self.accepted_set}))
        found = self.flagged(args)
        if found:
            return Error(messages.unrecognized_only(found, self.accepted))
        return Ok(Arguments(args))

    def rejected_bound(self, args: Mapping[str, Any]) -> Error:
        """The rejection of a call that sends a name the application bound.

        The required-key message comes first, as for any other call; the
        bound name is one more unrecognized name (never "accepted").
        """
        if not self.required_set.issubset(args):
            return Error(self._missing(args))
        found = messages.suggestions(
            messages.unrecognized_names(args, self.accepted), self.accepted, args
        )
        return Error(messages.unrecognized_only(found, self.accepted))

    def _missing(self, args: Mapping[str, Any]) -> str:
        found = messages.suggestions(
            messages.unrecognized_names(args, self.accepted), self.accepted, args
        )
        missing = [n for n in self.required if n not in args]
        return messages.missing_required(self.required, missing, found, self.accepted)

    def flagged(self, args: Mapping[str, Any]) -> dict[str, str | None]:
        """Unknown names the policy turns into a rejection (empty: none)."""
        if self.policy == "ignore" or not self.accepted:
            return {}
        extra = args.keys() - self.accepted_set
        if self.policy == "report" and not any(map(self._resembling.get, extra, repeat(True))):
            # only names remembered as resembling no parameter: the call is
            # accepted, with no sort and no search among the names not sent
            return {}
        unknown = sorted(k for k in extra if isinstance(k, str))
        if not unknown:
            return {}
        # "report": only the names a message can show are searched (bounded
        # work for a call with thousands of unknown names)
        if self.policy == "report" and not any(map(self._resembles, unknown[: messages.MAX_NAMES])):
            return {}
        found = messages.suggestions(unknown, self.accepted, args)
        if self.policy == "reject" or any(v is not None for v in found.values()):
            return found
        return {}

    def _resembles(self, name: str) -> bool:
        """Whether ``name`` resembles any accepted name (remembered per name).

        A name that resembles none of them resembles none of those not yet
        sent either, so "report" accepts it without the search. Models send
        the same extra names again and again; the memory is bounded.
        """
        known = self._resembling.get(name)
        if known is None:
            known = messages.did_you_mean(name, messages.nearest(name, self.accepted)) is not None
            if len(self._resembling) < _REMEMBERED:
                self._resembling[name] = known
                if not known and isinstance(self.passes, set):
                    self.passes.add(name)
        return known

    # -- around an adapter's parser ---------------------------------------------

    def merge(self, outcome: ParseResult, args: dict[str, Any]) -> ParseResult:
        """Add the unknown names the policy speaks of to an adapter's result, as one Error.

        A rejected call names every unknown name (so the model learns them all
        at once): an adapter that rendered with these arguments and accepted
        names said it all already. An accepted call is rejected only for the
        names the policy flags (a likely typo under "report", any name under
        "reject").
        """
        if type(outcome) is Error:
            exc = outcome[1]
            if not isinstance(exc, InvalidArguments) or (
                exc.accepted == self.accepted
                and (exc.arguments is args or self.accepted_set.issuperset(args))
            ):
                return outcome
            # rendered with other accepted names: the names the tool accepts are
            # no unknown names of this call
            problems = [
                p
                for p in exc.problems
                if p.kind != "unrecognized"
                or len(p.path) != 1
                or p.path[0] not in self.accepted_set
            ]
            return invalid_arguments(
                problems,
                arguments=args,
                accepted=self.accepted,
                cause=exc.__cause__,
                more=exc.more,
            )
        if not self.flagged(args):
            return outcome
        return invalid_arguments((), arguments=args, accepted=self.accepted)
