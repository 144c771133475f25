"""The adapter conformance kit: the behaviour every toolparse adapter must have, as tests.

An adapter's own test suite (the built-in ones and any third party's) runs it
by subclassing :class:`AdapterConformance` and returning one
:class:`ConformanceCase`::

    from toolparse.testing import AdapterConformance, ConformanceCase, Invalid

    class TestMyAdapter(AdapterConformance):
        def case(self) -> ConformanceCase:
            return ConformanceCase(adapter=MyAdapter(), source=MyModel, ...)

pytest collects every check as a test of that class. The one-voice check
(``ONE_VOICE``) asks the case's ``one_voice`` for a source per wrong call
and holds the message to the shared words. The kit builds its own
plugin manager (the core's defaults plus the case's adapter, no entry points),
so what it checks is the adapter under test and nothing else installed.

Install it with ``pip install "toolparse[testing]"`` (pytest and hypothesis);
the checks of the exported schema also use ``jsonschema`` and
``hypothesis-jsonschema`` and are skipped without them.
"""

from __future__ import annotations

from ._case import FORBIDDEN_IN_MESSAGES, ConformanceCase, Invalid, generated_titles
from ._suite import AdapterConformance, adapter_plugin, plugin_manager_for
from ._voice import ONE_VOICE, OneVoice, one_voice_message

__all__ = [
    "FORBIDDEN_IN_MESSAGES",
    "ONE_VOICE",
    "AdapterConformance",
    "ConformanceCase",
    "Invalid",
    "OneVoice",
    "adapter_plugin",
    "generated_titles",
    "one_voice_message",
    "plugin_manager_for",
]
