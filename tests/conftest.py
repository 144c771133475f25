from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import settings

import toolparse as tp
from toolparse import problems

# CI explores a fixed set of examples, so a run is reproducible; locally every
# run explores new ones. Either way a failure prints the blob to replay it.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def pm() -> tp.PluginManager:
    """A fresh plugin manager with the core's defaults and no entry points."""
    return tp.make_plugin_manager(load_entry_points=False)


@pytest.fixture
def full_pm() -> tp.PluginManager:
    """A fresh plugin manager with every installed plugin loaded."""
    return tp.make_plugin_manager(load_entry_points=True)


class Built:
    """How many :class:`~toolparse.ArgumentProblem` objects were built (see ``problems_built``)."""

    count = 0


@pytest.fixture
def problems_built(monkeypatch: pytest.MonkeyPatch) -> Built:
    """Count every ArgumentProblem built during the test: bounded work is asserted on it."""
    built = Built()
    init = problems.ArgumentProblem.__init__

    def counted(self: problems.ArgumentProblem, *args: Any, **kwargs: Any) -> None:
        built.count += 1
        init(self, *args, **kwargs)

    monkeypatch.setattr(problems.ArgumentProblem, "__init__", counted)
    return built
