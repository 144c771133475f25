"""What the model may read of a value, a place or an exception: JSON cut short, one safe line.

Part of the message texts (:mod:`toolparse.messages` re-exports every name).
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Sequence
from json.encoder import encode_basestring
from typing import Any

from ..context import redact

__all__ = [
    "MAX_EXCEPTION_CHARS",
    "MAX_MESSAGE_CHARS",
    "MAX_VALUE_CHARS",
    "a_kind",
    "cap",
    "exception",
    "frame_text",
    "path_text",
    "safe_text",
    "value_text",
]

MAX_MESSAGE_CHARS = 2000
MAX_VALUE_CHARS = 40
MAX_EXCEPTION_CHARS = 300

_URL = re.compile(r"(?i)(?:\b[a-z][a-z0-9+.\-]*://|www\.)[^\s'\"<>()\[\]{}]*")
# traceback text, wherever it stands (it may follow other text on a line)
_TRACEBACK_TEXT = re.compile(
    r"Traceback \(most recent call last\):|File \"[^\"]*\", line \d+(?:, in [^\s;]+)?"
)
_ADDRESS_REPR = re.compile(r"<([^<>]*?) at 0x[0-9a-fA-F]+>")
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}")
# a validation library's dump of the value it was given (``[type=..., input_value=...]``)
_DUMP = re.compile(r"\s*\[type=[^\]]*\]")
_TRACEBACK_LINE = re.compile(
    r"^\s*(?:Traceback \(most recent call last\):|File \".*\", line \d+.*|\^[\^~\s]*"
    r"|During handling of the above exception.*|The above exception was the direct cause.*"
    r"|For further information visit.*)$"
)
# a value that is not data (an object, a set) is echoed as its repr inside the JSON
_encode = json.JSONEncoder(ensure_ascii=False, default=repr).encode


def cap(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` cut to ``limit`` characters (with ``...``): the last guard of every limit."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def value_text(value: object, limit: int = MAX_VALUE_CHARS) -> str:
    """An echoed value: JSON, cut to ``limit`` characters (40 by default) with ``...``.

    Adapters use it for values they quote in a reason, too, so every echoed
    value reads the same way.
    """
    try:
        # a string's, a number's, a flag's or null's JSON without the encoder's set-up
        # (costlier than the text: most values echoed are of these)
        if type(value) is str:
            text = encode_basestring(value)
        elif type(value) is int:
            text = int.__repr__(value)
        elif type(value) is float and value - value == 0:  # (NaN and the infinities: the encoder's)
            text = float.__repr__(value)
        elif value is None or type(value) is bool:
            text = "null" if value is None else "true" if value else "false"
        else:
            text = _encode(value)
    except (TypeError, ValueError, RecursionError):
        try:
            text = repr(value)
        except RecursionError:  # a value nested past the stack: say what it is
            text = f"<a deeply nested {type(value).__name__}>"
        except Exception:  # a broken __repr__, an integer past Python's limit on its text
            text = f"<{a_kind(value)} value>"
            if isinstance(value, int):
                text = "<an integer of thousands of digits>"
    if " at 0x" in text:  # a repr inside the JSON keeps no address
        text = _ADDRESS_REPR.sub(r"<\1>", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def a_kind(value: Any) -> str:
    """What ``value`` is, with its article: ``a list``, ``an int``."""
    name = type(value).__name__
    return ("an " if name[:1].lower() in ("a", "e", "i", "o", "u") else "a ") + name


def path_text(path: Sequence[Any]) -> str:
    """``a.b[0].c``; ``(arguments)`` for the whole object; a key that is no text: its safe repr."""
    if len(path) == 1 and type(path[0]) is str:
        return path[0]  # most problems are on a top-level name
    if not path:
        return "(arguments)"
    out: list[str] = []
    for part in path:
        if isinstance(part, str):
            out.append(f".{part}" if out else part)
        elif isinstance(part, int):
            out.append(f"[{part}]")
        else:
            text = safe_text(repr(part), MAX_VALUE_CHARS)
            out.append(f".{text}" if out else text)
    return "".join(out)


def safe_text(text: str, limit: int = MAX_EXCEPTION_CHARS) -> str:
    """An exception's text made fit for the model.

    One line (lines joined with ``"; "``), no traceback lines, no URLs, no
    memory addresses (``<object at 0x7f...>`` becomes ``<object>``), at most
    ``limit`` characters.
    """
    kept = (" ".join(line.split()) for line in text.splitlines() if not _TRACEBACK_LINE.match(line))
    out = _TRACEBACK_TEXT.sub("", "; ".join(line for line in kept if line))
    out = _DUMP.sub("", out)
    out = _URL.sub("<link>", out)
    out = _ADDRESS_REPR.sub(r"<\1>", out)
    out = _ADDRESS.sub("<address>", out)
    return cap(out, limit)


@functools.lru_cache(maxsize=1)
def _library_dirs() -> tuple[str, ...]:
    """Directories whose code is not the application's: stdlib, site-packages, toolparse."""
    import sysconfig

    paths, keys = sysconfig.get_paths(), ("stdlib", "platstdlib", "purelib", "platlib")
    dirs = {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    dirs.update(os.path.abspath(paths[key]) for key in keys if paths.get(key))
    return tuple(sorted(d.rstrip(os.sep) + os.sep for d in dirs))


def _is_toolparse(frame: Any) -> bool:
    """A frame of toolparse itself."""
    module = str(frame.f_globals.get("__name__") or "")
    return module == "toolparse" or module.startswith("toolparse.")


def _is_library(frame: Any) -> bool:
    module = str(frame.f_globals.get("__name__") or "")
    if _is_toolparse(frame) or module.startswith("toolparse_"):
        return True
    filename = str(frame.f_code.co_filename)
    if filename.startswith("<"):
        return filename.startswith("<frozen")
    return os.path.abspath(filename).startswith(_library_dirs())


def frame_text(tb: Any) -> str:
    """`` at file.py:42: function`` for the innermost frame of the application's code.

    Frames of the standard library, of installed packages and of toolparse
    itself are passed over; without any application frame, the first frame
    past toolparse's own (the tool body, when it is library code) is named.
    """
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    if not frames:
        return ""
    frame, line = next(
        (f for f in reversed(frames) if not _is_library(f[0])),
        next((f for f in frames if not _is_toolparse(f[0])), frames[-1]),
    )
    code = frame.f_code
    name = getattr(code, "co_qualname", code.co_name)
    return f" at {os.path.basename(code.co_filename)}:{line}: {name}"


def exception(exc: BaseException, secrets: Sequence[str] = ()) -> str:
    """``ERROR: (Type) message at file.py:42: function`` for an exception.

    The message is made safe (:func:`safe_text`) with ``secrets`` (the context's strings)
    redacted; the frame named is the application's own (see :func:`frame_text`).
    """
    name = type(exc).__name__
    if isinstance(exc, KeyError) and type(exc).__module__.startswith("toolparse."):
        name = "KeyError"  # the arguments' own KeyError subclass is an implementation detail
    try:
        text = str(exc)
    except Exception:  # a broken __str__ must not break the error path
        text = f"<{name} with an unprintable message>"
    # before the cut (no part of a secret is left at it), and after (none in the frame)
    text = safe_text(redact(text, secrets))
    return redact(f"ERROR: ({name}) {text}{frame_text(exc.__traceback__)}", secrets)
