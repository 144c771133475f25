"""Every text the model reads back, in one place.

The texts are fixed by the project's message contract: they name what was wrong
and what is accepted, state every problem at once, and carry nothing the model
cannot act on. Adapters never format text of their own: they hand structured
problems to :func:`toolparse.invalid_arguments`, which renders them here, once.

The package holds, each in its own module: an echoed value, a place and an
exception's text (``_safe_text``); the names lists and their "did you mean"
(``_suggestions``); the texts of rejected arguments (``_arguments``); those of
a call that goes wrong around them (``_calls``); and the shared words of every
adapter's reasons (``_reasons``, re-exported by :mod:`toolparse.adapter`).
"""

from __future__ import annotations

from ._arguments import MAX_PROBLEM_LINES
from ._arguments import invalid as invalid
from ._arguments import key_error as key_error
from ._arguments import missing_required as missing_required
from ._arguments import unrecognized_only as unrecognized_only
from ._calls import UNEXPECTED_RESPONSE as UNEXPECTED_RESPONSE
from ._calls import alias_clash as alias_clash
from ._calls import duplicate_tool as duplicate_tool
from ._calls import invalid_json as invalid_json
from ._calls import no_worker as no_worker
from ._calls import not_an_object as not_an_object
from ._calls import timed_out as timed_out
from ._calls import too_deep as too_deep
from ._calls import too_large as too_large
from ._calls import unknown_tool as unknown_tool
from ._safe_text import MAX_EXCEPTION_CHARS as MAX_EXCEPTION_CHARS
from ._safe_text import MAX_MESSAGE_CHARS, MAX_VALUE_CHARS, value_text
from ._safe_text import cap as cap
from ._safe_text import exception as exception
from ._safe_text import frame_text as frame_text
from ._safe_text import path_text as path_text
from ._safe_text import safe_text as safe_text
from ._suggestions import MAX_CANDIDATES as MAX_CANDIDATES
from ._suggestions import MAX_NAMES as MAX_NAMES
from ._suggestions import argument_keys as argument_keys
from ._suggestions import did_you_mean, similarity
from ._suggestions import names_text as names_text
from ._suggestions import nearest as nearest
from ._suggestions import suggestions as suggestions
from ._suggestions import unrecognized_names as unrecognized_names

# the names documented as public; those imported ``as`` themselves are the core's own
__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_PROBLEM_LINES",
    "MAX_VALUE_CHARS",
    "did_you_mean",
    "similarity",
    "value_text",
]
