"""Each environment has exactly the adapters it claims, found through real entry points."""

from __future__ import annotations

import importlib.metadata
import os

import pytest

import toolparse as tp


def test_installed_adapters_match_the_environment() -> None:
    expected = os.environ.get("TOOLPARSE_EXPECT_ADAPTERS")
    if expected is None:
        pytest.skip("TOOLPARSE_EXPECT_ADAPTERS is set by the tox environments")
    wanted = {n for n in expected.split(",") if n}
    found = {ep.name for ep in importlib.metadata.entry_points(group="toolparse")}
    assert found == wanted


def test_every_installed_entry_point_registers_its_adapter() -> None:
    pm = tp.make_plugin_manager(load_entry_points=False)
    names = sorted(ep.name for ep in importlib.metadata.entry_points(group="toolparse"))
    assert pm.load_entry_points() == len(names)
    registered = {adapter.name for adapter in pm.adapters()}
    assert set(names) <= registered
    assert "plain" in registered
