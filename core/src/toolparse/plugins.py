"""The plugin manager: loading plugins and collecting their adapters and providers.

``plugin_manager()`` builds the default manager lazily on first use, with the
core's own defaults registered like any plugin and then every installed
distribution's ``toolparse`` entry points. Two environment variables control
loading:

- ``TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD``: set (to anything but ``""``/``0``) to
  load no entry points.
- ``TOOLPARSE_LOAD_PLUGINS=name,name``: load only these entry points (an empty
  value loads none). It wins over the switch above.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import pluggy

from . import hookspecs

if TYPE_CHECKING:
    from .adapter import Adapter

__all__ = ["PluginManager", "field_schema", "make_plugin_manager", "plugin_manager"]

ENTRY_POINT_GROUP = "toolparse"
DISABLE_AUTOLOAD = "TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD"
LOAD_PLUGINS = "TOOLPARSE_LOAD_PLUGINS"


class PluginManager(pluggy.PluginManager):
    """A ``pluggy.PluginManager`` for toolparse, with its adapters and providers.

    What the plugins register is collected on first use and collected again
    after any :meth:`register` or :meth:`unregister`.
    """

    def __init__(self) -> None:
        super().__init__("toolparse")
        self.add_hookspecs(hookspecs)
        self._adapters: tuple[Adapter, ...] | None = None
        self._providers: dict[str, Any] | None = None
        #: whether any plugin observes executions (read on the execution path)
        self.observed = False

    def register(self, plugin: object, name: str | None = None) -> str | None:
        """Register a plugin (see ``pluggy.PluginManager.register``)."""
        result = super().register(plugin, name)
        self._changed()
        return result

    def unregister(self, plugin: object | None = None, name: str | None = None) -> Any:
        """Unregister a plugin (see ``pluggy.PluginManager.unregister``)."""
        result = super().unregister(plugin, name)
        self._changed()
        return result

    def _changed(self) -> None:
        self._adapters = None
        self._providers = None
        self.observed = bool(self.hook.toolparse_tool_executed.get_hookimpls())

    # -- adapters ------------------------------------------------------------

    def adapters(self) -> tuple[Adapter, ...]:
        """Every registered adapter, the one to ask first first."""
        if self._adapters is None:
            found: list[Adapter] = []
            # get_hookimpls() lists implementations in call order reversed
            # (tryfirst/trylast applied), so walking it backwards and putting
            # each plugin's adapters last-registered-first gives the ask order.
            for impl in reversed(self.hook.toolparse_register_adapters.get_hookimpls()):
                mine: list[Adapter] = []
                impl.function(register=mine.append)
                found.extend(reversed(mine))
            self._adapters = tuple(found)
        return self._adapters

    def adapter(self, name: str) -> Adapter | None:
        """The adapter called ``name``, or ``None``."""
        for adapter in self.adapters():
            if adapter.name == name:
                return adapter
        return None

    def select_adapter(self, source: object) -> Adapter | None:
        """The adapter for ``source``, chosen through ``toolparse_select_adapter``."""
        chosen: Adapter | None = self.hook.toolparse_select_adapter(
            source=source, candidates=self.adapters()
        )
        return chosen

    def field_schema_for(self, adapter: str) -> Callable[[object, dict[str, Any]], dict[str, Any]]:
        """The field-schema hook bound to this manager, as an adapter's compile step gets it.

        ``hook(field, schema)`` returns ``schema`` itself when no plugin
        implements ``toolparse_field_schema`` (the common case costs nothing).
        """
        caller = self.hook.toolparse_field_schema
        if not caller.get_hookimpls():
            return _unchanged

        def hook(field: object, schema: dict[str, Any]) -> dict[str, Any]:
            found = caller(adapter=adapter, field=field, schema=schema)
            return dict(found) if found is not None else schema

        return hook

    def serialize(self, value: object) -> str | None:
        """Ask the adapters, in order, to turn a returned model into JSON text."""
        for adapter in self.adapters():
            serialize = getattr(adapter, "serialize", None)
            if serialize is not None:
                text = serialize(value)
                if text is not None:
                    return str(text)
        return None

    # -- providers -----------------------------------------------------------

    def providers(self) -> dict[str, Any]:
        """Every registered provider by name."""
        if self._providers is None:
            found: dict[str, Any] = {}
            for impl in reversed(self.hook.toolparse_register_providers.get_hookimpls()):
                mine: list[Any] = []
                impl.function(register=mine.append)
                for provider in mine:
                    found.setdefault(provider.name, provider)
            self._providers = found
        return self._providers

    # -- loading ---------------------------------------------------------------

    def load_entry_points(self, names: Sequence[str] | None = None) -> int:
        """Register the installed ``toolparse`` entry points; return how many.

        With ``names``, only those; a name no distribution provides is a
        warning. Entry points load in name order so that which plugin is asked
        first does not depend on how the distributions happen to be listed.
        """
        from importlib.metadata import entry_points  # only when plugins load

        available = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
        wanted = sorted(available) if names is None else list(names)
        count = 0
        for name in wanted:
            ep = available.get(name)
            if ep is None:
                warnings.warn(
                    f"{LOAD_PLUGINS} names {name!r}, but no installed distribution "
                    f"provides a toolparse plugin of that name "
                    f"(installed: {', '.join(sorted(available)) or 'none'})",
                    stacklevel=2,
                )
                continue
            if self.get_plugin(name) is not None or self.is_blocked(name):
                continue
            self.register(ep.load(), name=name)
            count += 1
        return count


def _unchanged(field: object, schema: dict[str, Any]) -> dict[str, Any]:
    return schema


def _default_plugins(pm: PluginManager) -> None:
    from . import _defaults

    pm.register(_defaults, name="toolparse.defaults")


def make_plugin_manager(*, load_entry_points: bool = True) -> PluginManager:
    """Build a new plugin manager with the core's defaults registered.

    With ``load_entry_points`` the installed plugins are loaded as the
    environment variables say (see the module docstring). Tests build their
    own manager this way with ``load_entry_points=False``.
    """
    pm = PluginManager()
    _default_plugins(pm)
    if load_entry_points:
        names = os.environ.get(LOAD_PLUGINS)
        if names is not None:
            pm.load_entry_points([n.strip() for n in names.split(",") if n.strip()])
        elif os.environ.get(DISABLE_AUTOLOAD, "") in ("", "0"):
            pm.load_entry_points()
    pm.check_pending()
    return pm


_default: PluginManager | None = None


def plugin_manager() -> PluginManager:
    """The default plugin manager, built on first use and then cached."""
    global _default
    if _default is None:
        _default = make_plugin_manager()
    return _default


#: the plugin manager resolving a tool's ``args_schema`` right now (set by
#: Function while it asks an adapter for the schema and parser)
resolving: ContextVar[PluginManager | None] = ContextVar("toolparse_resolving", default=None)


def field_schema(adapter: str, field: object, schema: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema for one field, after plugins had their say.

    Adapters that write JSON Schema themselves call this for every field with
    what they would emit; a plugin implementing ``toolparse_field_schema`` may
    answer with a better schema for fields it knows. Uses the plugin manager
    resolving the current tool (else the default one).
    """
    pm = resolving.get() or plugin_manager()
    impls = pm.hook.toolparse_field_schema.get_hookimpls()
    if not impls:
        return schema
    found = pm.hook.toolparse_field_schema(adapter=adapter, field=field, schema=schema)
    return dict(found) if found is not None else schema
