"""The field-schema hook of one adapter, as its compile step gets it (see :mod:`toolparse.plugins`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .plugins import PluginManager

__all__ = ["FieldHook"]


class FieldHook:
    """The field-schema hook of one adapter, and (:meth:`delegate`) the way to the others."""

    __slots__ = ("_adapter", "_caller", "_pm", "answers")

    def __init__(self, pm: PluginManager, adapter: str) -> None:
        self._pm = pm
        self._adapter = adapter
        caller = pm.hook.toolparse_field_schema
        self._caller = caller if caller.get_hookimpls() else None
        #: whether any plugin implements the hook (else every field keeps its schema)
        self.answers = self._caller is not None

    def __call__(self, field: object, schema: dict[str, Any]) -> dict[str, Any]:
        if self._caller is None:
            return schema
        found = self._caller(adapter=self._adapter, field=field, schema=schema)
        return dict(found) if found is not None else schema

    def delegate(self, annotation: object, policy: str) -> Any:
        """``annotation`` compiled by its own adapter (a model inside a dataclass), or ``None``."""
        owner = self._pm.select_adapter(annotation)
        compile_ = getattr(owner, "compile", None)
        if owner is None or owner.name == self._adapter or compile_ is None:
            return None
        schema = self._pm.field_schema_for(owner.name)
        return compile_(annotation, unknown_arguments=policy, field_schema=schema, parser=True)
