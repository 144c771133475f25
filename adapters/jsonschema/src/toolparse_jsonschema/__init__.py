"""toolparse adapter (under construction)."""
