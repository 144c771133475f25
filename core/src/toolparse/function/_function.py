"""``Function``: a tool definition, and its execution with every failure caught.

The definition is checked and resolved once (``_declaration``); the steps a
call goes through are chosen once into a plan (``_plan``), which ``execute``,
``aexecute``, ``parse_arguments`` and ``aparse_arguments`` run. The plugin
manager is taken here, at the edge (the one given, else the default), and
handed to everything that asks a hook.
"""

from __future__ import annotations

import copy
import functools
import importlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._repair import DEFAULT, Repair
from ..adapter import Adapter, UnknownArguments
from ..arguments import DEFAULT_LIMITS, Limits
from ..contract import Outcome, ParseResult
from ..params import FunctionParam
from . import _tracing
from ._callables import arity, bound_names, run_sync
from ._declaration import declare, field_errors, source_description, without_bound
from ._plan import OUTCOMES, Plan

if TYPE_CHECKING:
    from ..plugins import PluginManager

__all__ = ["Function", "get_display_text"]

#: the definition fields, as ``Function(...)`` takes them (and ``replace`` changes them)
_FIELDS = (
    "name",
    "function",
    "description",
    "parameters",
    "parameters_schema",
    "args_schema",
    "parse_args",
    "concurrent",
    "strict",
    "display_text",
    "options",
    "unknown_arguments",
    "return_direct",
    "repair",
    "limits",
    "plugin_manager",
    "adapter",
)


class Function:
    """A tool: its definition for the model, and its execution.

    See the API reference for every parameter. A ``Function`` is immutable;
    every definition field is readable as an attribute of the same name. A
    broken definition raises :class:`~toolparse.FunctionDefinitionError` naming
    every problem.

    :param name: the tool name the model calls (1 to 128 characters; a provider
        that allows fewer gets an alias).
    :param function: the body, ``function(arguments)`` or
        ``function(arguments, context)``, sync or ``async def``.
    :param description: what the tool does, for the model.
    :param parameters: a list of :class:`~toolparse.FunctionParam`.
    :param parameters_schema: a raw JSON Schema dict, declared only: execution
        checks the required keys, nothing else.
    :param args_schema: any model an installed adapter recognises; the adapter
        supplies the JSON Schema and the parser.
    :param parse_args: your own parser (replaces any built-in check).
    :param concurrent: may run concurrently with other calls.
    :param strict: ask providers for strict mode.
    :param display_text: text for a user interface.
    :param options: provider options, e.g. ``{"cache_control": True}``.
    :param unknown_arguments: ``"report"``, ``"reject"`` or ``"ignore"``.
    :param return_direct: an agent loop should stop after this tool.
    :param repair: ``"safe"`` (the default) decodes an object or an array the
        model sent as JSON text where the schema wants one; ``"json"`` also
        repairs malformed JSON argument text (``toolparse[repair]``); ``None``
        reads the arguments exactly as sent.
    :param limits: the size and depth limits for arguments.
    :param plugin_manager: the plugin manager to resolve ``args_schema`` with
        (default: :func:`toolparse.plugin_manager`).
    :param adapter: use this adapter (a registered name, or an adapter object)
        for ``args_schema`` instead of choosing one; for a source more than one
        installed adapter accepts, e.g. a dataclass validated with cattrs.
    """

    __slots__ = (
        *_FIELDS[:-2],  # (the plugin manager is kept as ``_pm``; ``adapter`` is a property)
        "_accepted",
        "_adapter",
        "_async",
        "_async_parser",
        "_call",
        "_given",
        "_parse",
        "_plan_",
        "_pm",
        "_required",
        "_run",
        "_schema",
    )

    name: str
    function: Callable[..., Any]
    description: str | None
    parameters: tuple[FunctionParam, ...]
    parameters_schema: Mapping[str, Any] | None
    args_schema: Any
    parse_args: Callable[..., Any] | None
    concurrent: bool
    strict: bool
    display_text: str | None
    options: Mapping[str, Any] | None
    unknown_arguments: UnknownArguments
    return_direct: bool
    repair: Repair | None
    limits: Limits
    _pm: PluginManager
    _adapter: Adapter | None
    _schema: dict[str, Any]
    _required: tuple[str, ...]
    _accepted: tuple[str, ...]
    _async: bool
    _async_parser: bool
    _given: dict[str, Any]
    #: the body step, for callers that parse first and run the body elsewhere
    #: (a worker thread): ``_call(value, context)`` gives an outcome, or, for
    #: an async body, a coroutine of it
    _call: Callable[[Any, Any], Any]
    _plan_: Plan
    #: the plan's steps, to the outcome and to the parsed value
    _run: Callable[[Any, Any], Any]
    _parse: Callable[[Any, Any], Any]

    def __init__(  # noqa: PLR0913 - the keyword arguments API.md fixes
        self,
        name: str,
        function: Callable[..., Any],
        *,
        description: str | None = None,
        parameters: Iterable[FunctionParam] = (),
        parameters_schema: Mapping[str, Any] | None = None,
        args_schema: Any = None,
        parse_args: Callable[..., Any] | None = None,
        concurrent: bool = False,
        strict: bool = False,
        display_text: str | None = None,
        options: Mapping[str, Any] | None = None,
        unknown_arguments: UnknownArguments = "report",
        return_direct: bool = False,
        repair: Repair | None = DEFAULT,
        limits: Limits | None = None,
        plugin_manager: PluginManager | None = None,
        adapter: str | Adapter | None = None,
    ) -> None:
        # the arguments as given, before any other local is bound (``_FIELDS`` names them)
        values = locals()
        given: dict[str, Any] = {field: values[field] for field in _FIELDS}
        given["parameters"] = tuple(parameters or ())
        errors, styles = field_errors(given)
        body_arity = arity(function, "function", errors)
        parser_arity = 0 if parse_args is None else arity(parse_args, "parse_args", errors)
        pm = plugin_manager
        if pm is None:
            # the edge where the default manager is taken: plugins (and pluggy)
            # load with the first Function, not with ``import toolparse``
            from ..plugins import plugin_manager as default_manager

            pm = default_manager()
        found = declare(given, styles, pm, errors)
        without_bound(found, bound_names(function))
        if description is None and (args_schema is not None or parameters_schema is not None):
            description = source_description(found.schema)
        set_ = object.__setattr__
        for field in _FIELDS[:-2]:
            set_(self, field, given[field])
        set_(self, "description", description)
        set_(self, "repair", None if repair is None else str(repair))
        set_(self, "limits", limits or DEFAULT_LIMITS)
        set_(self, "_given", given)
        set_(self, "_pm", pm)
        set_(self, "_adapter", found.adapter)
        set_(self, "_schema", found.schema)
        set_(self, "_required", found.required)
        set_(self, "_accepted", found.accepted)
        plan = Plan(self, found, body_arity, parser_arity)
        set_(self, "_async", plan.parser_async or plan.body_async)
        set_(self, "_async_parser", plan.parser_async)
        set_(self, "_plan_", plan)
        set_(self, "_run", plan.steps)
        set_(self, "_parse", functools.partial(plan.steps, body=False))
        set_(self, "_call", plan.call)

    def __reduce__(self) -> tuple[Any, ...]:
        # a module-level tool goes as its name, as pickle sends a function: no body, no schema
        where = _module_attribute(self)
        if where is not None:
            return (_attribute, where)
        # else the definition as it was given: the plan and everything compiled from
        # it are rebuilt on load (a description taken from the source, the adapter
        # chosen for it, are chosen again by a Function defined from those fields)
        given = dict(self._given)
        from ..plugins import plugin_manager  # loaded: this Function took the default or one given

        if given["plugin_manager"] is plugin_manager():
            given["plugin_manager"] = None  # hooks and locks stay here: looked up again on load
        chosen = self._adapter
        name = chosen.name if chosen is not None else ""
        if given["adapter"] is chosen and name and self._pm.adapter(name) is chosen:
            given["adapter"] = name  # a registered one, found again by name
        return (functools.partial(Function, **given), ())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Function is immutable")

    def __repr__(self) -> str:
        return f"Function({self.name!r})"

    def replace(self, **changes: Any) -> Function:
        """A new Function with the given definition fields changed, e.g. ``fn.replace(name="x")``.

        Takes the keywords of ``Function(...)``; the rest stay as they are. A
        description this Function took from its source is taken again from
        the new one.
        """
        unknown = sorted(set(changes) - set(_FIELDS))
        if unknown:
            raise TypeError(f"replace() got unexpected field(s): {', '.join(unknown)}")
        return Function(**{**self._given, **changes})

    # -- introspection --------------------------------------------------------

    @property
    def adapter(self) -> Adapter | None:
        """The adapter that resolved ``args_schema`` (``None`` without one)."""
        return self._adapter

    def json_schema(self) -> dict[str, Any]:
        """The parameters JSON Schema (built once; this returns a copy)."""
        return copy.deepcopy(self._schema)

    def required_param_names(self) -> list[str]:
        """Required top-level names, in declaration order."""
        return list(self._required)

    def accepted_param_names(self) -> list[str]:
        """Every top-level name; ``[]`` means unknown, not "accepts nothing"."""
        return list(self._accepted)

    # -- running the plan -------------------------------------------------------

    def parse_arguments(self, arguments: object = None, context: Any = None) -> ParseResult:
        """Run exactly what :meth:`execute` runs before the body, without the body.

        Returns ``Ok(parsed)`` (the value the body would receive) or ``Error``.
        """
        if self._async_parser:
            parsed: ParseResult = run_sync(self._plan_.aparse(arguments, context))
        else:
            parsed = self._parse(arguments, context)
        if _tracing.tracer is not None:  # (traced: the call's span hears of a rejection)
            _tracing.parsed(self, parsed)
        return parsed

    async def aparse_arguments(self, arguments: object = None, context: Any = None) -> ParseResult:
        """:meth:`parse_arguments` for async code and ``async def`` parsers."""
        parsed = await self._plan_.aparse(arguments, context)
        if _tracing.tracer is not None:
            _tracing.parsed(self, parsed)
        return parsed

    def execute(self, arguments: object = None, context: Any = None) -> Outcome:
        """Parse the arguments, run the body, and return what the model reads.

        Never raises for anything the model or the tool did: every failure is
        an :class:`~toolparse.Error`. ``async def`` bodies and parsers run to
        completion here too (in a private event loop).
        """
        if _tracing.tracer is not None:  # (traced: ``toolparse.otel`` is on)
            return _tracing.execute(self, arguments, context)
        if self._async:
            return run_sync(self._plan_.arun(arguments, context))  # type: ignore[no-any-return]
        out = self._run(arguments, context)
        if type(out) in OUTCOMES:
            return out  # type: ignore[no-any-return]
        return run_sync(out)  # type: ignore[no-any-return]  # an async body's outcome

    async def aexecute(self, arguments: object = None, context: Any = None) -> Outcome:
        """:meth:`execute` for async code: awaits ``async def`` bodies and parsers."""
        if _tracing.tracer is not None:  # (traced: ``toolparse.otel`` is on)
            return await _tracing.aexecute(self, arguments, context)
        return await self._plan_.arun(arguments, context)


def _module_attribute(fn: Function) -> tuple[str, str] | None:
    """``(module, name)`` when the module of ``fn``'s body holds ``fn`` (as ``@tool`` leaves it).

    ``__main__`` and a module cloudpickle was told to send by value are not references
    another process could follow: their tools go by value.
    """
    module = getattr(fn.function, "__module__", None)
    found = sys.modules.get(module) if isinstance(module, str) else None
    if found is None or found.__name__ == "__main__":
        return None
    name: str = found.__name__
    cloudpickle = sys.modules.get("cloudpickle")
    by_value = cloudpickle.list_registry_pickle_by_value() if cloudpickle is not None else ()
    if any(name == m or name.startswith(f"{m}.") for m in by_value):
        return None
    path = next((k for k, v in vars(found).items() if v is fn), None)
    return None if path is None else (name, path)


def _attribute(module: str, name: str) -> Any:
    """What a reference pickled by :class:`Function` loads: ``module.name``."""
    return getattr(importlib.import_module(module), name)


def get_display_text(
    functions: Sequence[Function], name: str, fallback: str | None = "Perform action"
) -> str | None:
    """The ``display_text`` of the first function called ``name``.

    ``fallback`` when no function has that name, or when the one found has no
    ``display_text`` (the Elixir original returned ``None`` there, which
    leaves a user interface with nothing to show).
    """
    for fn in functions:
        if fn.name == name:
            return fn.display_text if fn.display_text is not None else fallback
    return fallback
