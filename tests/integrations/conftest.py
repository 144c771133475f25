"""LangChain's standard tests are pytest-asyncio's: their async tests get its mark here.

LangChain runs them in pytest-asyncio's auto mode; this project's own async tests run on
anyio, so the mark goes on the async tests of LangChain's tool suites only (before
collection, where pytest-asyncio looks for it).
"""

from __future__ import annotations

import inspect

import pytest

try:
    from langchain_tests.integration_tests import ToolsIntegrationTests
except ImportError:  # pragma: no cover - langchain-tests is in the test dependencies
    ToolsIntegrationTests = None

if ToolsIntegrationTests is not None:
    for _test in vars(ToolsIntegrationTests).values():
        if inspect.iscoroutinefunction(_test):
            pytest.mark.asyncio(_test)
