"""What attrs' ``__init__`` runs, run again for a class that failed, so that every failure is named.

``__init__`` stops at the first converter or validator that raises, and never
runs when a field fails; the model should learn every problem at once. So the
reading runs them all (a parser's checks may run twice in one call), opening
``and_``, ``optional``, ``deep_iterable`` and ``deep_mapping``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from attrs.validators import get_disabled

from toolparse import NOT_GIVEN, ArgumentProblem

from ._fields import NO_DEFAULT, ClassInfo, FieldInfo, convert, default_of
from ._validators import custom, kind, parts, reason

__all__ = ["run_init_checks"]

Path = tuple[str | int, ...]


def run_init_checks(
    info: ClassInfo,
    path: Path,
    raw: Mapping[str, Any],
    failed: set[str],
    out: list[ArgumentProblem],
    structure: Callable[[FieldInfo, Any], Any],
    read: Callable[[BaseException, Path, Any, Any, Any], None],
) -> None:
    """Run the class's converters and validators on the fields not ``failed``, as ``__init__`` does.

    ``structure`` structures a field again; ``read`` reads what it raised (a
    converter without detailed validation let the field's error through).
    """
    instance: Any = object.__new__(info.cls)
    values: dict[str, Any] = {}
    for f in info.fields:
        if f.name in failed:
            continue
        where, sent = (*path, f.key), raw.get(f.key, NOT_GIVEN)
        if f.key in raw:
            try:
                value = structure(f, sent)
            except Exception as exc:
                read(exc, where, sent, f.type, out)
                continue
        elif (value := default_of(f)) is NO_DEFAULT:
            if f.required:
                out.append(ArgumentProblem.missing(where))
            continue
        if f.converter is not None:
            try:
                value = convert(f, value, instance)
            except Exception as exc:
                out.append(ArgumentProblem(where, custom(exc), sent))
                continue
        object.__setattr__(instance, f.name, value)
        values[f.name] = value
    if get_disabled():  # attrs' validators are off: __init__ runs none, nor does this
        return
    checks = _Checks(instance, out, len(values) < len(info.fields))
    for f in info.fields:
        if f.validator is not None and f.name in values:
            checks.run(
                f.validator, f.field, values[f.name], (*path, f.key), raw.get(f.key, NOT_GIVEN)
            )


@dataclasses.dataclass(slots=True)
class _Checks:
    """One instance's validators, each failure an :class:`ArgumentProblem` in ``out``.

    ``partial``: a field is not set (its problem is said): an ``AttributeError`` is no problem.
    """

    instance: Any
    out: list[ArgumentProblem]
    partial: bool

    def run(
        self, validator: Any, field: Any, value: Any, path: Path, sent: Any, nullable: bool = False
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
                self._mapping(v, field, value, path, sent)
            else:
                try:
                    v(self.instance, field, value)
                except Exception as exc:
                    if not (self.partial and isinstance(exc, AttributeError)):
                        echo = _jsonable(value) if sent is NOT_GIVEN else sent
                        self.out.append(
                            ArgumentProblem(path, reason(v, exc, value, nullable=nullable), echo)
                        )

    def _mapping(self, v: Any, field: Any, value: Mapping[Any, Any], path: Path, sent: Any) -> None:
        """``deep_mapping``: the mapping's own validator, then each key and value."""
        if getattr(v, "mapping_validator", None) is not None:
            self.run(v.mapping_validator, field, value, path, sent)
        for key, item in value.items():
            where = (*path, str(key))
            if v.key_validator is not None:
                self.run(v.key_validator, field, key, where, key)
            if v.value_validator is not None:
                self.run(v.value_validator, field, item, where, _part(sent, key))


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
