"""Serve the test tools over stdio: ``python stdio_server.py``, started by the tests."""

from __future__ import annotations

import pathlib
import sys

# run as a script from any directory: the repository root makes `tests.mcp` importable
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from tests.mcp.tools import TOOLS

import toolparse.mcp

if __name__ == "__main__":
    toolparse.mcp.serve(TOOLS, name="stdio-tools")
