"""The commonest rejected calls read in fewer steps: the same problems as the full walk.

Most wrong calls are a few wrong values in classes without validators, and a
class whose ``__init__`` stopped at one plain validator. :class:`QuickReader`
reads those shapes directly: the parts of a class's ``ClassValidationError``
are dispatched by their exact type, and where ``__init__`` stopped is told by
the class's own ``__init__`` code, found once per class, without the search
down the traceback or the record of what structuring had done. Anything else
(attrs converters, combinators, structuring that failed before ``__init__``,
a missing or an extra key, a mapping) is handed to :class:`ErrorReader`
before anything of it is read, so no validator ever runs twice; the problems
and their order are those of the full walk (a differential test holds it).
"""

from __future__ import annotations

from typing import Any

from attrs.validators import get_disabled as validators_disabled
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    IterableValidationError,
    IterableValidationNote,
)

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import REQUIRED

from ._checks import jsonable, run
from ._converter import Rejected
from ._errors import KEPT, ErrorReader, Path, _Found, in_field_order, leaves
from ._fields import ClassInfo
from ._leaves import leaf
from ._reasons import custom, reason
from ._resumption import COMBINATORS, INIT_NAMES, structured_values

__all__ = ["QuickReader"]


class QuickReader(ErrorReader):
    """:class:`ErrorReader`, with the commonest shapes of a rejected call read directly."""

    def problems(
        self, exc: BaseException, arguments: Any, cls: type
    ) -> tuple[list[ArgumentProblem], int]:
        """The problems in ``exc``, as :meth:`ErrorReader.problems` finds them."""
        out = _Found()
        if type(exc) is ClassValidationError:
            self._class(exc.cl, (), arguments, out, exc)
        else:
            self._walk(exc, (), arguments, cls, out)
        return (out or [ArgumentProblem((), custom(exc))]), out.more

    def _class(
        self,
        cls: type,
        path: Path,
        raw: Any,
        out: _Found,
        exc: ClassValidationError | None,
        init_error: BaseException | None = None,
    ) -> None:
        info = self._infos.get(cls)
        if exc is None or init_error is not None or type(raw) is not dict or info is None:
            super()._class(cls, path, raw, out, exc, init_error)
            return
        subs = exc.exceptions
        checked = info.checked
        if checked and len(subs) == 1 and self._stopped(info, cls, path, raw, subs[0], out):
            return
        # structuring failed: each field's problems, in order (a part with no
        # attribute's note, such as a missing key without detailed validation,
        # an extra key or __init__'s own failure, leaves it all to the full walk)
        notes: list[AttributeValidationNote] = []
        for sub in subs:
            for note in getattr(sub, "__notes__", ()):
                if note.__class__ is AttributeValidationNote:
                    notes.append(note)
                    break
            else:
                super()._class(cls, path, raw, out, exc)
                return
        start = len(out)
        keys = info.keys
        failed: set[str] = set()
        for sub, note in zip(subs, notes, strict=True):
            name = note.name
            key = keys.get(name, name)
            failed.add(name)
            kind = type(sub)
            if kind is Rejected:  # a strict hook's refusal, the commonest
                out.append(ArgumentProblem((*path, key), sub.args[0], raw.get(key, NOT_GIVEN)))
            elif kind is IterableValidationError:
                self._items(sub, (*path, key), raw.get(key, NOT_GIVEN), note.type, out)
            elif kind is ClassValidationError:
                self._class(sub.cl, (*path, key), raw.get(key, NOT_GIVEN), out, sub)
            elif isinstance(sub, KeyError) and key not in raw:
                out.append(ArgumentProblem.missing((*path, key), REQUIRED))
            else:
                self._walk(sub, (*path, key), raw.get(key, NOT_GIVEN), note.type, out)
        if checked and info.is_attrs and not failed.issuperset(info.checked_names):
            # __init__ never ran: the converters and validators of the fields
            # that could be structured run here, once
            before = len(out)
            validate = not validators_disabled()
            self._check(info, raw, path, failed, out, structured_values(exc), validate)
            if len(out) > before:
                in_field_order(out, start, info, len(path))

    def _items(
        self,
        exc: IterableValidationError,
        path: Path,
        raw: Any,
        tp: Any,
        out: _Found,
    ) -> None:
        if type(raw) is not list:
            super()._items(exc, path, raw, tp, out)
            return
        # an array the model sent: each failing item under its index
        size = len(raw)
        without: list[BaseException] = []
        for sub in exc.exceptions:
            for note in getattr(sub, "__notes__", ()):
                if note.__class__ is IterableValidationNote:
                    break
            else:
                without.append(sub)
                continue
            if len(out) >= KEPT:
                out.more += leaves(sub)
                continue
            index = note.index
            item = raw[index] if isinstance(index, int) and 0 <= index < size else NOT_GIVEN
            if type(sub) is ClassValidationError:
                self._class(sub.cl, (*path, index), item, out, sub)
            else:
                self._walk(sub, (*path, index), item, note.type, out)
        for sub in without:
            out.append(leaf(sub, path, raw, tp))

    def _stopped(
        self,
        info: ClassInfo,
        cls: type,
        path: Path,
        raw: dict[str, Any],
        error: BaseException,
        out: _Found,
    ) -> bool:
        """``__init__`` stopped at a plain validator: its failure, then the ones it never ran.

        ``False`` (and nothing run) for any other failure: ``__init__``
        stopped elsewhere, or structuring failed first.
        """
        tb = error.__traceback__
        if tb is None:
            return False
        below = tb.tb_next
        # cattrs' hook called the class's own generated __init__, which raised
        if (
            below is None
            or getattr(error, "__notes__", None)
            or isinstance(error, KeyError)
            or below.tb_frame.f_code is not info.init_code
            or tb.tb_frame.f_code.co_name in INIT_NAMES
        ):
            return False
        instance = below.tb_frame.f_locals.get("self")
        found = info.init_calls.get(below.tb_lineno)
        if not isinstance(instance, cls) or found is None or found[0] != "validator":
            return False
        at = info.positions.get(found[1])
        if at is None:
            return False
        failing = info.fields[at]
        validator = failing.validator
        if type(validator).__name__ in COMBINATORS:
            return False  # which part raised is read from its frames
        # the validators before it passed; it is reported, the ones after it run
        key = failing.key
        value = getattr(instance, failing.name)
        sent = raw.get(key, NOT_GIVEN)
        words = reason(validator, error, value)
        out.append(
            ArgumentProblem((*path, key), words, jsonable(value) if sent is NOT_GIVEN else sent)
        )
        for f in info.validated_after[at]:
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
        return True
