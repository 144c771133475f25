"""The sdist build hook of the five distributions: their sdists leave out the repository's .gitignore.

hatchling always adds the .gitignore it finds above a project (and no ``exclude`` removes it);
it says nothing to someone who unpacks the sdist, so this hook takes it off the files forced in.
"""

from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class SdistHook(BuildHookInterface):  # type: ignore[misc]  # hatchling ships no type hints
    """Drop the VCS ignore files hatchling forces into every sdist."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Remove ``.gitignore`` (and ``.hgignore``) from the files forced into the sdist."""
        forced = build_data["force_include"]
        for source in [s for s, dest in forced.items() if dest in (".gitignore", ".hgignore")]:
            del forced[source]
