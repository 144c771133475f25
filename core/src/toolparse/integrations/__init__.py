"""toolparse inside the agent frameworks people already run.

Each module is installed by its extra and imports its framework itself; this
package imports nothing, so ``import toolparse`` never pulls in a framework:

- :mod:`toolparse.integrations.langchain` (``toolparse[langchain]``):
  :func:`~toolparse.integrations.langchain.to_langchain`,
  :func:`~toolparse.integrations.langchain.from_langchain`;
- :mod:`toolparse.integrations.pydantic_ai` (``toolparse[pydantic-ai]``):
  :func:`~toolparse.integrations.pydantic_ai.to_pydantic_ai`;
- :mod:`toolparse.integrations.openai_agents` (``toolparse[openai-agents]``):
  :func:`~toolparse.integrations.openai_agents.to_openai_agents`.
"""

from __future__ import annotations

__all__: list[str] = []
