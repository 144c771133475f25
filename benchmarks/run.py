"""Run every benchmark and print one Markdown table.

uv run python benchmarks/run.py            # all
uv run python benchmarks/run.py core pydantic   # some (bench_<name>.py)
"""

from __future__ import annotations

import importlib
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from harness import Row, table


def main(argv: list[str]) -> int:
    here = pathlib.Path(__file__).parent
    names = argv or sorted(p.stem.removeprefix("bench_") for p in here.glob("bench_*.py"))
    rows: list[Row] = []
    for name in names:
        module = importlib.import_module(f"bench_{name}")
        print(f"running {name} ...", file=sys.stderr, flush=True)
        rows.extend(module.run())
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
