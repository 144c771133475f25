"""The commonest rejected calls read in fewer steps: the same problems as the full walk.

Most wrong calls are a few wrong values, and objects whose ``__init__``
stopped at one plain validator. :class:`QuickReader` reads a class's
``ClassValidationError`` in one pass, each part dispatched by its exact type,
and writes its problems as rows, ``(path, reason, received, kind)``, which the
core builds only if they are read. Where ``__init__`` stopped is told by the
line of the class's own generated ``__init__`` that raised (the lines that call
a plain validator are found once per class), without the search down the
traceback. What follows a class's parts (its validators when structuring
failed first, extra keys, ``__init__`` stopping anywhere else) is the full
walk's own step, and anything else (a mapping, a value that is not an object)
is handed to :class:`ErrorReader` before anything of it is read: no validator
runs twice, and the problems and their order are those of the full walk (a
differential test holds it).
"""

from __future__ import annotations

from typing import Any

from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    IterableValidationError,
    IterableValidationNote,
)

from toolparse import NOT_GIVEN, ArgumentProblem
from toolparse.adapter import REQUIRED

from ._checks import Problem, jsonable, run_after
from ._converter import Rejected
from ._errors import KEPT, ErrorReader, Path, _Found
from ._fields import ClassInfo
from ._leaves import leaf
from ._parts import leaves, unnoted
from ._reasons import custom, fixed_words, reason
from ._resumption import INIT_NAMES

__all__ = ["QuickReader"]


class QuickReader(ErrorReader):
    """:class:`ErrorReader`, with the commonest shapes of a rejected call read directly."""

    def problems(self, exc: BaseException, arguments: Any, cls: type) -> tuple[list[Problem], int]:
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
        if checked and len(subs) == 1 and _stopped(info, cls, path, raw, subs[0], out):
            return
        # structuring failed: each field's problems in order, read as the full
        # walk reads them, then what the class's validators say (as there)
        start = len(out)
        keys = info.keys
        # the fields cattrs could not structure: what the validators skip
        failed: set[str] | None = set() if checked else None
        without: list[BaseException] | None = None
        for sub in subs:
            for note in getattr(sub, "__notes__", ()):
                if note.__class__ is AttributeValidationNote:
                    break
            else:
                if without is None:
                    without = []
                without.append(sub)
                continue
            name = note.name
            key = keys.get(name, name)
            where = (*path, key)
            if failed is not None:
                failed.add(name)
            kind = type(sub)
            if kind is Rejected:  # a strict hook's refusal, the commonest
                out.append((where, sub.args[0], raw.get(key, NOT_GIVEN), "invalid"))
            elif kind is IterableValidationError:
                self._items(sub, where, raw.get(key, NOT_GIVEN), note.type, out)
            elif kind is ClassValidationError:
                self._class(sub.cl, where, raw.get(key, NOT_GIVEN), out, sub)
            elif isinstance(sub, KeyError) and key not in raw:
                out.append((where, REQUIRED, NOT_GIVEN, "missing"))
            else:
                self._walk(sub, where, raw.get(key, NOT_GIVEN), note.type, out)
        errors = [] if without is None else list(unnoted(without, path, out))
        if checked or errors:
            self._settle(info, cls, path, raw, out, exc, start, failed or set(), errors)

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
        infos = self._infos
        without: list[BaseException] | None = None
        for sub in exc.exceptions:
            for note in getattr(sub, "__notes__", ()):
                if note.__class__ is IterableValidationNote:
                    break
            else:
                if without is None:
                    without = []
                without.append(sub)
                continue
            if len(out) >= KEPT:
                out.more += leaves(sub)
                continue
            index = note.index
            item = raw[index] if isinstance(index, int) and 0 <= index < size else NOT_GIVEN
            if type(sub) is ClassValidationError:
                # an object of the array: where its __init__ stopped is read
                # here when it can be, else by the class's own reading
                where = (*path, index)
                parts = sub.exceptions
                info = infos.get(sub.cl)
                if (
                    len(parts) != 1
                    or type(item) is not dict
                    or info is None
                    or not info.checked
                    or not _stopped(info, sub.cl, where, item, parts[0], out)
                ):
                    self._class(sub.cl, where, item, out, sub)
            else:
                self._walk(sub, (*path, index), item, note.type, out)
        if without is not None:
            out.extend(leaf(sub, path, raw, tp) for sub in without)


def _stopped(
    info: ClassInfo, cls: type, path: Path, raw: dict[str, Any], error: BaseException, out: _Found
) -> bool:
    """``__init__`` stopped at a plain validator: its failure, then the ones it never ran.

    cattrs' hook called the class's own generated ``__init__``, and the line
    that raised calls a plain validator: it is reported, the validators after
    it run, the ones before it passed. ``False`` (and nothing run) for any
    other stop: the full walk reads it.
    """
    tb = error.__traceback__
    below = tb.tb_next if tb is not None else None
    if tb is None or below is None:
        return False
    frame = below.tb_frame
    if (
        frame.f_code is not info.init_code
        or tb.tb_frame.f_code.co_name in INIT_NAMES
        or isinstance(error, KeyError)
    ):
        return False
    stop = info.plain_stops.get(below.tb_lineno)
    if stop is None:
        return False
    instance = frame.f_locals.get("self")
    if not isinstance(instance, cls):
        return False
    failing, after, said = stop
    key = failing.key
    value = getattr(instance, failing.name)
    sent = raw.get(key, NOT_GIVEN)
    # the words of attrs' own validators are kept with the line (they depend
    # only on whether the value is a string)
    text = isinstance(value, str)
    words = said.get(text)
    if words is None:
        words = reason(failing.validator, error, value)
        if fixed_words(failing.validator, value) is not None:
            said[text] = words
    out.append(((*path, key), words, jsonable(value) if sent is NOT_GIVEN else sent, "invalid"))
    run_after(after, instance, path, raw, out)
    return True
