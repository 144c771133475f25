"""``Function``: a tool definition, and its execution with every failure caught.

The definition is checked and resolved once (``_definition``); the steps a
call goes through are chosen and composed once into a plan (``_plan``), which
``execute``, ``aexecute``, ``parse_arguments`` and ``aparse_arguments`` run.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..adapter import Adapter, UnknownArguments
from ..arguments import DEFAULT_LIMITS, Limits
from ..contract import Outcome, ParseResult
from ..params import FunctionParam
from ._callables import _arity, _is_async, bound_names
from ._definition import (
    Declaration,
    declare,
    field_errors,
    source_description,
    without_bound,
)
from ._outcome import Outcomes
from ._plan import compile_plan
from ._policy import Policy
from ._shared import Keyed, checker, params_key, quick_tests, shared_checker

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

    :param name: the tool name the model calls (1 to 64 characters).
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
    :param limits: the size and depth limits for arguments.
    :param plugin_manager: the plugin manager to resolve ``args_schema`` with
        (default: :func:`toolparse.plugin_manager`).
    :param adapter: use this adapter (a registered name, or an adapter object)
        for ``args_schema`` instead of choosing one; for a source more than one
        installed adapter accepts, e.g. a dataclass validated with cattrs.
    """

    __slots__ = (
        "_accepted",
        "_adapter",
        "_aparse",
        "_arun",
        "_async",
        "_call",
        "_finish",
        "_given",
        "_parse",
        "_pm",
        "_required",
        "_run",
        "_schema",
        "args_schema",
        "concurrent",
        "description",
        "display_text",
        "function",
        "limits",
        "name",
        "options",
        "parameters",
        "parameters_schema",
        "parse_args",
        "return_direct",
        "strict",
        "unknown_arguments",
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
    limits: Limits
    _pm: PluginManager | None
    _adapter: Adapter | None
    _schema: dict[str, Any]
    _required: tuple[str, ...]
    _accepted: tuple[str, ...]
    _async: bool
    _given: dict[str, Any]
    #: the body step, for callers that parse first and run the body elsewhere
    #: (a worker thread): ``_call(value, context)`` gives an outcome, or an
    #: awaitable to pass to ``_finish(awaitable, value, context)``
    _call: Callable[[Any, Any], Any]
    _finish: Callable[[Any, Any, Any], Any]
    _parse: Callable[[Any, Any], ParseResult]
    _aparse: Callable[[Any, Any], Any]
    _run: Callable[[Any, Any], Outcome]
    _arun: Callable[[Any, Any], Any]

    def __init__(
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
        limits: Limits | None = None,
        plugin_manager: PluginManager | None = None,
        adapter: str | Adapter | None = None,
    ) -> None:
        params = tuple(parameters or ())
        errors, styles = field_errors(
            name,
            description,
            display_text,
            {"concurrent": concurrent, "strict": strict, "return_direct": return_direct},
            unknown_arguments,
            options,
            params,
            parameters_schema,
            args_schema,
        )
        body_arity = _arity(function, "function", errors)
        parser_arity = 0 if parse_args is None else _arity(parse_args, "parse_args", errors)
        found = declare(
            name=name,
            params=params,
            parameters_schema=parameters_schema,
            args_schema=args_schema,
            styles=styles,
            unknown_arguments=unknown_arguments,
            want_parser=parse_args is None,
            pm=plugin_manager,
            pinned=adapter,
            errors=errors,
        )
        bound = bound_names(function)
        without_bound(found, bound)
        given = description
        if description is None and (args_schema is not None or parameters_schema is not None):
            description = source_description(found.schema)
        limits = limits or DEFAULT_LIMITS
        set_ = object.__setattr__
        for field, value in (
            ("name", name),
            ("function", function),
            ("description", description),
            ("parameters", params),
            ("parameters_schema", parameters_schema),
            ("args_schema", args_schema),
            ("parse_args", parse_args),
            ("concurrent", concurrent),
            ("strict", strict),
            ("display_text", display_text),
            ("options", options),
            ("unknown_arguments", unknown_arguments),
            ("return_direct", return_direct),
            ("limits", limits),
            ("_pm", found.pm),
            ("_adapter", found.adapter),
            ("_schema", found.schema),
            ("_required", found.required),
            ("_accepted", found.accepted),
            (
                "_given",
                {"description": given, "plugin_manager": plugin_manager, "adapter": adapter},
            ),
        ):
            set_(self, field, value)
        self._compile(body_arity, parser_arity, found)

    def _compile(
        self,
        body_arity: int,
        parser_arity: int,
        found: Declaration,
    ) -> None:
        """Choose the steps a call goes through, and compile them into the plan.

        ``found``: the declaration: the adapter's parser, the key of its
        compiled form, and what it says of that parser (its facts count only
        while that parser is the one that runs).
        """
        adapter_parser = found.parser
        declared = found.key
        parser = self.parse_args if self.parse_args is not None else adapter_parser
        if parser is adapter_parser and parser is not None:
            parser_arity = _arity(parser, "parser", [])
        parser_async = parser is not None and _is_async(parser)
        body_async = _is_async(self.function)
        # what the declared parameters mean, read once for both keys below
        shape = (
            params_key(self.parameters)
            if self.args_schema is None and self.parameters_schema is None
            else None
        )
        plan = compile_plan(
            name=self.name,
            limits=self.limits,
            schema=self._schema,
            policy=Policy(
                self.unknown_arguments, self._accepted, self._required, bound_names(self.function)
            ),
            parser=parser,
            parser_arity=parser_arity,
            # the policy applies around an adapter's parser (when its names are
            # known), never around yours
            guarded=self.parse_args is None and bool(self._accepted),
            # the "wrong argument name" message is for bodies given the arguments as sent
            outcomes=Outcomes(self, self._accepted if parser is None else ()),
            function=self.function,
            body_arity=body_arity,
            parser_async=parser_async,
            body_async=body_async,
            check_parameters=self._parameters_check(parser, shape),
            quick_tests=quick_tests(self.parameters, self._accepted) if parser is None else (),
            schema_key=declared
            if shape is None
            else (shape, self.unknown_arguments, self._accepted),
            nulls_after_reject=found.nulls_after_reject and parser is adapter_parser,
            verdict=found.verdict if parser is adapter_parser and not parser_async else None,
            closed=found.closed,
            explain=found.explain,
        )
        set_ = object.__setattr__
        set_(self, "_async", parser_async or body_async)
        set_(self, "_call", plan.call)
        set_(self, "_finish", plan.finish)
        set_(self, "_parse", plan.parse)
        set_(self, "_aparse", plan.aparse)
        set_(self, "_run", plan.run)
        set_(self, "_arun", plan.arun)

    def _parameters_check(
        self, parser: Callable[..., Any] | None, shape: Hashable | None
    ) -> Callable[[Any], Any] | None:
        """The check of declared ``parameters``' values (no parser), compiled once.

        ``shape``: what the parameters mean (see ``params_key``); with the
        accepted names and the policy it fully determines the check (and the
        schema, so it also keys what is built from that), so Functions of one
        declaration share it. ``None``: built for this Function alone.
        """
        if parser is not None or not self.parameters:
            return None
        accepted = set(self._accepted)
        params = tuple(p for p in self.parameters if p.name in accepted)  # bound names left out
        built = (params, self._accepted, self.unknown_arguments)
        if shape is None:
            return checker(Keyed(None, built))
        return shared_checker(Keyed((shape, self._accepted, self.unknown_arguments), built))

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
        # the fields as they were given (a description taken from the source,
        # the adapter chosen for it, are chosen again for the new definition)
        fields = {f: getattr(self, f) for f in _FIELDS if f not in self._given}
        fields.update(self._given)
        fields.update(changes)
        name = fields.pop("name")
        function = fields.pop("function")
        return Function(name, function, **fields)

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
        return self._parse(arguments, context)

    async def aparse_arguments(self, arguments: object = None, context: Any = None) -> ParseResult:
        """:meth:`parse_arguments` for async code and ``async def`` parsers."""
        return await self._aparse(arguments, context)  # type: ignore[no-any-return]

    def execute(self, arguments: object = None, context: Any = None) -> Outcome:
        """Parse the arguments, run the body, and return what the model reads.

        Never raises for anything the model or the tool did: every failure is
        an :class:`~toolparse.Error`. ``async def`` bodies and parsers run to
        completion here too (in a private event loop).
        """
        return self._run(arguments, context)

    async def aexecute(self, arguments: object = None, context: Any = None) -> Outcome:
        """:meth:`execute` for async code: awaits ``async def`` bodies and parsers."""
        return await self._arun(arguments, context)  # type: ignore[no-any-return]


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
