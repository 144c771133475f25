from __future__ import annotations

import pytest

import toolparse as tp


@pytest.fixture
def pm() -> tp.PluginManager:
    """A fresh plugin manager with the core's defaults and no entry points."""
    return tp.make_plugin_manager(load_entry_points=False)


@pytest.fixture
def full_pm() -> tp.PluginManager:
    """A fresh plugin manager with every installed plugin loaded."""
    return tp.make_plugin_manager(load_entry_points=True)
