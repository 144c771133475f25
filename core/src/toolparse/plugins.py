"""The plugin manager: loading plugins and collecting their adapters and providers.

``plugin_manager()`` builds the default manager on first use: the core's own
defaults, registered like any plugin, then every installed distribution's
``toolparse`` entry points, loaded by pluggy. Two environment variables control
loading:

- ``TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD``: set (to anything but ``""``/``0``) to
  load no entry points.
- ``TOOLPARSE_LOAD_PLUGINS=name,name``: load only these entry points (an empty
  value loads none). It wins over the switch above.

A plugin that fails to import is named in a :class:`PluginLoadWarning` and
skipped; a tool that needs it names it again in its definition error.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, NamedTuple

import pluggy

from . import _defaults, hookspecs
from ._log import logger

if TYPE_CHECKING:
    from importlib.metadata import Distribution, EntryPoint

    from .adapter import Adapter

__all__ = [
    "PluginDistribution",
    "PluginError",
    "PluginLoadWarning",
    "PluginManager",
    "field_schema",
    "make_plugin_manager",
    "plugin_manager",
]

ENTRY_POINT_GROUP = "toolparse"
DISABLE_AUTOLOAD = "TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD"
LOAD_PLUGINS = "TOOLPARSE_LOAD_PLUGINS"


class PluginError(Exception):
    """The installed plugins contradict each other (two adapters of one name).

    :attr:`plugins` names the plugins involved (``toolparse plugins`` marks them).
    """

    def __init__(self, message: str, plugins: Sequence[str] = ()) -> None:
        super().__init__(message)
        #: the names of the plugins that contradict each other
        self.plugins: tuple[str, ...] = tuple(plugins)


class PluginLoadWarning(UserWarning):
    """An installed plugin failed to import and was skipped."""


class PluginDistribution(NamedTuple):
    """One installed plugin and the distribution that provides it."""

    #: the entry point's name (the plugin's name in the manager)
    name: str
    #: the distribution's name, as ``pip`` spells it
    distribution: str
    #: the distribution's version
    version: str
    #: the entry point's target (``"toolparse_pydantic"``)
    entry_point: str
    #: why it failed to import (``"ModuleNotFoundError: ..."``), ``None`` when it loaded
    error: str | None = None

    def describe(self) -> str:
        """``'name' (distribution version, entry point target)``, for messages."""
        return f"{self.name!r} ({self.distribution} {self.version}, entry point {self.entry_point})"


class PluginManager(pluggy.PluginManager):
    """A ``pluggy.PluginManager`` for toolparse, with its adapters and providers.

    What the plugins register is collected on first use, and again after a change.
    """

    def __init__(self) -> None:
        super().__init__("toolparse")
        self.add_hookspecs(hookspecs)
        self._adapters: tuple[Adapter, ...] | None = None
        self._providers: dict[str, Any] | None = None
        self._failed: list[PluginDistribution] = []
        self.observed = False  #: whether any plugin observes executions

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
        """Every registered adapter, the one to ask first first.

        Raises :class:`PluginError` when two adapters share a name: which one
        ``adapter=`` would pick would otherwise depend on loading order.
        """
        if self._adapters is None:
            found: list[Adapter] = []
            owners: dict[str, str] = {}
            # get_hookimpls() lists implementations in call order reversed
            # (tryfirst/trylast applied), so walking it backwards and putting
            # each plugin's adapters last-registered-first gives the ask order.
            for impl in reversed(self.hook.toolparse_register_adapters.get_hookimpls()):
                mine: list[Adapter] = []
                try:
                    impl.function(register=mine.append)
                except Exception as exc:  # one broken plugin must not break the others' tools
                    self._hook_failed(impl, exc)
                    continue
                for adapter in reversed(mine):
                    other = owners.get(adapter.name)
                    if other is not None:
                        raise PluginError(
                            f"two adapters are named {adapter.name!r}: one from the plugin "
                            f"{other!r}, one from {impl.plugin_name!r}; adapter names must be "
                            f"unique (load one of them only, with {LOAD_PLUGINS} or set_blocked)",
                            (other, impl.plugin_name),
                        )
                    owners[adapter.name] = impl.plugin_name
                    found.append(adapter)
            self._adapters = tuple(found)
        return self._adapters

    def adapter(self, name: str) -> Adapter | None:
        """The adapter called ``name``, or ``None``."""
        return next((adapter for adapter in self.adapters() if adapter.name == name), None)

    def select_adapter(self, source: object) -> Adapter | None:
        """The adapter for ``source``, chosen through ``toolparse_select_adapter``."""
        candidates = self.adapters()
        chosen: Adapter | None = self.hook.toolparse_select_adapter(
            source=source, candidates=candidates
        )
        chooser = self.hook.toolparse_select_adapter.get_hookimpls()
        if chosen is not None and len(candidates) > 1 and len(chooser) == 1:
            # by the default order (no plugin chose): an overlap is said, not silently won;
            # definition time only
            others = [a.name for a in candidates if a is not chosen and a.accepts(source)]
            if others:
                warnings.warn(
                    f"the adapters {chosen.name!r} and {' and '.join(map(repr, others))} accept "
                    f"{source!r:.60}; {chosen.name!r} is used (the adapter registered last is "
                    "asked first); pass adapter=... to choose one",
                    stacklevel=3,
                )
        return chosen

    def field_schema_for(self, adapter: str) -> Callable[[object, dict[str, Any]], dict[str, Any]]:
        """The field-schema hook bound to this manager, as an adapter's compile step gets it."""
        from ._field_hook import FieldHook  # only when an adapter compiles a tool

        return FieldHook(self, adapter)

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
        """Every registered provider by name (built-ins: :func:`toolparse.providers.registered`)."""
        if self._providers is None:
            found: dict[str, Any] = {}
            for impl in reversed(self.hook.toolparse_register_providers.get_hookimpls()):
                mine: list[Any] = []
                try:
                    impl.function(register=mine.append)
                except Exception as exc:
                    self._hook_failed(impl, exc)
                    continue
                for provider in mine:
                    found.setdefault(provider.name, provider)
            self._providers = found
        return self._providers

    # -- loading ---------------------------------------------------------------

    def load_entry_points(self, names: Sequence[str] | None = None) -> int:
        """Register the installed ``toolparse`` entry points (pluggy loads them); return how many.

        With ``names``, only those, in that order (a name no distribution
        provides is a warning); without, all of them, in name order, so which
        plugin is asked first never depends on how distributions are listed.
        One that fails to import is skipped with a :class:`PluginLoadWarning`
        (see :meth:`failed_plugins`).
        """
        if names is None:
            loaded = self._load(None)
            self._in_name_order(loaded)
            return len(loaded)
        count = 0
        for name in names:
            found = len(self._load(name))
            count += found
            known = self.has_plugin(name) or self.is_blocked(name)
            if not found and not known and not any(f.name == name for f in self._failed):
                installed = sorted({ep.name for _, ep in _entry_points(None)})
                warnings.warn(
                    f"{LOAD_PLUGINS} names {name!r}, but no installed distribution "
                    f"provides a toolparse plugin of that name "
                    f"(installed: {', '.join(installed) or 'none'})",
                    stacklevel=2,
                )
        return count

    def _load(self, name: str | None) -> list[object]:
        """Load through pluggy, return what loaded; a failure is recorded, blocked for the retry."""
        before = len(self.list_plugin_distinfo())
        skipped: list[str] = []
        try:
            while True:
                try:
                    self.load_setuptools_entrypoints(ENTRY_POINT_GROUP, name)
                    break
                except Exception as exc:
                    # pluggy stops at the entry point that raised: the first one
                    # (in its order) that is neither registered nor blocked yet
                    taken = dict(self.list_name_plugin())  # registered, or blocked (None)
                    waiting = [(d, ep) for d, ep in _entry_points(name) if ep.name not in taken]
                    if not waiting:
                        raise
                    dist, ep = waiting[0]
                    self._record_failure(dist, ep, exc)
                    self.set_blocked(ep.name)
                    skipped.append(ep.name)
        finally:
            for blocked in skipped:
                self.unblock(blocked)
        return [plugin for plugin, _ in self.list_plugin_distinfo()[before:]]

    def _record_failure(self, dist: Distribution, ep: EntryPoint, exc: Exception) -> None:
        error = f"{type(exc).__name__}: {exc}"
        failure = PluginDistribution(ep.name, _dist_name(dist), str(dist.version), ep.value, error)
        self._failed_with(failure, "failed to import", exc)

    def _hook_failed(self, impl: pluggy.HookImpl, exc: Exception) -> None:
        plugin = impl.plugin
        dist = next((d for p, d in self.list_plugin_distinfo() if p is plugin), None)
        module = getattr(plugin, "__name__", type(plugin).__name__)
        where = (_dist_name(dist), str(dist.version)) if dist is not None else ("", "")
        error = f"{type(exc).__name__}: {exc}"
        failure = PluginDistribution(impl.plugin_name, *where, module, error)
        self._failed_with(failure, f"raised in {impl.function.__name__}", exc)

    def _failed_with(self, failure: PluginDistribution, what: str, exc: Exception) -> None:
        self._failed = [f for f in self._failed if f.name != failure.name]
        self._failed.append(failure)
        text = f"the toolparse plugin {failure.describe()} {what} and is skipped: {failure.error}"
        logger(__name__).warning("%s", text, exc_info=exc)
        warnings.warn(
            f"{text}; tools that need it will fail to define", PluginLoadWarning, stacklevel=5
        )

    def _in_name_order(self, loaded: list[object]) -> None:
        """Register ``loaded`` again, sorted by name, when pluggy's order was another."""
        named = [(self.get_name(plugin) or "", plugin) for plugin in loaded]
        ordered = sorted(named, key=lambda pair: pair[0])
        if ordered == named:
            return
        for _, plugin in named:
            super().unregister(plugin)
        for name, plugin in ordered:
            super().register(plugin, name)
        self._changed()

    def failed_plugins(self) -> list[PluginDistribution]:
        """The installed plugins that failed to import, each with its error."""
        return list(self._failed)

    def plugin_distributions(self) -> list[PluginDistribution]:
        """Every plugin loaded from an entry point, and every one that failed, by name (what ``toolparse plugins`` lists)."""
        found = list(self._failed)
        failed = {f.name for f in found}
        for plugin, dist in self.list_plugin_distinfo():
            name = self.get_name(plugin) or ""
            if self.is_registered(plugin) and name not in failed:
                eps = [ep for ep in dist.entry_points if ep.group == ENTRY_POINT_GROUP]
                target = next((str(ep.value) for ep in eps if ep.name == name), "?")
                version = str(dist.version)
                found.append(PluginDistribution(name, _dist_name(dist), version, target))
        return sorted(found, key=lambda info: info.name)


def _entry_points(name: str | None) -> list[tuple[Distribution, EntryPoint]]:
    """The group's entry points in the order pluggy walks them (distribution order)."""
    import importlib.metadata  # only when plugins load, like pluggy itself

    return [
        (dist, ep)
        for dist in importlib.metadata.distributions()
        for ep in dist.entry_points
        if ep.group == ENTRY_POINT_GROUP and (name is None or ep.name == name)
    ]


def _dist_name(dist: Any) -> str:
    return str(dist.metadata["Name"] or getattr(dist, "name", "") or "?")


def make_plugin_manager(*, load_entry_points: bool = True) -> PluginManager:
    """Build a new plugin manager with the core's defaults registered.

    With ``load_entry_points`` the installed plugins are loaded as the
    environment variables say (see the module docstring). Tests build their
    own manager this way with ``load_entry_points=False``.
    """
    pm = PluginManager()
    pm.register(_defaults, name="toolparse.defaults")
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


#: the plugin manager resolving a tool's ``args_schema`` right now, for adapters
#: of the two-method form only (set around their ``json_schema`` and ``parser``)
resolving: ContextVar[PluginManager | None] = ContextVar("toolparse_resolving", default=None)


def field_schema(adapter: str, field: object, schema: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema for one field, after plugins had their say (two-method adapters).

    An adapter of the one-step form gets this hook as ``compile``'s
    ``field_schema`` argument instead. One of the two-method form, writing
    JSON Schema itself, calls this for every field with what it would emit; a
    plugin implementing ``toolparse_field_schema`` may answer with a better
    schema for fields it knows. Uses the plugin manager resolving the current
    tool (else the default one).
    """
    pm = resolving.get() or plugin_manager()
    return pm.field_schema_for(adapter)(field, schema)
