"""``Function``: a tool definition, and its execution with every failure caught."""

from __future__ import annotations

import copy
import inspect
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .. import messages
from .._nulls import null_restorer
from ..adapter import (
    Adapter,
    UnknownArguments,
    accepted_names,
    install_hint,
    required_names,
)
from ..arguments import DEFAULT_LIMITS, ArgumentKeyError, Arguments, Limits, decode, recursion_error
from ..contract import Error, Interrupt, Ok, Outcome, ParseResult, ToolError
from ..errors import FunctionDefinitionError, NoAdapterError
from ..params import FunctionParam
from ..problems import ArgumentProblem, InvalidArguments, invalid_arguments
from ..results import ContentPart
from ._callables import _arity, _is_async, _run_sync
from ._resolution import _resolve

if TYPE_CHECKING:
    from ..plugins import PluginManager

__all__ = ["Function", "get_display_text"]

_POLICIES = ("report", "reject", "ignore")
_new = tuple.__new__  # builds an Ok without its Python-level __new__ (hot path)
_JSON_SCALARS = (int, float, bool, type(None))


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
        "_accepted_set",
        "_adapter",
        "_all",
        "_async",
        "_body_arity",
        "_fast",
        "_fastparse",
        "_guard",
        "_nulls",
        "_open",
        "_parse",
        "_parser",
        "_parser_arity",
        "_pm",
        "_pre",
        "_required",
        "_required_set",
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
    _required_set: frozenset[str]
    _accepted: tuple[str, ...]
    _accepted_set: frozenset[str]
    _body_arity: int
    _parser: Callable[..., Any] | None
    _parser_arity: int
    _parse: str
    _async: bool
    _nulls: Callable[[dict[str, Any]], dict[str, Any]] | None
    _open: bool
    _all: frozenset[str] | None
    _fast: bool
    _fastparse: bool
    _guard: frozenset[str] | None
    _pre: bool

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
        errors: list[tuple[str, str]] = []
        params = tuple(parameters or ())
        if not isinstance(name, str) or not name.strip():
            errors.append(("name", "can't be blank"))
        elif len(name) > 64:
            errors.append(("name", f"should be at most 64 character(s), has {len(name)}"))
        for field, value in (("description", description), ("display_text", display_text)):
            if value is not None and not isinstance(value, str):
                errors.append((field, f"must be a string, got {type(value).__name__}"))
        for field, flag in (
            ("concurrent", concurrent),
            ("strict", strict),
            ("return_direct", return_direct),
        ):
            if not isinstance(flag, bool):
                errors.append((field, f"must be True or False, got {flag!r:.40}"))
        if unknown_arguments not in _POLICIES:
            errors.append(
                (
                    "unknown_arguments",
                    f"must be one of {', '.join(map(repr, _POLICIES))}, got {unknown_arguments!r:.40}",
                )
            )
        if options is not None and not isinstance(options, Mapping):
            errors.append(("options", "must be a mapping"))
        for i, p in enumerate(params):
            if not isinstance(p, FunctionParam):
                errors.append((f"parameters[{i}]", f"expected a FunctionParam, got {p!r:.60}"))
        if parameters_schema is not None and not isinstance(parameters_schema, Mapping):
            errors.append(("parameters_schema", "must be a JSON Schema dict"))
        styles = [
            n
            for n, v in (
                ("parameters", params),
                ("parameters_schema", parameters_schema),
                ("args_schema", args_schema),
            )
            if v is not None and v != ()
        ]
        if len(styles) > 1:
            errors.append(
                (
                    styles[1],
                    f"cannot use both {styles[0]} and {styles[1]}; declare the arguments one way",
                )
            )
        body_arity = _arity(function, "function", errors)
        parser_arity = 0 if parse_args is None else _arity(parse_args, "parse_args", errors)

        pm = plugin_manager
        pinned = adapter
        chosen: Adapter | None = None
        schema: dict[str, Any] | None = None
        parser: Callable[..., Any] | None = None
        if pinned is not None and args_schema is None:
            errors.append(("adapter", "is only used with args_schema"))
        if args_schema is not None and len(styles) == 1:
            if pm is None:
                from ..plugins import plugin_manager as default_pm

                pm = default_pm()
            found = _resolve(pm, args_schema, unknown_arguments, parse_args is None, errors, pinned)
            if found is not None:
                chosen, compiled = found
                schema, parser = compiled.schema, compiled.parser
        if errors:
            subject = f"tool {name!r}"
            if any(msg.startswith("no installed adapter") for _, msg in errors):
                raise NoAdapterError(
                    args_schema, install_hint(args_schema), errors=errors, subject=subject
                )
            raise FunctionDefinitionError(errors, subject=subject)

        if chosen is None:
            if params:
                schema = FunctionParam.to_parameters_schema(params)
            elif parameters_schema is not None:
                schema = copy.deepcopy(dict(parameters_schema))
            else:
                schema = {"type": "object", "properties": {}}
        assert schema is not None
        if unknown_arguments == "reject" and isinstance(schema.get("properties"), Mapping):
            schema["additionalProperties"] = False

        if params:
            required = FunctionParam.required_properties(params)
            accepted = list(dict.fromkeys(p.name for p in params))
        else:
            required = required_names(schema)
            # declaration order for models; a raw schema's names are sorted
            accepted = accepted_names(
                schema, sort=chosen is None or isinstance(args_schema, Mapping)
            )

        set_ = object.__setattr__
        assignments: tuple[tuple[str, Any], ...] = (
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
            ("limits", limits or DEFAULT_LIMITS),
            ("_pm", pm),
            ("_adapter", chosen),
            ("_schema", schema),
            ("_required", tuple(required)),
            ("_required_set", frozenset(required)),
            ("_accepted", tuple(accepted)),
            ("_accepted_set", frozenset(accepted)),
            ("_body_arity", body_arity),
            ("_parser", parse_args if parse_args is not None else parser),
            (
                "_parser_arity",
                parser_arity
                if parse_args is not None
                else (0 if parser is None else _arity(parser, "parser", [])),
            ),
            # the policy applies around an adapter's parser, never around yours
            (
                "_parse",
                "user"
                if parse_args is not None
                else ("adapter" if parser is not None else "check"),
            ),
            (
                "_async",
                _is_async(function) or _is_async(parse_args if parse_args is not None else parser),
            ),
            # strict exports make optional properties nullable: drop those nulls again
            ("_nulls", null_restorer(schema) if strict else None),
        )
        for field, value in assignments:
            set_(self, field, value)
        set_(self, "_open", not self._accepted_set)
        set_(self, "_all", self._accepted_set or None)
        # work around the parser only where there is some: nulls to restore,
        # the required-key check, names to drop, or a policy to merge
        set_(
            self,
            "_pre",
            self._nulls is not None
            or self._parse == "check"
            or (self._parse == "adapter" and unknown_arguments == "ignore"),
        )
        # the names an adapter's accepted parse must stay within (None: no
        # policy to apply around the parser, e.g. your own parse_args)
        set_(
            self,
            "_guard",
            self._accepted_set if self._parse == "adapter" and self._accepted else None,
        )
        set_(
            self,
            "_fastparse",
            self._parse != "check" and not self._async and not self._pre,
        )
        set_(
            self,
            "_fast",
            self._parse == "check" and not self._async and self._nulls is None,
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Function is immutable")

    def __repr__(self) -> str:
        return f"Function({self.name!r})"

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

    # -- parsing --------------------------------------------------------------

    def parse_arguments(self, arguments: object = None, context: Any = None) -> ParseResult:
        """Run exactly what :meth:`execute` runs before the body, without the body.

        Returns ``Ok(parsed)`` (the value the body would receive) or ``Error``.
        """
        args = decode(arguments, self.name, self.limits)
        if isinstance(args, Error):
            return args
        if self._async:
            return _run_sync(self._aparse(args, context))  # type: ignore[no-any-return]
        return self._parse_sync(args, context)

    async def aparse_arguments(self, arguments: object = None, context: Any = None) -> ParseResult:
        """:meth:`parse_arguments` for async code and ``async def`` parsers."""
        args = decode(arguments, self.name, self.limits)
        if isinstance(args, Error):
            return args
        return await self._aparse(args, context)

    def _before(self, args: dict[str, Any]) -> dict[str, Any] | Error:
        """The checks that run before any parser: nulls, required keys, policy."""
        if self._nulls is not None:
            args = self._nulls(args)
        mode = self._parse
        if mode == "user":
            return args
        accepted = self._accepted_set
        if mode == "check":
            if self._required and not self._required_set.issubset(args):
                return self._missing(args)
            if accepted and not accepted.issuperset(args):
                return self._unknown(args)
            return args
        if accepted and self.unknown_arguments == "ignore" and not accepted.issuperset(args):
            args = {k: v for k, v in args.items() if k in accepted}
        return args

    def _missing(self, args: Mapping[str, Any]) -> Error:
        found = messages.suggestions(
            messages.unrecognized_names(args, self._accepted), self._accepted, args
        )
        missing = [n for n in self._required if n not in args]
        return Error(messages.missing_required(self._required, missing, found, self._accepted))

    def _flagged(self, args: Mapping[str, Any]) -> dict[str, str | None]:
        """Unknown names the policy turns into a rejection (empty: none)."""
        unknown = messages.unrecognized_names(args, self._accepted)
        if not unknown or self.unknown_arguments == "ignore":
            return {}
        found = messages.suggestions(unknown, self._accepted, args)
        if self.unknown_arguments == "reject" or any(v is not None for v in found.values()):
            return found
        return {}

    def _unknown(self, args: dict[str, Any]) -> dict[str, Any] | Error:
        if self.unknown_arguments == "ignore":
            return {k: v for k, v in args.items() if k in self._accepted_set}
        found = self._flagged(args)
        if found:
            return Error(messages.unrecognized_only(found, self._accepted))
        return args

    def _after(self, result: object, args: dict[str, Any]) -> ParseResult:
        """Check a parser's result; merge the unknown-name policy into it."""
        kind = type(result)
        outcome: ParseResult
        if kind is Ok:
            outcome = result if result[0] is not None else _new(Ok, (args, None))  # type: ignore[index, assignment]
        elif kind is Error:
            message = result[0]  # type: ignore[index]
            outcome = result if isinstance(message, str) else Error(repr(message), result[1])  # type: ignore[assignment, index]
        else:
            return Error(f"parse_args returned unexpected shape: {result!r:.200}")
        guard = self._guard
        if guard is None or (kind is Ok and guard.issuperset(args)):
            return outcome
        return self._merge_policy(outcome, args)

    def _merge_policy(self, outcome: ParseResult, args: dict[str, Any]) -> ParseResult:
        """Add the unknown names the policy speaks of to an adapter's result, as one Error.

        A rejected call names every unknown name (so the model learns them all
        at once); an accepted one is rejected only for the names the policy
        flags (a likely typo under "report", any name under "reject").
        """
        problems: list[ArgumentProblem] = []
        cause: BaseException | None = None
        if type(outcome) is Error:
            exc = outcome[1]
            if not isinstance(exc, InvalidArguments):
                return outcome  # an adapter's plain error: nothing to merge into
            problems.extend(exc.problems)
            cause = exc.__cause__
            names: Iterable[str] = (
                []
                if self.unknown_arguments == "ignore"
                else messages.unrecognized_names(args, self._accepted)
            )
        else:
            names = self._flagged(args)
            if not names:
                return outcome
        known = {p.path[0] for p in problems if p.kind == "unrecognized" and len(p.path) == 1}
        new = [ArgumentProblem.unrecognized(n) for n in names if n not in known]
        if not new and type(outcome) is Error and outcome[1].accepted == self._accepted:
            return outcome  # the adapter already said it all: no second rendering
        return invalid_arguments(
            [*problems, *new], arguments=args, accepted=self._accepted, cause=cause
        )

    def _parse_sync(self, args: dict[str, Any], context: Any) -> ParseResult:
        if self._pre:
            checked = self._before(args)
            if type(checked) is Error:
                return checked
            args = checked  # type: ignore[assignment]
        if self._parser is None:
            return _new(Ok, (args, None))
        try:
            if self._parser_arity == 2:
                result = self._parser(args, context)
            else:
                result = self._parser(args)
        except Exception as exc:
            return self._parser_failed(exc, args)
        return self._after(result, args)

    async def _aparse(self, args: dict[str, Any], context: Any) -> ParseResult:
        checked = self._before(args)
        if type(checked) is Error:
            return checked
        if self._parser is None:
            return Ok(checked)
        try:
            if self._parser_arity == 2:
                result = self._parser(checked, context)
            else:
                result = self._parser(checked)
            if inspect.isawaitable(result):
                result = await result
        except Exception as exc:
            return self._parser_failed(exc, args)
        return self._after(result, checked)  # type: ignore[arg-type]

    # -- execution ------------------------------------------------------------

    def execute(self, arguments: object = None, context: Any = None) -> Outcome:
        """Parse the arguments, run the body, and return what the model reads.

        Never raises for anything the model or the tool did: every failure is
        an :class:`~toolparse.Error`. ``async def`` bodies and parsers run to
        completion here too (in a private event loop).
        """
        # the hot path (no parser, a sync body, a dict of known names): the
        # required-key check, the policy, the body, in as few steps as we can
        if (
            self._fast
            and type(arguments) is dict
            and (
                # every accepted name sent, no other: one comparison says it all
                arguments.keys() == self._all
                or (
                    self._required_set.issubset(arguments)
                    and (self._open or self._accepted_set.issuperset(arguments))
                )
            )
        ):
            args = Arguments(arguments)
            try:
                result = (
                    self.function(args, context) if self._body_arity == 2 else self.function(args)
                )
            except Exception as exc:
                return self._rescue(exc, args)
            if type(result) is str:
                return _new(Ok, (result, None))
            if inspect.isawaitable(result):
                return _run_sync(self._finish(result, args))  # type: ignore[no-any-return]
            return self._outcome(result)
        if self._fastparse and type(arguments) is dict:
            # the parser's hot path: a sync parser and body, a dict as sent,
            # the steps of _parse_sync, _after and _call inlined
            try:
                if self._parser_arity == 2:
                    result = self._parser(arguments, context)  # type: ignore[misc]
                else:
                    result = self._parser(arguments)  # type: ignore[misc]
            except Exception as exc:
                return self._parser_failed(exc, arguments)
            guard = self._guard
            if type(result) is Ok and (guard is None or guard.issuperset(arguments)):
                value = result[0]
                if value is None:
                    value = arguments
                try:
                    if self._body_arity == 2:
                        body = self.function(value, context)
                    else:
                        body = self.function(value)
                except Exception as exc:
                    return self._rescue(exc, value)
                if type(body) is str:
                    return _new(Ok, (body, None))
                if inspect.isawaitable(body):
                    return _run_sync(self._finish(body, value))  # type: ignore[no-any-return]
                return self._outcome(body)
            checked = self._after(result, arguments)
            if type(checked) is Error:
                return checked
            called = self._call(checked[0], context)
            if not isinstance(called, tuple):
                called = _run_sync(self._finish(called, None))
            return called  # type: ignore[no-any-return]
        if self._async:
            return _run_sync(self.aexecute(arguments, context))  # type: ignore[no-any-return]
        decoded = decode(arguments, self.name, self.limits)
        outcome: Outcome
        if isinstance(decoded, Error):
            outcome = decoded
        elif self._parse == "check":
            before = self._before(decoded)
            if isinstance(before, Error):
                outcome = before
            else:
                outcome = self._call(Arguments(before), context)
        else:
            parsed = self._parse_sync(decoded, context)
            outcome = parsed if type(parsed) is Error else self._call(parsed[0], context)
        if not isinstance(outcome, tuple):
            # a sync callable that returned an awaitable (a partial of an async def)
            outcome = _run_sync(self._finish(outcome, None))
        return outcome

    async def aexecute(self, arguments: object = None, context: Any = None) -> Outcome:
        """:meth:`execute` for async code: awaits ``async def`` bodies and parsers."""
        args = decode(arguments, self.name, self.limits)
        if type(args) is Error:
            outcome: Outcome = args
        else:
            parsed = await self._aparse(args, context)  # type: ignore[arg-type]
            if type(parsed) is Error:
                outcome = parsed
            else:
                value = parsed.value  # type: ignore[union-attr]
                if self._parse == "check":
                    value = Arguments(value)
                outcome = self._call(value, context)
                if inspect.isawaitable(outcome):
                    outcome = await self._finish(outcome, value)
        return outcome

    def _call(self, value: Any, context: Any) -> Any:
        """Run the body; an awaitable comes back as is for :meth:`aexecute`."""
        try:
            result = (
                self.function(value, context) if self._body_arity == 2 else self.function(value)
            )
        except Exception as exc:
            return self._rescue(exc, value)
        if type(result) is str:
            return _new(Ok, (result, None))
        if inspect.isawaitable(result):
            return result
        return self._outcome(result)

    async def _finish(self, awaitable: Awaitable[Any], value: Any) -> Outcome:
        try:
            result = await awaitable
        except Exception as exc:
            return self._rescue(exc, value)
        return self._outcome(result)

    def _rescue(self, exc: Exception, value: Any) -> Error:
        if isinstance(exc, ToolError):
            return Error(exc.message, exc)
        if (
            isinstance(exc, ArgumentKeyError)
            and exc.arguments is value
            and self._parse == "check"
            and self._accepted
        ):
            return Error(messages.key_error(exc.key, value, self._accepted), exc)
        return Error(self._exception_text(exc), exc)

    def _parser_failed(self, exc: Exception, arguments: dict[str, Any]) -> Error:
        """A parser raised: too-deep arguments say so; anything else is rescued."""
        if isinstance(exc, RecursionError):
            text = recursion_error(self.name, arguments, self.limits)
            if text is not None:
                return Error(text, exc)
        return Error(self._exception_text(exc), exc)

    def _exception_text(self, exc: BaseException) -> str:
        if self._pm is not None and self._pm.hook.toolparse_format_exception.get_hookimpls():
            text = self._pm.hook.toolparse_format_exception(exception=exc, function=self)
            if text is not None:
                return str(text)
        return messages.exception(exc)

    def _outcome(self, result: Any) -> Outcome:
        """Normalise what a body returned into the result vocabulary."""
        kind = type(result)
        if kind is str:
            return Ok(result)
        if kind is Ok:
            content = self._content(result.value)
            if type(content) is Error:
                return content
            if content is result.value:
                return result  # type: ignore[no-any-return]
            return Ok(content, result.processed_content)
        if kind is Error:
            message = result.message
            return result if isinstance(message, str) else Error(repr(message), result.exception)
        if kind is Interrupt:
            if isinstance(result.display, str):
                return result  # type: ignore[no-any-return]
            return Error(messages.UNEXPECTED_RESPONSE)
        content = self._content(result)
        return content if type(content) is Error else Ok(content)

    def _content(self, value: Any) -> Any:
        """Content the model can read: text, parts, a ToolResult, or JSON text."""
        if isinstance(value, str):
            return value
        from ..results import ToolResult

        if isinstance(value, ToolResult):
            return value
        if isinstance(value, list) and value and all(isinstance(p, ContentPart) for p in value):
            return value
        if isinstance(value, (dict, list, tuple, *_JSON_SCALARS)):
            try:
                return json.dumps(value, ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError, RecursionError):
                pass
        if self._pm is not None:
            text = self._pm.serialize(value)
        else:
            from ..plugins import plugin_manager

            text = plugin_manager().serialize(value)
        if text is not None:
            return text
        return Error(messages.UNEXPECTED_RESPONSE)


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
