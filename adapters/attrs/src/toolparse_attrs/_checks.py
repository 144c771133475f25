"""Running a field's attrs validator on a rejected call, so that every failing part is named.

attrs runs a class's validators in ``__init__`` and stops at the first that
raises; the model should learn every problem at once. So once a call is
rejected, the reading runs the validators of a class that failed again (a
parser's checks may run more than once for one call), opening ``and_``,
``optional``, ``deep_iterable`` and ``deep_mapping`` so that each failing part,
item, key and value is one problem under its own path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem

from ._validators import kind, parts, reason

__all__ = ["FieldChecks"]

Path = tuple[str | int, ...]


class FieldChecks:
    """The validators of one instance's fields, each failure an :class:`ArgumentProblem`.

    :param instance: the instance the validators see (its fields set as in
        ``__init__``, but for those that could not be structured).
    :param out: where the problems go.
    :param partial: some fields could not be set: a validator that trips
        over a missing attribute read one whose own problem is already said.
    """

    __slots__ = ("instance", "out", "partial")

    def __init__(self, instance: Any, out: list[ArgumentProblem], *, partial: bool) -> None:
        self.instance = instance
        self.out = out
        self.partial = partial

    def run(
        self,
        validator: Any,
        field: Any,
        value: Any,
        path: Path,
        sent: Any = NOT_GIVEN,
        nullable: bool = False,
    ) -> None:
        """Run ``validator`` on ``field``'s ``value``; ``sent``: the value as the model sent it."""
        for v in parts(validator):
            which = kind(v)
            if which == "optional":
                if value is not None:
                    self.run(v.validator, field, value, path, sent, nullable=True)
            elif which == "deep_iterable" and isinstance(value, (list, tuple, set, frozenset)):
                before = len(self.out)
                if v.iterable_validator is not None:
                    self.run(v.iterable_validator, field, value, path, sent)
                if len(self.out) == before:  # the collection is fine: each item
                    for index, item in enumerate(value):
                        self.run(
                            v.member_validator, field, item, (*path, index), _part(sent, index)
                        )
            elif which == "deep_mapping" and isinstance(value, Mapping):
                if getattr(v, "mapping_validator", None) is not None:
                    self.run(v.mapping_validator, field, value, path, sent)
                for key, item in value.items():
                    where = (*path, str(key))
                    if v.key_validator is not None:
                        self.run(v.key_validator, field, key, where, key)
                    if v.value_validator is not None:
                        self.run(v.value_validator, field, item, where, _part(sent, key))
            else:
                self._call(v, field, value, path, sent, nullable)

    def _call(self, v: Any, field: Any, value: Any, path: Path, sent: Any, nullable: bool) -> None:
        try:
            v(self.instance, field, value)
        except Exception as exc:
            if not (self.partial and isinstance(exc, AttributeError)):
                echo = _jsonable(value) if sent is NOT_GIVEN else sent
                self.out.append(
                    ArgumentProblem(path, reason(v, exc, value, nullable=nullable), echo)
                )


def _part(sent: Any, key: Any) -> Any:
    """Part of what the model sent (``NOT_GIVEN`` when it cannot be told)."""
    if isinstance(sent, list) and isinstance(key, int) and 0 <= key < len(sent):
        return sent[key]
    if isinstance(sent, Mapping) and key in sent:
        return sent[key]
    return NOT_GIVEN


def _jsonable(value: Any) -> Any:
    """A structured value as the model sent it, for echoing (sets and tuples as lists)."""
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return getattr(value, "value", value)
