"""Sphinx configuration for the toolparse docs (built with warnings as errors)."""

from __future__ import annotations

project = "toolparse"
author = "The toolparse developers"
copyright = "2026, the toolparse developers"

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = "toolparse"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
nitpicky = False
suppress_warnings = ["myst.xref_missing"]
