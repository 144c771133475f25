"""A checked JSON Schema with its validators, built once per tool."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema.exceptions import best_match  # jsonschema ships no type information

from toolparse import ArgumentProblem, FunctionDefinitionError, Ok, ParseResult, invalid_arguments
from toolparse.adapter import new_outcome
from toolparse.arguments import depth_over

from ._defaults import Plan, apply, plan
from ._errors import KEPT, kept_problems
from ._fast import FastUnavailable, FastValidator
from ._formats import format_checker
from ._patterns import Matcher, PatternRefused, bounded, schema_patterns
from ._refs import is_recursive
from ._rs_problems import RsProblems, explainable
from ._schema import Definition, check, path_text, without_false_subschemas
from ._source import JsonSchema

__all__ = ["CompiledSchema"]

#: the deepest value handed to jsonschema-rs under a recursive schema (it
#: crashed between 5,000 and 20,000 levels; worker threads have smaller stacks)
_FAST_MAX_DEPTH = 500

#: what jsonschema-rs raises for values it cannot convert (e.g. huge integers)
_CONVERSION_ERRORS = (ValueError, TypeError, OverflowError)


def _options(source: Mapping[str, Any]) -> tuple[Mapping[str, Any], bool, bool | None, Matcher]:
    if isinstance(source, JsonSchema):
        matcher = Matcher(source.pattern_timeout, source.pattern_budget)
        return source.schema, source.apply_defaults, source.fast, matcher
    return source, False, None, Matcher()


def _registry(definition: Definition, schema: dict[str, Any]) -> Any:
    """The definition's registry, with ``schema`` as the root resource instead."""
    resource = definition.dialect.specification.create_resource(schema)
    return definition.registry.with_resource(definition.base_uri, resource).crawl()


def _best_match(errors: list[Any]) -> Any:
    """``best_match(errors)``, the relevance reckoned only where it can win.

    The library ranks an error higher up in the instance (a shorter path)
    first, so only those of the shortest path are compared; one error with no
    sub-errors is its own best match.
    """
    if len(errors) > 1:
        shortest = min(len(e.path) for e in errors)
        errors = [e for e in errors if len(e.path) == shortest]
    if len(errors) == 1 and not errors[0].context:
        return errors[0]
    return best_match(errors)


class CompiledSchema:
    """A checked schema with its validators, built once per tool.

    :attr:`parse` is the tool's parser. :attr:`fast` is the ``jsonschema-rs``
    validator deciding validity, or ``None`` on the pure path.
    """

    __slots__ = (
        "accepted",
        "defaults",
        "definition",
        "fast",
        "matcher",
        "parse",
        "recursive",
        "rs_problems",
        "validator",
        "verdict",
    )

    def __init__(self, source: Mapping[str, Any], *, object_only: bool = True) -> None:
        schema, apply_defaults, fast, self.matcher = _options(source)
        definition = self.definition = check(schema, object_only=object_only)
        # every pattern compiled now: one that cannot be searched under the
        # time bound is refused here, never searched without it
        for where, pattern in schema_patterns(definition.schema):
            try:
                self.matcher.prepare(pattern)
            except PatternRefused as exc:
                raise FunctionDefinitionError([(path_text(where), str(exc))]) from None
        # the library's validator, its pattern keywords bounded in time
        cls = bounded(definition.dialect.validator)
        checker = format_checker(definition.dialect.validator)
        explained = without_false_subschemas(definition.schema, definition.dialect.specification)
        self.validator = cls(
            explained, registry=_registry(definition, explained), format_checker=checker
        )
        properties = definition.schema.get("properties")
        #: top-level names, sorted (the order the messages use for a raw schema);
        #: one tuple, so the renderer words its "Accepted parameters" line once
        self.accepted: tuple[str, ...] = (
            tuple(sorted(properties)) if isinstance(properties, dict) else ()
        )
        self.fast: FastValidator | None = None
        if fast is not False:
            try:
                self.fast = FastValidator(definition, frozenset(checker.checkers))
            except FastUnavailable as exc:
                if fast:
                    raise FunctionDefinitionError([("fast", str(exc))]) from exc
        self.defaults: Plan | None = None
        if apply_defaults:
            resolver = definition.registry.resolver(base_uri=definition.base_uri)
            self.defaults = plan(definition.schema, resolver)
        #: whether jsonschema-rs gets a depth check first (see _parser)
        self.recursive = self.fast is not None and is_recursive(definition)
        #: a fast-path rejection's problems from jsonschema-rs's errors (see _rs_problems)
        self.rs_problems: RsProblems | None = None
        if self.fast is not None and explainable(definition.schema):
            self.rs_problems = RsProblems(
                definition.schema, validator=self.validator, checker=checker, matcher=self.matcher
            )
        self.parse: Callable[[dict[str, Any]], ParseResult] = self._parser()
        #: jsonschema-rs's own ``is_valid``, where it alone decides a valid call
        #: and the parser then hands on the arguments as they are: no defaults
        #: to fill in, no depth walk first (a value it cannot take raises, and
        #: the parser decides that call)
        self.verdict: Callable[[Any], bool] | None = (
            self.fast.is_valid
            if self.fast is not None and not self.recursive and self.defaults is None
            else None
        )

    def _parser(self) -> Callable[[dict[str, Any]], ParseResult]:
        if self.fast is None:
            return self._pure_parser()
        explain = self.explain
        rejected = self.rejected
        is_valid: Callable[[Any], bool] = self.validator.is_valid
        start, stop = self.matcher.start, self.matcher.stop
        defaults = self.defaults
        fast = self.fast.is_valid

        def pure(arguments: Any) -> bool:
            start()
            try:
                return is_valid(arguments)
            finally:
                stop()

        def decide(arguments: Any) -> ParseResult | None:
            """``None`` when valid, else the rejection (explained by whoever decided)."""
            try:
                if fast(arguments):
                    return None
            except _CONVERSION_ERRORS:
                # a value jsonschema-rs cannot take (say, a 100-digit integer)
                return None if pure(arguments) else explain(arguments)
            return rejected(arguments)

        if self.recursive:
            # jsonschema-rs follows a recursive schema down a value without a
            # stack bound (a mapping 20,000 deep crashes the process): a deeper
            # value goes to the pure path, whose RecursionError the core words
            # as "nested too deeply". A schema that does not recur cannot take
            # it deeper than the schema goes, so it skips this walk.
            shallow = decide

            def decide(arguments: Any) -> ParseResult | None:
                if depth_over(arguments, _FAST_MAX_DEPTH):
                    return None if pure(arguments) else explain(arguments)
                return shallow(arguments)

        elif defaults is None:
            # the commonest case, with decide inlined: it runs on every call

            def parse(arguments: dict[str, Any]) -> ParseResult:
                try:
                    if fast(arguments):
                        return new_outcome(Ok, (arguments, None))
                except _CONVERSION_ERRORS:
                    return (
                        new_outcome(Ok, (arguments, None))
                        if pure(arguments)
                        else explain(arguments)
                    )
                return rejected(arguments)

            return parse

        if defaults is None:

            def parse(arguments: dict[str, Any]) -> ParseResult:
                refused = decide(arguments)
                return new_outcome(Ok, (arguments, None)) if refused is None else refused

        else:

            def parse(arguments: dict[str, Any]) -> ParseResult:
                refused = decide(arguments)
                return Ok(apply(defaults, arguments)) if refused is None else refused

        return parse

    def _pure_parser(self) -> Callable[[dict[str, Any]], ParseResult]:
        """One pass of ``iter_errors``: its first error decides, the rest explain.

        (``is_valid`` is that same first step, so a rejected call is never
        validated twice.)
        """
        explain = self.explain
        iter_errors = self.validator.iter_errors
        start, stop = self.matcher.start, self.matcher.stop
        defaults = self.defaults

        def parse(arguments: dict[str, Any]) -> ParseResult:
            start()  # the call's budget for pattern searches
            try:
                errors = iter_errors(arguments)
                first = next(errors, None)
                if first is None:
                    return Ok(arguments if defaults is None else apply(defaults, arguments))
                return explain(arguments, itertools.chain((first,), errors))
            finally:
                stop()

        return parse

    def rejected(self, arguments: dict[str, Any]) -> ParseResult:
        """The ``Error`` for ``arguments`` jsonschema-rs rejected (and can take).

        Built from jsonschema-rs's own errors when they give the pure path's
        text (see :mod:`._rs_problems`), else explained by the pure library.
        """
        rs = self.rs_problems
        if rs is None or self.fast is None:
            return self.explain(arguments)
        try:
            found = self.fast.iter_errors(arguments)
            errors = list(itertools.islice(found, KEPT + 1))
            total = len(errors) + sum(1 for _ in found) if len(errors) > KEPT else None
        except Exception:  # a value jsonschema-rs cannot take after all
            return self.explain(arguments)
        if total is not None:
            # thousands: the pure path builds the first ones, this count stands
            return self.explain(arguments, total=total)
        problems = rs.problems(arguments, errors) if errors else None
        if not problems:
            return self.explain(arguments)
        return invalid_arguments(
            problems, arguments=arguments, accepted=self.accepted, cause=errors[0]
        )

    def explain(
        self,
        arguments: dict[str, Any],
        errors: Iterator[Any] | None = None,
        *,
        total: int | None = None,
    ) -> ParseResult:
        """The ``Error`` for rejected ``arguments``, naming every problem.

        ``errors``: the pure validator's errors, when already under way (the
        caller opened the pattern budget). Past :data:`~._errors.KEPT`
        problems the rest are only counted: on the fast path by
        ``jsonschema-rs`` (about ten times cheaper; ``total``: its count, when
        already made), else by the pure library.
        """
        if errors is not None:
            return self._explained(arguments, errors, total)
        self.matcher.start()
        try:
            return self._explained(arguments, self.validator.iter_errors(arguments), total)
        finally:
            self.matcher.stop()

    def _explained(
        self, arguments: dict[str, Any], errors: Iterator[Any], total: int | None = None
    ) -> ParseResult:
        count = (lambda: total) if total is not None else (lambda: self._count(arguments))
        try:
            found, used, more = kept_problems(errors, count)
        except Exception:
            # older jsonschema releases crash on a few inputs (sorting mixed
            # types in a message): let jsonschema-rs explain when it can
            if self.fast is None:
                raise
            found, used, more = [], [], 0
        cause: BaseException | None = _best_match(used)
        if not found and self.fast is not None:
            # the fast path rejected what the pure one accepts: let it explain
            found, cause = self.fast.problems(arguments)
        if not found:
            found = [ArgumentProblem((), "does not match the schema")]
        return invalid_arguments(
            found, arguments=arguments, accepted=self.accepted, cause=cause, more=more
        )

    def _count(self, arguments: dict[str, Any]) -> int | None:
        """jsonschema-rs's count of the call's errors (one per problem), if it can give one."""
        if self.fast is None or (self.recursive and depth_over(arguments, _FAST_MAX_DEPTH)):
            return None
        try:
            return self.fast.count(arguments)
        except Exception:  # a value jsonschema-rs cannot take: the pure library counts
            return None
