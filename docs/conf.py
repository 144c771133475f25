"""Sphinx configuration for the toolparse docs (built with warnings as errors)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import re
import sys
import types
import typing
from typing import Any, TypeVar

from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective

project = "toolparse"
author = "the toolparse authors"
copyright = "2026, the toolparse authors"

# docstrings are reST with :param: fields (pytest's style); no napoleon, which would read
# "text: more text" in an attribute's comment as a type
extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = "toolparse"

autodoc_member_order = "bysource"
autodoc_typehints = "description"

# Every reference must resolve. The names below are outside this project, and the docs build
# offline (no intersphinx inventory to link them to).
nitpicky = True
nitpick_ignore = [
    # the standard library, as signatures spell it
    ("py:class", "collections.abc.Callable"),
    ("py:class", "collections.abc.Collection"),
    ("py:class", "collections.abc.Hashable"),
    ("py:class", "collections.abc.Iterable"),
    ("py:class", "collections.abc.Mapping"),
    ("py:class", "collections.abc.Sequence"),
    ("py:class", "types.Annotated"),  # typing.Annotated, as pydantic's field types print it
    # library names that toolparse.mcp's and the integrations' signatures write unqualified
    ("py:class", "BaseModel"),  # pydantic.BaseModel
    ("py:class", "BaseTool"),  # langchain_core.tools.BaseTool, loaded on first use
    ("py:class", "Implementation"),  # mcp.types.Implementation
    ("py:class", "ServerSession"),  # mcp.server.session.ServerSession
    ("py:class", "Starlette"),  # starlette.applications.Starlette
    ("py:class", "AuthSettings"),  # mcp.server.auth.settings.AuthSettings
    ("py:class", "TokenVerifier"),  # mcp.server.auth.provider.TokenVerifier
    ("py:class", "types.CallToolResult"),  # mcp.types, imported as ``types``
    # the pool object worker_pool() returns; its readable fields are documented there
    ("py:class", "WorkerPool"),
    # the keyword options of @tool's overloads (a TypedDict); the tool docstring lists each
    ("py:class", "Options"),
]
# the libraries the core, the adapters, toolparse.mcp and the integrations build on
_EXTERNAL = [
    "agents",
    "cattrs",
    "langchain_core",
    "mcp",
    "opentelemetry",
    "pluggy",
    "pydantic",
    "pydantic_ai",
    "pydantic_core",
]
nitpick_ignore_regex = [("py:class", rf"({'|'.join(_EXTERNAL)})\..+")]

# -- the reference (docs/api.md) is generated from the code -----------------------------------

HERE = pathlib.Path(__file__).parent
TOP = "toolparse"  # the package whose names are documented at the top level, once


def _documented_modules() -> list[str]:
    """The modules the reference renders (every ``automodule`` in the docs)."""
    found: list[str] = []
    for page in sorted(HERE.rglob("*.md")):
        found += re.findall(r"^\.\. automodule:: (\S+)", page.read_text("utf-8"), re.MULTILINE)
    return found


def _materialise_lazy_exports(app: Any) -> None:
    # autodoc lists a module's members with dir(); names a package imports on first use
    # (a module __getattr__, as toolparse_attrs does) are looked up once here, so that
    # every name in __all__ is rendered
    for name in _documented_modules():
        try:
            module = importlib.import_module(name)
        except Exception:  # autodoc reports the failed import itself, as a warning
            continue
        for export in getattr(module, "__all__", ()):
            if export not in vars(module) and not export.startswith("__"):
                setattr(module, export, getattr(module, export))


def _skip_reexports(
    app: Any, what: str, name: str, obj: object, skip: bool, options: Any
) -> bool | None:
    # a name exported by the top-level package is documented there, once; the module that
    # defines it lists only what it adds (a second entry would make every reference ambiguous)
    if what != "module" or app.env.current_document.autodoc_module == TOP:
        return None
    top = importlib.import_module(TOP)
    if name in top.__all__ and getattr(top, name, None) is obj:
        return True
    return None


def _defining_comment(package: str, name: str, value: object) -> tuple[list[str], str | None]:
    """The ``#:`` comment and the source of a constant, from the module that assigns it."""
    for modname in sorted(sys.modules):
        if not (modname == package or modname.startswith(package + ".")):
            continue
        module = sys.modules[modname]
        if vars(module).get(name) is not value:
            continue
        analyzer = ModuleAnalyzer.for_module(modname)
        comment = analyzer.find_attr_docs().get(("", name))
        if comment:
            for node in ast.parse(analyzer.code).body:
                target = node.target if isinstance(node, ast.AnnAssign) else None
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target = node.targets[0]
                if isinstance(target, ast.Name) and target.id == name and node.value:
                    return list(comment), ast.get_source_segment(analyzer.code, node.value)
            return list(comment), None
    return [], None


class PackageConstants(SphinxDirective):
    """``.. package-constants:: toolparse``: every constant and type alias in ``__all__``.

    autodoc renders a module-level value only where a ``#:`` comment documents it; a package
    that re-exports one has no comment of its own, so its entry is written from the comment in
    the module that defines it.
    """

    required_arguments = 1

    def run(self) -> list[Any]:
        package = self.arguments[0]
        module = importlib.import_module(package)
        lines: list[str] = []
        for name in module.__all__:
            value = getattr(module, name)
            if name.startswith("__") or inspect.isclass(value) or inspect.isroutine(value):
                continue  # autodoc renders classes and functions; dunders are not API
            comment, source = _defining_comment(package, name, value)
            lines += [f".. py:data:: {name}", f"   :module: {package}", ""]
            lines += [f"   {line}" for line in comment]
            if source and "(" not in source:  # a type alias: show what it stands for
                lines += ["", f"   An alias of ``{source}``."]
            lines.append("")
        return self.parse_text_to_nodes("\n".join(lines))


def _project_value(target: str, module: str | None) -> object:
    """The object a reference names, looked up in the project's loaded modules."""
    if "." in target:
        modname, _, attr = target.rpartition(".")
        found = sys.modules.get(modname)
        return vars(found).get(attr) if found is not None else None
    for modname in [module or "", *sorted(sys.modules)]:
        found = sys.modules.get(modname)
        if found is not None and modname.split(".")[0].startswith(TOP) and target in vars(found):
            return vars(found)[target]
    return None


def _is_type_alias(value: object) -> bool:
    if isinstance(value, (TypeVar, types.UnionType)):
        return True
    return typing.get_origin(value) in (typing.Literal, typing.Union)


def _resolve_in_context(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Resolve what the Python domain's exact lookup misses, and nothing else.

    Two cases, both inside the project: a short name written in a docstring (``POLICIES``,
    ``ToolCall.kind``) whose object is documented under another module (the top-level
    package) resolves to the one documented object of that name, as a ``.name`` reference
    would; a type variable, a type alias or a private class in a signature (``T``,
    ``ProblemKind``, ``_Recording``) has no entry of its own and is shown as written, without
    a link. A name that is ambiguous, or names nothing in the project, still warns.
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    if not node.get("refspecific"):
        retry = node.deepcopy()
        retry["refspecific"] = True
        domain = env.domains["py"]
        found = domain.resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], target, retry, contnode
        )
        if found is not None:
            return found
    value = _project_value(target, node.get("py:module"))
    if _is_type_alias(value):
        return contnode
    if value is not None and target.rpartition(".")[2].startswith("_"):
        return contnode  # a private class in a signature: private names have no entry
    return None


def setup(app: Any) -> None:
    app.add_directive("package-constants", PackageConstants)
    app.connect("builder-inited", _materialise_lazy_exports)
    app.connect("autodoc-skip-member", _skip_reexports)
    app.connect("missing-reference", _resolve_in_context)
