"""Going on from where attrs' ``__init__`` stopped, so no validator runs twice.

When ``__init__`` raised, the traceback says where: the line of the
generated ``__init__`` names the field (its validator or its converter), and
the frames below it (``and_``, ``optional``, ``deep_iterable``,
``deep_mapping``: attrs' own classes) say which part and which item was
running. What ran before that point passed and is not run again; the part
that raised is reported from its exception; only what attrs never reached is
run, once. When structuring failed first, ``__init__`` never ran at all.
"""

from __future__ import annotations

import functools
import linecache
import re
from collections.abc import Mapping
from types import FrameType, TracebackType
from typing import Any

from toolparse import NOT_GIVEN

from ._checks import Problem, entries, members, problem, run, sent_part
from ._reasons import kind

__all__ = [
    "COMBINATORS",
    "INIT_NAMES",
    "InitFailure",
    "combinator",
    "init_failure",
    "init_line",
    "resume",
    "structured_values",
]

Path = tuple[str | int, ...]

# the line of attrs' generated __init__ that raised: a validator or a converter call
_INIT_LINE = re.compile(r"__attr_(validator|converter)_(\w+)\(")
#: the names of the ``__init__`` attrs generates
INIT_NAMES = frozenset({"__init__", "__attrs_init__"})
#: attrs' validators made of parts, whose frames say which part was running
COMBINATORS = frozenset({"_AndValidator", "_OptionalValidator", "_DeepIterable", "_DeepMapping"})


class InitFailure:
    """Where an attrs ``__init__`` raised.

    :ivar instance: the instance being built (its fields set up to the failure).
    :ivar stage: ``"validator"``, ``"converter"`` or ``"other"`` (post-init, ...).
    :ivar name: the attribute whose validator or converter raised.
    :ivar below: the traceback entry below ``__init__``'s (:attr:`frames` reads it).
    :ivar structured: the structured values ``__init__`` was called with, by
        ``__init__`` argument name (``None``: not known).
    """

    __slots__ = ("below", "instance", "name", "stage", "structured")

    def __init__(
        self,
        instance: Any,
        stage: str,
        name: str,
        below: TracebackType | None,
        structured: Mapping[str, Any] | None,
    ) -> None:
        self.instance = instance
        self.stage = stage
        self.name = name
        self.below = below
        self.structured = structured

    @property
    def frames(self) -> list[FrameType]:
        """The frames below ``__init__``'s, outermost first.

        Read on demand: only a combinator's resumption needs them, and a
        validator with no parts (the commonest) raised from its own frame.
        """
        frames = []
        below = self.below
        while below is not None:
            frames.append(below.tb_frame)
            below = below.tb_next
        return frames


def combinator(validator: Any) -> bool:
    """Whether ``validator`` is one of attrs' made of parts (its resumption reads frames)."""
    return kind(validator) in COMBINATORS


def init_failure(exc: BaseException, cls: type) -> InitFailure | None:
    """Where ``cls``'s generated ``__init__`` raised ``exc`` (``None``: it did not)."""
    tb = exc.__traceback__
    caller: FrameType | None = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name in INIT_NAMES and code.co_filename.startswith("<attrs generated"):
            instance = tb.tb_frame.f_locals.get("self")
            if isinstance(instance, cls):
                break
        if code.co_name.startswith("structure"):
            caller = tb.tb_frame  # cattrs' generated hook, which called __init__
        tb = tb.tb_next
    else:
        return None
    match = init_line(code.co_filename, tb.tb_lineno)
    if match is None:
        return InitFailure(instance, "other", "", tb.tb_next, None)
    stage, name = match
    structured = None
    if stage == "converter" and caller is not None:
        # cattrs' hook keeps the structured values in `res`: the fields after
        # the converter that raised are read from there, not structured again
        found = caller.f_locals.get("res")
        structured = found if isinstance(found, dict) else None
    return InitFailure(instance, stage, name, tb.tb_next, structured)


@functools.lru_cache(maxsize=1024)
def init_line(filename: str, lineno: int) -> tuple[str, str] | None:
    """What a line of a generated ``__init__`` calls: ``(stage, field)`` (``None``: neither)."""
    match = _INIT_LINE.search(linecache.getline(filename, lineno))
    return None if match is None else (match.group(1), match.group(2))


def resume(
    validator: Any,
    frames: list[FrameType],
    exc: BaseException,
    instance: Any,
    attribute: Any,
    value: Any,
    path: Path,
    out: list[Problem],
    *,
    sent: Any = NOT_GIVEN,
    nullable: bool = False,
) -> None:
    """Report ``exc``, raised inside ``validator``, and run what attrs did not reach.

    ``frames[0]`` is the frame of ``validator``'s own call. A combinator of
    attrs' tells from its frame which part (and item) was running; the parts
    before it passed, the ones after it never ran.
    """
    name = kind(validator)
    if name not in COMBINATORS:
        # a validator with no parts: nothing to go on from, no frame to read
        # (reading a frame's locals copies them all, on every wrong call)
        out.append(problem(validator, exc, value, path, sent, nullable))
        return
    frame = frames[0] if frames else None
    local: dict[str, Any] = {}
    if frame is not None:
        found = frame.f_locals
        if found.get("self") is validator:
            local = found
    rest = frames[1:]
    if name == "_AndValidator" and "v" in local:
        inner = list(validator._validators)
        at = next((i for i, v in enumerate(inner) if v is local["v"]), None)
        if at is not None:
            resume(
                inner[at],
                rest,
                exc,
                instance,
                attribute,
                value,
                path,
                out,
                sent=sent,
                nullable=nullable,
            )
            for v in inner[at + 1 :]:
                run(
                    v,
                    instance,
                    attribute,
                    value,
                    path,
                    out,
                    partial=False,
                    sent=sent,
                    nullable=nullable,
                )
            return
    elif name == "_OptionalValidator" and local:
        resume(
            validator.validator,
            rest,
            exc,
            instance,
            attribute,
            value,
            path,
            out,
            sent=sent,
            nullable=True,
        )
        return
    elif name == "_DeepIterable" and local:
        if "member" not in local:  # the collection's own validator raised
            resume(
                validator.iterable_validator,
                rest,
                exc,
                instance,
                attribute,
                value,
                path,
                out,
                sent=sent,
            )
            return
        at = next((i for i, item in enumerate(value) if item is local["member"]), None)
        if at is not None:
            item = local["member"]
            resume(
                validator.member_validator,
                rest,
                exc,
                instance,
                attribute,
                item,
                (*path, at),
                out,
                sent=sent_part(sent, at),
            )
            members(validator, instance, attribute, value, path, out, False, sent, at + 1)
            return
    elif name == "_DeepMapping" and local:
        if "key" not in local:  # the mapping's own validator raised
            resume(
                validator.mapping_validator,
                rest,
                exc,
                instance,
                attribute,
                value,
                path,
                out,
                sent=sent,
            )
            entries(validator, instance, attribute, value, path, out, False, sent, 0, None)
            return
        key = local["key"]
        at = next((i for i, k in enumerate(value) if k is key or k == key), None)
        if at is not None:
            where = (*path, str(key))
            if _in_key(validator, rest, key):
                resume(
                    validator.key_validator,
                    rest,
                    exc,
                    instance,
                    attribute,
                    key,
                    where,
                    out,
                    sent=key,
                )
                if validator.value_validator is not None:
                    run(
                        validator.value_validator,
                        instance,
                        attribute,
                        value[key],
                        where,
                        out,
                        partial=False,
                        sent=sent_part(sent, key),
                    )
            else:
                resume(
                    validator.value_validator,
                    rest,
                    exc,
                    instance,
                    attribute,
                    value[key],
                    where,
                    out,
                    sent=sent_part(sent, key),
                )
            entries(validator, instance, attribute, value, path, out, False, sent, at + 1, None)
            return
    out.append(problem(_culprit(validator, frames), exc, value, path, sent, nullable))


def _in_key(validator: Any, frames: list[FrameType], key: Any) -> bool:
    """Whether ``deep_mapping`` was running its key validator (else its value validator)."""
    key_validator, value_validator = validator.key_validator, validator.value_validator
    if key_validator is None or value_validator is None:
        return key_validator is not None
    if not frames:
        return True
    # the frame below is the call of one of the two: the object or the code it
    # runs tells which, or else the value it was given
    below = frames[0]
    own = below.f_locals.get("self")
    if own in (key_validator, value_validator) and key_validator is not value_validator:
        return own is key_validator
    key_code = getattr(key_validator, "__code__", None)
    value_code = getattr(value_validator, "__code__", None)
    if key_code is not value_code and below.f_code in (key_code, value_code):
        return below.f_code is key_code
    code = below.f_code
    names = code.co_varnames[: code.co_argcount]
    return bool(names) and below.f_locals.get(names[-1]) is key


def _culprit(validator: Any, frames: list[FrameType]) -> Any:
    """The validator that raised: ``validator``, or attrs' own one deepest in ``frames``.

    Only needed where a combinator's frame could not be read (another attrs
    version); a validator of yours keeps its message either way.
    """
    if kind(validator) not in COMBINATORS:
        return validator
    for frame in reversed(frames):
        found = frame.f_locals.get("self")
        if type(found).__module__.startswith("attr") and callable(found):
            return found
    return validator


def structured_values(exc: BaseException) -> Mapping[str, Any] | None:
    """The values cattrs' generated hook structured before it raised ``exc``.

    The hook keeps them in its ``res`` dict; reading them back means no field
    (and no nested class's validators) is structured twice. ``None`` when
    the hook is not cattrs' own.
    """
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None or not tb.tb_frame.f_code.co_name.startswith("structure"):
        return None
    found = tb.tb_frame.f_locals.get("res")
    return found if isinstance(found, dict) else None
