"""The ``plugins`` subcommand: every plugin, the adapters in the order they are asked, the providers.

A broken plugin (failed to import or to register, or a name clash) is listed and marked
(exit status 1): the command says what is broken instead of failing itself.
"""

from __future__ import annotations

import argparse

from .. import providers
from ._commands import dump
from ._targets import FAILED, OK

__all__ = ["plugins"]

Row = tuple[str, str, str, str, "str | None"]


def plugins(args: argparse.Namespace) -> int:
    """List the plugins (with their distributions and versions), adapters and providers."""
    import toolparse

    from ..plugins import PluginError, plugin_manager  # the default manager, when the command runs

    pm = plugin_manager()
    known = sorted(providers.registered(pm))  # the built-in ones register on first use: listed too
    clash: tuple[str, ...] = ()
    try:  # first: a plugin whose hook raises is recorded as failed while they are collected
        adapters = [a.name for a in pm.adapters()]
        reason = None
    except PluginError as exc:
        adapters, clash, reason = [], exc.plugins, str(exc)
    installed = {info.name: info for info in pm.plugin_distributions()}
    rows: list[Row] = []
    for name, plugin in pm.list_name_plugin():
        info = installed.pop(name, None)
        error = reason if name in clash else None
        if info is not None:
            rows.append(
                (name, info.distribution, info.version, info.entry_point, info.error or error)
            )
            continue
        # registered in code (the core's defaults, or at run time)
        module = getattr(plugin, "__name__", type(plugin).__name__)
        own = module.startswith("toolparse.")
        version = toolparse.__version__ if own else ""
        rows.append((name, "toolparse" if own else "", version, module, error))
    # installed, but failed to import
    rows += [
        (i.name, i.distribution, i.version, i.entry_point, i.error) for i in installed.values()
    ]
    status = FAILED if any(row[4] for row in rows) else OK
    if args.json:
        keys = ("name", "distribution", "version", "module", "error")
        listed = [dict(zip(keys, row, strict=True)) for row in rows]
        out = {"plugins": listed, "adapters": adapters, "providers": known}
        print(dump(out, True))
        return status
    width = max((len(row[0]) for row in rows), default=0)
    for name, distribution, version, module, error in rows:
        where = f"broken: {error}" if error else module
        line = f"{name:<{width}}  {distribution} {version}  ({where})"
        print(line.replace("   (", "  ("))
    print(
        "adapters (asked in this order):", ", ".join(adapters) or "(none: see the broken plugins)"
    )
    print("providers:", ", ".join(known))
    return status
