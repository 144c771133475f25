"""Running attrs validators on the error path: every failure reported, each once.

attrs runs a class's validators in ``__init__``, in field order, and stops at
the first that raises. The model should learn every problem at once, but a
validator must not run twice in one call (it may be slow, like a regular
expression, or count something). :func:`run` runs a validator that attrs
never reached, opening ``and_``, ``optional``, ``deep_iterable`` and
``deep_mapping`` so that each failing part and item is reported; where
``__init__`` stopped, and how to go on from there, is ``_resumption``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.problems import ProblemRow

from ._reasons import kind, reason

__all__ = [
    "Problem",
    "entries",
    "jsonable",
    "members",
    "parts",
    "problem",
    "run",
    "run_after",
    "sent_part",
]

Path = tuple[str | int, ...]
#: a problem found: built, or as the row ``(path, reason, received, kind)`` the
#: quick reading writes (built by the core only if it is read)
Problem = ArgumentProblem | ProblemRow


def parts(validator: Any) -> Iterator[Any]:
    """The validators inside ``and_`` (and inside a plain list of validators)."""
    if validator is None:
        return
    if isinstance(validator, (list, tuple)):
        for v in validator:
            yield from parts(v)
    elif kind(validator) == "_AndValidator":
        for v in validator._validators:
            yield from parts(v)
    else:
        yield validator


# -- running what attrs has not run ---------------------------------------------------


def run_after(
    fields: Iterable[Any], instance: Any, path: Path, raw: Mapping[str, Any], out: list[Problem]
) -> None:
    """Run the validators of ``fields``, those ``__init__`` never reached after it stopped.

    Every attribute of ``instance`` is set (``__init__`` assigns them all
    before validating), so none is partial; each value is echoed as sent.
    """
    for f in fields:
        run(
            f.validator,
            instance,
            f.field,
            getattr(instance, f.name),
            (*path, f.key),
            out,
            partial=False,
            sent=raw.get(f.key, NOT_GIVEN),
        )


def run(
    validator: Any,
    instance: Any,
    attribute: Any,
    value: Any,
    path: Path,
    out: list[Problem],
    *,
    partial: bool,
    sent: Any = NOT_GIVEN,
    nullable: bool = False,
) -> None:
    """Run ``validator`` on one field's value, adding a problem for each failure.

    ``and_``, ``optional``, ``deep_iterable`` and ``deep_mapping`` are opened
    so that every failing part is reported (items and values under their own
    path). With ``partial`` (some fields of the instance could not be read),
    a validator that trips over a missing attribute is not a problem.
    ``sent`` is the value as the model sent it, echoed in the problem.
    """
    for v in parts(validator):
        name = kind(v)
        if name == "_OptionalValidator":
            if value is not None:
                run(
                    v.validator,
                    instance,
                    attribute,
                    value,
                    path,
                    out,
                    partial=partial,
                    sent=sent,
                    nullable=True,
                )
        elif name == "_DeepIterable" and _iterable(value):
            before = len(out)
            if v.iterable_validator is not None:
                run(
                    v.iterable_validator,
                    instance,
                    attribute,
                    value,
                    path,
                    out,
                    partial=partial,
                    sent=sent,
                )
            if len(out) == before:
                members(v, instance, attribute, value, path, out, partial, sent, 0)
        elif name == "_DeepMapping" and isinstance(value, Mapping):
            outer = getattr(v, "mapping_validator", None)
            if outer is not None:
                run(outer, instance, attribute, value, path, out, partial=partial, sent=sent)
            entries(v, instance, attribute, value, path, out, partial, sent, 0, None)
        else:
            try:
                v(instance, attribute, value)
            except Exception as exc:
                if partial and isinstance(exc, AttributeError):
                    continue  # it read a field that could not be structured
                out.append(problem(v, exc, value, path, sent, nullable))


def members(
    v: Any,
    instance: Any,
    attribute: Any,
    value: Any,
    path: Path,
    out: list[Problem],
    partial: bool,
    sent: Any,
    start: int,
) -> None:
    """``deep_iterable``'s member validator on the items from ``start`` on."""
    for index, item in enumerate(value):
        if index >= start:
            run(
                v.member_validator,
                instance,
                attribute,
                item,
                (*path, index),
                out,
                partial=partial,
                sent=sent_part(sent, index),
            )


def entries(
    v: Any,
    instance: Any,
    attribute: Any,
    value: Mapping[Any, Any],
    path: Path,
    out: list[Problem],
    partial: bool,
    sent: Any,
    start: int,
    skip_key: bool | None,
) -> None:
    """``deep_mapping``'s key and value validators on the entries from ``start`` on.

    ``skip_key``: at ``start``, the key validator already ran (``True``) or
    both did (``None`` means neither).
    """
    for index, (key, item) in enumerate(value.items()):
        if index < start:
            continue
        where = (*path, str(key))
        if v.key_validator is not None and not (index == start and skip_key):
            run(v.key_validator, instance, attribute, key, where, out, partial=partial, sent=key)
        if v.value_validator is not None:
            run(
                v.value_validator,
                instance,
                attribute,
                item,
                where,
                out,
                partial=partial,
                sent=sent_part(sent, key),
            )


def problem(
    v: Any, exc: BaseException, value: Any, path: Path, sent: Any, nullable: bool
) -> ArgumentProblem:
    """The problem for validator ``v`` raising ``exc`` on ``value`` (``sent`` is echoed)."""
    echo = jsonable(value) if sent is NOT_GIVEN else sent
    return ArgumentProblem(path, reason(v, exc, value, nullable=nullable), echo)


def sent_part(sent: Any, key: Any) -> Any:
    """Part of what the model sent (``NOT_GIVEN`` when it cannot be told)."""
    if isinstance(sent, list) and isinstance(key, int) and 0 <= key < len(sent):
        return sent[key]
    if isinstance(sent, Mapping) and key in sent:
        return sent[key]
    return NOT_GIVEN


def _iterable(value: object) -> bool:
    return isinstance(value, (list, tuple, set, frozenset))


def jsonable(value: Any) -> Any:
    """The value as the model sent it, for echoing (sets and tuples as lists)."""
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return getattr(value, "value", value)
