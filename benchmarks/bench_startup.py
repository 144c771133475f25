"""First use and definitions: what a user meets before the first call.

- ``import toolparse`` in a fresh process against ``import pluggy`` (the
  plugin system toolparse is built on), CPU time of the import, bytecode
  cached, the two alternating over fresh processes;
- ``import toolparse.integrations.langchain`` against ``import
  langchain_core.tools``, the same way (the bridge loads LangChain's tool
  class, and its tracers, with the first ``to_langchain``);
- first pydantic tool, in a fresh process (CPU time of that process) (toolparse already imported, as its
  own import is the row above): defining a model and
  ``Function(args_schema=Model)``, against ``import pydantic`` plus the same
  model and its ``model_json_schema()``; the row names any other adapter
  library the first tool imported;
- definitions in a warm process: ``Function(args_schema=...)`` against the
  library's own schema build (pydantic's ``model_json_schema()``,
  jsonschema's ``check_schema`` plus its validators, marshmallow's schema
  instance).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import jsonschema
import jsonschema_rs

import toolparse as tp
from bench_jsonschema import SCHEMA
from bench_pydantic import Invoice
from harness import Row, ratio_of_samples, ratio_rounds
from toolparse_jsonschema import JsonSchema

_MODEL = """
class Line(BaseModel):
    sku: str
    quantity: int = Field(gt=0)

class Invoice(BaseModel):
    vendor_name: str
    total_amount: float
    currency: str = "EUR"
    line_items: list[Line]
"""

_PREFIX = "import sys, time, json\nimport toolparse as tp\nstart = time.process_time()\n"
_SUFFIX = (
    "spent = time.process_time() - start\n"
    "libs = sorted({m.split('.')[0] for m in sys.modules} & "
    "{'marshmallow', 'cattrs', 'attrs', 'attr', 'jsonschema', 'jsonschema_rs', 'msgspec'})\n"
    "print(json.dumps([spent * 1e6, libs]))\n"
)

OURS = (
    _PREFIX
    + "from pydantic import BaseModel, Field\n"
    + _MODEL
    + "tp.Function('create_invoice', lambda invoice: 'ok', args_schema=Invoice)\n"
    + _SUFFIX
)
FLOOR = (
    _PREFIX
    + "from pydantic import BaseModel, Field\n"
    + _MODEL
    + "Invoice.model_json_schema()\n"
    + _SUFFIX
)


def fresh(code: str) -> tuple[float, list[str]]:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    spent, libs = json.loads(out.strip().splitlines()[-1])
    return float(spent), list(libs)


def import_cpu(module: str) -> float:
    """CPU time of ``import module`` in a fresh process, in microseconds.

    Bytecode may be written (a first run caches it), as for any installed
    package: otherwise the figure would be compile time, not import time.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    code = f"import time\nstart = time.process_time()\nimport {module}\nprint(time.process_time() - start)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    return float(out) * 1e6


def _alternating(ours_module: str, floor_module: str, rounds: int) -> tuple[Any, ...]:
    """Both imports over fresh processes, alternating, after one run writes the bytecode."""
    import_cpu(ours_module)
    ours: list[float] = []
    floor: list[float] = []
    for i in range(rounds):
        pair = (ours_module, floor_module) if i % 2 == 0 else (floor_module, ours_module)
        for module in pair:
            (ours if module == ours_module else floor).append(import_cpu(module))
    return ratio_of_samples(ours, floor)


def _import_rows(rounds: int = 15) -> list[Row]:
    a, b, ratio, spread = _alternating("toolparse", "pluggy", rounds)
    rows = [Row("import toolparse (fresh process)", a, b, "import pluggy", 1.2, spread, ratio)]
    a, b, ratio, spread = _alternating(
        "toolparse.integrations.langchain", "langchain_core.tools", rounds
    )
    name = "import toolparse.integrations.langchain (fresh process)"
    rows.append(Row(name, a, b, "import langchain_core.tools", 1.2, spread, ratio))
    return rows


def _first_use_rows(rounds: int = 7) -> list[Row]:
    ours: list[float] = []
    floor: list[float] = []
    imported: set[str] = set()
    for i in range(rounds):
        pair = (OURS, FLOOR) if i % 2 == 0 else (FLOOR, OURS)
        for code in pair:
            spent, libs = fresh(code)
            if code is OURS:
                ours.append(spent)
                imported.update(libs)
            else:
                floor.append(spent)
    a, b, ratio, spread = ratio_of_samples(ours, floor)
    also = ", ".join(sorted(imported)) or "none"
    return [
        Row(
            f"first pydantic tool, fresh process (other adapter libraries imported: {also})",
            a,
            b,
            "import pydantic + model_json_schema()",
            1.3,
            spread,
            ratio,
        )
    ]


def _definition_rows() -> list[Row]:
    rows = []
    r = ratio_rounds(
        lambda: tp.Function("create_invoice", lambda invoice: "ok", args_schema=Invoice),
        Invoice.model_json_schema,
    )
    rows.append(r.row("define: pydantic args_schema", "model_json_schema()", 1.5))

    def js_floor() -> object:
        cls = jsonschema.validators.validator_for(SCHEMA)
        cls.check_schema(SCHEMA)
        return (
            cls(SCHEMA, format_checker=cls.FORMAT_CHECKER),
            jsonschema_rs.validator_for(SCHEMA, validate_formats=True),
        )

    def js_ours() -> object:
        return tp.Function("create_event", lambda a: "ok", args_schema=JsonSchema(SCHEMA))

    r = ratio_rounds(js_ours, js_floor)
    rows.append(
        r.row(
            "define: JSON Schema (jsonschema-rs)",
            "check_schema + both validators",
            1.3,
        )
    )
    return rows


def run() -> list[Row]:
    return [*_import_rows(), *_first_use_rows(), *_definition_rows()]


if __name__ == "__main__":
    from harness import table

    print(table(run()))
