"""The plugin manager, loading controls, and one test per hook."""

from __future__ import annotations

import importlib.metadata
import logging
import sys
import types
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import toolparse as tp
from toolparse import plugins


class FakeEntryPoint:
    """An installed entry point, as pluggy reads it (pluggy's own tests fake them so)."""

    def __init__(self, name: str, plugin: object, group: str = "toolparse") -> None:
        self.name = name
        self.group = group
        self.value = f"{name}_plugin"
        self._plugin = plugin

    def load(self) -> object:
        if isinstance(self._plugin, BaseException):
            raise self._plugin
        return self._plugin


class FakeDistribution:
    def __init__(self, name: str, entry_points: list[FakeEntryPoint]) -> None:
        # email.message.Message reads keys case-insensitively; pluggy asks for "name"
        self.metadata = {"Name": name, "name": name}
        self.version = "1.2.3"
        self.entry_points = entry_points


def make_adapter(name: str, accepted: object, schema: dict[str, Any] | None = None) -> Any:
    class Adapter:
        def accepts(self, source: object) -> bool:
            return source == accepted

        def json_schema(self, source: Any) -> dict[str, Any]:
            return schema or {"type": "object", "properties": {"x": {"type": "integer"}}}

        def parser(self, source: Any) -> Callable[[dict[str, Any]], tp.ParseResult]:
            return lambda a: tp.ok({"by": name, **a})

    adapter = Adapter()
    adapter.name = name  # type: ignore[attr-defined]
    return adapter


def adapter_plugin(*adapters: Any) -> object:
    class Plugin:
        @tp.hookimpl
        def toolparse_register_adapters(self, register: Callable[[Any], None]) -> None:
            for adapter in adapters:
                register(adapter)

    return Plugin()


@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Entry-point name -> plugin (or the exception its import raises), one distribution each."""
    installed: dict[str, object] = {}

    def distributions() -> list[FakeDistribution]:
        # an unrelated group in the first distribution, which loading must skip
        other = FakeDistribution("other", [FakeEntryPoint("x", object(), group="pytest11")])
        return [other] + [
            FakeDistribution(f"toolparse-{name}", [FakeEntryPoint(name, plugin)])
            for name, plugin in installed.items()
        ]

    monkeypatch.setattr(importlib.metadata, "distributions", distributions)
    monkeypatch.delenv(plugins.DISABLE_AUTOLOAD, raising=False)
    monkeypatch.delenv(plugins.LOAD_PLUGINS, raising=False)
    return installed


# -- the manager -------------------------------------------------------------------------


def test_default_manager_is_lazy_and_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "_default", None)
    first = tp.plugin_manager()
    assert tp.plugin_manager() is first
    assert first.adapter("plain") is not None


def test_defaults_registered_like_any_plugin(pm: tp.PluginManager) -> None:
    assert pm.get_plugin("toolparse.defaults") is not None
    assert [a.name for a in pm.adapters()] == ["plain"]


def test_entry_points_load_in_name_order(fake_entry_points: dict[str, object]) -> None:
    fake_entry_points["zeta"] = adapter_plugin(make_adapter("zeta", "m"))
    fake_entry_points["alpha"] = adapter_plugin(make_adapter("alpha", "m"))
    pm = tp.make_plugin_manager()
    # the plugin loaded last is asked first; loading is in name order
    assert [a.name for a in pm.adapters()] == ["zeta", "alpha", "plain"]
    # both accept "m": the one asked first answers, and the warning names both
    with pytest.warns(UserWarning, match="the adapters 'zeta' and 'alpha' accept 'm'; 'zeta'"):
        fn = tp.Function("t", lambda a: "x", args_schema="m", plugin_manager=pm)
    assert fn.adapter is not None
    assert fn.adapter.name == "zeta"


def test_disable_autoload(
    fake_entry_points: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_entry_points["alpha"] = adapter_plugin(make_adapter("alpha", "m"))
    monkeypatch.setenv("TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert [a.name for a in tp.make_plugin_manager().adapters()] == ["plain"]
    monkeypatch.setenv("TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD", "0")
    assert [a.name for a in tp.make_plugin_manager().adapters()] == ["alpha", "plain"]


def test_load_plugins_selects_by_name(
    fake_entry_points: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_entry_points["alpha"] = adapter_plugin(make_adapter("alpha", "m"))
    fake_entry_points["beta"] = adapter_plugin(make_adapter("beta", "m"))
    monkeypatch.setenv("TOOLPARSE_LOAD_PLUGINS", "beta")
    assert [a.name for a in tp.make_plugin_manager().adapters()] == ["beta", "plain"]
    # it wins over the autoload switch
    monkeypatch.setenv("TOOLPARSE_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("TOOLPARSE_LOAD_PLUGINS", " alpha , beta ")
    assert [a.name for a in tp.make_plugin_manager().adapters()] == ["beta", "alpha", "plain"]
    monkeypatch.setenv("TOOLPARSE_LOAD_PLUGINS", "")
    assert [a.name for a in tp.make_plugin_manager().adapters()] == ["plain"]


def test_load_plugins_unknown_name_warns(
    fake_entry_points: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_entry_points["alpha"] = adapter_plugin(make_adapter("alpha", "m"))
    monkeypatch.setenv("TOOLPARSE_LOAD_PLUGINS", "alhpa")
    with pytest.warns(UserWarning, match="names 'alhpa'.*installed: alpha"):
        tp.make_plugin_manager()


def test_blocked_plugin_is_not_loaded(fake_entry_points: dict[str, object]) -> None:
    fake_entry_points["alpha"] = adapter_plugin(make_adapter("alpha", "m"))
    pm = tp.make_plugin_manager(load_entry_points=False)
    pm.set_blocked("alpha")
    assert pm.load_entry_points() == 0


def test_pluggy_loads_entry_points_and_records_their_distributions(
    fake_entry_points: dict[str, object],
) -> None:
    alpha = adapter_plugin(make_adapter("alpha", "m"))
    fake_entry_points["alpha"] = alpha
    pm = tp.make_plugin_manager()
    assert [(plugin, dist.project_name) for plugin, dist in pm.list_plugin_distinfo()] == [
        (alpha, "toolparse-alpha")
    ]
    assert pm.plugin_distributions() == [
        plugins.PluginDistribution("alpha", "toolparse-alpha", "1.2.3", "alpha_plugin")
    ]
    # a plugin unregistered at run time is no longer listed
    pm.unregister(alpha)
    assert pm.plugin_distributions() == []


def test_a_plugin_that_fails_to_import_is_named_and_skipped(
    fake_entry_points: dict[str, object],
) -> None:
    fake_entry_points["alpha"] = adapter_plugin(make_adapter("alpha", "m"))
    fake_entry_points["broken"] = ModuleNotFoundError("No module named 'missinglib'")
    fake_entry_points["zeta"] = adapter_plugin(make_adapter("zeta", "z"))
    with pytest.warns(
        plugins.PluginLoadWarning,
        match=r"'broken' \(toolparse-broken 1\.2\.3, entry point broken_plugin\) failed to "
        r"import.*ModuleNotFoundError: No module named 'missinglib'",
    ):
        pm = tp.make_plugin_manager()
    # the plugins around it loaded, and tools that do not need it work
    assert [a.name for a in pm.adapters()] == ["zeta", "alpha", "plain"]
    fn = tp.Function("t", lambda a: a, args_schema="m", plugin_manager=pm)
    assert fn.execute({"x": 1}) == tp.Ok('{"by": "alpha", "x": 1}')
    (failed,) = pm.failed_plugins()
    assert failed.name == "broken"
    assert failed.error == "ModuleNotFoundError: No module named 'missinglib'"
    assert [(d.name, d.error) for d in pm.plugin_distributions()] == [
        ("alpha", None),
        ("broken", failed.error),
        ("zeta", None),
    ]
    # a tool whose source nothing else takes names it in its definition error
    with pytest.raises(tp.NoAdapterError, match=r"plugin 'broken' .* failed to import: Module"):
        tp.Function("t", lambda a: a, args_schema="unknown-model", plugin_manager=pm)
    with pytest.raises(tp.FunctionDefinitionError, match=r"no adapter named 'broken'.*failed"):
        tp.Function("t", lambda a: a, args_schema="m", adapter="broken", plugin_manager=pm)
    # the name stays free: the plugin can be registered by hand once fixed
    assert not pm.is_blocked("broken")


def test_a_failed_plugin_is_named_only_for_the_sources_it_would_take(
    fake_entry_points: dict[str, object],
) -> None:
    fake_entry_points["marshmallow"] = ImportError("cannot import name 'Schema'")
    with pytest.warns(plugins.PluginLoadWarning):
        pm = tp.make_plugin_manager()
    marshmallow_like = type("S", (), {"__module__": "marshmallow.schema"})
    with pytest.raises(tp.NoAdapterError, match=r"'marshmallow' .* failed to import"):
        tp.Function("t", lambda a: a, args_schema=marshmallow_like, plugin_manager=pm)
    pydantic_like = type("M", (), {"__module__": "pydantic.main"})
    with pytest.raises(tp.NoAdapterError) as info:
        tp.Function("t", lambda a: a, args_schema=pydantic_like, plugin_manager=pm)
    assert "marshmallow" not in str(info.value)


def test_load_plugins_naming_a_broken_plugin_warns_once(
    fake_entry_points: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_entry_points["broken"] = RuntimeError("boom")
    monkeypatch.setenv("TOOLPARSE_LOAD_PLUGINS", "broken")
    with pytest.warns(plugins.PluginLoadWarning, match="RuntimeError: boom") as caught:
        pm = tp.make_plugin_manager()
    assert len(caught) == 1
    assert [f.name for f in pm.failed_plugins()] == ["broken"]


def test_an_adapter_alone_in_accepting_a_source_gives_no_warning(pm: tp.PluginManager) -> None:
    pm.register(adapter_plugin(make_adapter("alpha", "a"), make_adapter("beta", "b")))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fn = tp.Function("t", lambda a: "x", args_schema="b", plugin_manager=pm)
    assert fn.adapter is not None
    assert fn.adapter.name == "beta"
    # choosing the adapter by name asks no other
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pm.register(adapter_plugin(make_adapter("gamma", "b")))
        chosen = tp.Function("t", lambda a: "x", args_schema="b", adapter="beta", plugin_manager=pm)
    assert chosen.adapter is not None
    assert chosen.adapter.name == "beta"


def test_a_plugin_whose_hook_raises_is_named_skipped_and_logged(
    pm: tp.PluginManager, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken:
        @tp.hookimpl
        def toolparse_register_adapters(self, register: Callable[[Any], None]) -> None:
            raise RuntimeError("boom")

    pm.register(adapter_plugin(make_adapter("alpha", "m")), name="good")
    pm.register(Broken(), name="broken")
    with (
        caplog.at_level(logging.WARNING, logger="toolparse"),
        pytest.warns(plugins.PluginLoadWarning, match="'broken'.*RuntimeError: boom"),
    ):
        names = [a.name for a in pm.adapters()]
    assert names == ["alpha", "plain"]  # the others still answer
    (record,) = [r for r in caplog.records if r.name == "toolparse.plugins"]
    assert record.levelno == logging.WARNING
    assert "'broken'" in record.getMessage()
    assert "RuntimeError: boom" in record.getMessage()
    (failed,) = pm.failed_plugins()
    assert (failed.name, failed.error) == ("broken", "RuntimeError: boom")
    fn = tp.Function("t", lambda a: a, args_schema="m", plugin_manager=pm)
    assert fn.execute({"x": 1}) == tp.Ok('{"by": "alpha", "x": 1}')


def test_a_plugin_that_fails_to_import_is_a_warning_record(
    fake_entry_points: dict[str, object], caplog: pytest.LogCaptureFixture
) -> None:
    fake_entry_points["broken"] = ImportError("no lib")
    with (
        caplog.at_level(logging.WARNING, logger="toolparse"),
        pytest.warns(plugins.PluginLoadWarning),
    ):
        tp.make_plugin_manager()
    (record,) = [r for r in caplog.records if r.name == "toolparse.plugins"]
    assert record.levelno == logging.WARNING
    assert "'broken' (toolparse-broken 1.2.3" in record.getMessage()
    assert "ImportError: no lib" in record.getMessage()


def test_two_adapters_of_one_name_are_an_error(pm: tp.PluginManager) -> None:
    pm.register(adapter_plugin(make_adapter("twin", "a")), name="first-plugin")
    pm.register(adapter_plugin(make_adapter("twin", "b")), name="second-plugin")
    with pytest.raises(
        plugins.PluginError,
        match="two adapters are named 'twin': one from the plugin 'second-plugin', "
        "one from 'first-plugin'",
    ) as info:
        pm.adapters()
    assert set(info.value.plugins) == {"first-plugin", "second-plugin"}
    with pytest.raises(tp.FunctionDefinitionError, match="two adapters are named 'twin'"):
        tp.Function("t", lambda a: a, args_schema="a", plugin_manager=pm)


def test_an_adapter_of_the_two_method_form_still_works(pm: tp.PluginManager) -> None:
    seen: list[tuple[str, str]] = []

    class Money:
        pass

    class Plugin:
        @tp.hookimpl
        def toolparse_field_schema(self, adapter: str, field: object, schema: Any) -> Any:
            return {"type": "string", "pattern": "^[0-9]+$"} if field is Money else None

    class OldStyle:
        """Written against the two-method form: no compile, the hook reached by the function."""

        name = "old"

        def accepts(self, source: object) -> bool:
            return source == "old-model"

        def json_schema(self, source: Any, *, unknown_arguments: str = "report") -> Any:
            seen.append(("json_schema", unknown_arguments))
            return {
                "type": "object",
                "properties": {"amount": plugins.field_schema("old", Money, {})},
                "required": ["amount"],
            }

        def parser(self, source: Any, *, unknown_arguments: str = "report") -> Any:
            seen.append(("parser", unknown_arguments))
            return lambda a: tp.ok({"parsed": a["amount"]})

    pm.register(Plugin())
    pm.register(adapter_plugin(OldStyle()))
    fn = tp.Function(
        "t",
        lambda a: a["parsed"],
        args_schema="old-model",
        unknown_arguments="reject",
        plugin_manager=pm,
    )
    assert seen == [("json_schema", "reject"), ("parser", "reject")]
    assert fn.json_schema()["properties"] == {"amount": {"type": "string", "pattern": "^[0-9]+$"}}
    assert fn.required_param_names() == ["amount"]
    assert fn.execute({"amount": "12"}) == tp.Ok("12")
    result = fn.execute({"amount": "12", "extra": 1})
    assert isinstance(result, tp.Error)
    assert "Unrecognized parameters: extra" in result.message
    # outside a definition the function falls back on the default manager
    assert plugins.resolving.get() is None


def test_an_adapter_of_the_one_step_form_gets_policy_and_hook(pm: tp.PluginManager) -> None:
    calls: list[dict[str, Any]] = []

    class Plugin:
        @tp.hookimpl
        def toolparse_field_schema(self, adapter: str, field: object, schema: Any) -> Any:
            return {"type": "integer", "minimum": 0} if field == "count" else None

    class OneStep:
        name = "onestep"

        def accepts(self, source: object) -> bool:
            return source == "one-model"

        def compile(self, source: Any, **options: Any) -> tp.adapter.Compiled:
            calls.append(options)
            hook = options["field_schema"]
            schema = {"type": "object", "properties": {"n": hook("count", {})}}
            return tp.adapter.Compiled(
                schema, lambda a: tp.ok(a["n"] * 2), accepted=["n"], required=["n"]
            )

        def json_schema(self, source: Any) -> Any:
            raise AssertionError("the one-step form is preferred")

        parser = json_schema

    pm.register(Plugin())
    pm.register(adapter_plugin(OneStep()))
    fn = tp.Function("t", lambda n: n, args_schema="one-model", plugin_manager=pm)
    assert [sorted(c) for c in calls] == [["field_schema", "parser", "unknown_arguments"]]
    assert calls[0]["unknown_arguments"] == "report"
    assert calls[0]["parser"] is True
    assert fn.json_schema()["properties"] == {"n": {"type": "integer", "minimum": 0}}
    assert fn.execute({"n": 2}) == tp.Ok("4")
    # with parse_args the adapter is not asked for a parser
    tp.Function(
        "t", lambda a: a, args_schema="one-model", parse_args=lambda a: tp.ok(), plugin_manager=pm
    )
    assert calls[1]["parser"] is False


def test_runtime_registration_and_unregistration(pm: tp.PluginManager) -> None:
    plugin = adapter_plugin(make_adapter("late", "model"))
    pm.register(plugin)
    assert pm.adapter("late") is not None
    fn = tp.Function("t", lambda a: a, args_schema="model", plugin_manager=pm)
    assert fn.execute({"x": 1}) == tp.Ok('{"by": "late", "x": 1}')
    pm.unregister(plugin)
    assert pm.adapter("late") is None
    with pytest.raises(tp.NoAdapterError):
        tp.Function("t", lambda a: a, args_schema="model", plugin_manager=pm)


def test_later_adapter_of_one_plugin_is_asked_first(pm: tp.PluginManager) -> None:
    pm.register(adapter_plugin(make_adapter("first", "m"), make_adapter("second", "m")))
    assert [a.name for a in pm.adapters()][:2] == ["second", "first"]


def test_hook_typo_is_caught(pm: tp.PluginManager) -> None:
    class Typo:
        @tp.hookimpl
        def toolparse_register_adaptors(self, register: Any) -> None:
            pass

    pm.register(Typo())
    with pytest.raises(Exception, match="unknown hook"):
        pm.check_pending()


def test_real_entry_points_of_this_environment() -> None:
    # the installed adapter distributions declare their entry point
    names = {ep.name for ep in importlib.metadata.entry_points(group="toolparse")}
    expected = {
        n
        for n in ("pydantic", "marshmallow", "attrs", "jsonschema")
        if _installed(f"toolparse_{n}")
    }
    assert expected <= names


def _installed(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


# -- one test per hook ------------------------------------------------------------------------


def test_hook_toolparse_register_adapters(pm: tp.PluginManager) -> None:
    pm.register(adapter_plugin(make_adapter("mine", "my-model")))
    fn = tp.Function("t", lambda a: a, args_schema="my-model", plugin_manager=pm)
    assert fn.adapter is not None
    assert fn.adapter.name == "mine"
    assert fn.json_schema() == {"type": "object", "properties": {"x": {"type": "integer"}}}
    assert fn.parse_arguments({"x": 1}) == tp.Ok({"by": "mine", "x": 1})


def test_hook_toolparse_register_providers(pm: tp.PluginManager) -> None:
    class Provider:
        name = "echo"

    class Plugin:
        @tp.hookimpl
        def toolparse_register_providers(self, register: Callable[[Any], None]) -> None:
            register(Provider())

    pm.register(Plugin())
    assert isinstance(pm.providers()["echo"], Provider)


def test_hook_toolparse_select_adapter(pm: tp.PluginManager) -> None:
    a = make_adapter("a", "m")
    b = make_adapter("b", "m")
    pm.register(adapter_plugin(a, b))

    class Chooser:
        @tp.hookimpl
        def toolparse_select_adapter(self, source: object, candidates: Any) -> Any:
            return next(c for c in candidates if c.name == "a") if source == "m" else None

    pm.register(Chooser())
    fn = tp.Function("t", lambda x: x, args_schema="m", plugin_manager=pm)
    assert fn.adapter is a


def test_hook_toolparse_field_schema(pm: tp.PluginManager) -> None:
    class Money:
        pass

    class Plugin:
        @tp.hookimpl
        def toolparse_field_schema(self, adapter: str, field: object, schema: Any) -> Any:
            if field is Money:
                return {"type": "string", "pattern": r"^\d+\.\d{2}$"}
            return None

    class Adapter:
        name = "fields"

        def accepts(self, source: object) -> bool:
            return source == "fields-model"

        def json_schema(self, source: Any) -> dict[str, Any]:
            return {
                "type": "object",
                "properties": {
                    "amount": plugins.field_schema("fields", Money, {}),
                    "note": plugins.field_schema("fields", str, {"type": "string"}),
                },
            }

        def parser(self, source: Any) -> Any:
            return lambda a: tp.ok()

    pm.register(Plugin())
    pm.register(adapter_plugin(Adapter()))
    fn = tp.Function("t", lambda a: "x", args_schema="fields-model", plugin_manager=pm)
    assert fn.json_schema()["properties"] == {
        "amount": {"type": "string", "pattern": r"^\d+\.\d{2}$"},
        "note": {"type": "string"},
    }


def test_hook_toolparse_format_exception(pm: tp.PluginManager) -> None:
    class Plugin:
        @tp.hookimpl
        def toolparse_format_exception(
            self, exception: BaseException, function: tp.Function
        ) -> str | None:
            if isinstance(exception, PermissionError):
                return f"{function.name}: you may not do that."
            return None

    pm.register(Plugin())
    pm.register(adapter_plugin(make_adapter("m", "model")))

    def body(a: Any) -> str:
        raise PermissionError("secret path /etc/shadow")

    fn = tp.Function("guarded", body, args_schema="model", plugin_manager=pm)
    result = fn.execute({})
    assert result == tp.Error("guarded: you may not do that.", result.exception)  # type: ignore[union-attr]
    other = tp.Function("other", lambda a: 1 / 0, args_schema="model", plugin_manager=pm).execute(
        {}
    )
    assert other.message.startswith("ERROR: (ZeroDivisionError)")  # type: ignore[union-attr]


def test_hook_toolparse_tool_executed(pm: tp.PluginManager) -> None:
    seen: list[tuple[str, str | None, bool, float]] = []

    class Observer:
        @tp.hookimpl
        def toolparse_tool_executed(
            self,
            call: tp.ToolCall,
            function: tp.Function | None,
            result: tp.ToolResult,
            duration: float,
        ) -> None:
            seen.append((call.id, function.name if function else None, result.is_error, duration))

    assert not pm.observed
    pm.register(Observer())
    assert pm.observed
    fn = tp.Function(
        "t", lambda a: "x", parameters=[tp.FunctionParam("q", "string", required=True)]
    )
    tp.execute_tool_calls(
        [fn],
        [tp.ToolCall("1", "t", {"q": "a"}), tp.ToolCall("2", "t", {}), tp.ToolCall("3", "nope")],
        plugin_manager=pm,
    )
    assert [(i, n, e) for i, n, e, _ in seen] == [  # the model's order
        ("1", "t", False),
        ("2", "t", True),
        ("3", None, True),
    ]
    assert all(d >= 0 for *_, d in seen)


def test_plugin_as_a_module(pm: tp.PluginManager) -> None:
    module = types.ModuleType("toolparse_example_plugin")
    adapter = make_adapter("modular", "mod-model")

    @tp.hookimpl
    def toolparse_register_adapters(register: Callable[[Any], None]) -> None:
        register(adapter)

    module.toolparse_register_adapters = toolparse_register_adapters  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    try:
        pm.register(module)
        assert pm.adapter("modular") is adapter
    finally:
        del sys.modules[module.__name__]
