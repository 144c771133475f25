"""Checking recorded calls in bulk: ``check_calls`` and ``toolparse check``.

One pydantic tool (``weather``: a city, a number of days from 1 to 14, a unit)
and recorded calls as JSON lines, one in five rejected with a realistic
mistake (a missing city, days out of range, an unknown unit, wrong types, a
misspelt name).

- ``check_calls`` over 1,000 lines against the hand loop a user would write:
  ``json.loads`` + ``Model.model_validate`` + ``str(e)`` on a rejection, in
  interleaved rounds of CPU time (target: 1.25x, that is 0.8x its throughput);
- ``toolparse check`` over 200,000 lines against the same hand loop run as a
  command over the same file (both fresh processes: start-up, reading the file,
  writing the report included; target 1.25x);
- ``toolparse check --jobs N`` over 200,000 lines in a fresh process, against
  ``--jobs 1`` on the same file, alternating, wall time, best of 4 each (N
  from 2 up to the machine's cores; target: ``1 / (0.8 N)``, near N-fold);
- the peak memory (RSS) of ``toolparse check`` over 10 times the lines, against
  its peak over 20,000 lines (target: 1.1x, flat).

The command's rows run whole processes: on a shared machine, the load average
before the run and the CPU time of ``--jobs N`` against ``--jobs 1`` (the cost
of spreading the work, whatever the load) are in their name.

    uv run --locked python benchmarks/bench_batch.py
"""

from __future__ import annotations

import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Literal

import pydantic
from pydantic import BaseModel, Field

import toolparse as tp
from harness import Row, ratio_rounds


class Weather(BaseModel):
    city: str
    days: int = Field(1, ge=1, le=14)
    units: Literal["c", "f"] = "c"


def _weather(arguments: Weather) -> str:
    return f"{arguments.city}: sunny"


#: the tools ``toolparse check`` loads (``benchmarks/bench_batch.py:TOOLS``)
TOOLS = [tp.Function("weather", _weather, args_schema=Weather)]

#: the mistakes of the rejected calls, in turn
MISTAKES = [
    {"days": 3},
    {"city": "Oslo", "days": 30},
    {"city": "Oslo", "units": "kelvin"},
    {"city": 5, "days": "soon"},
    {"city": "Oslo", "days": 2, "unit": "c"},
]
CITIES = ["Oslo", "Paris", "Lima", "Nairobi", "Osaka"]


def line(i: int) -> bytes:
    """Recorded call ``i``: every fifth one rejected."""
    if i % 5 == 4:
        arguments: dict[str, object] = MISTAKES[(i // 5) % len(MISTAKES)]
    else:
        arguments = {"city": CITIES[i % len(CITIES)], "days": i % 14 + 1, "units": "cf"[i % 2]}
    record = {"id": f"call_{i}", "name": "weather", "arguments": arguments}
    return json.dumps(record).encode() + b"\n"


def _check_calls_row(count: int = 1000) -> Row:
    lines = [line(i) for i in range(count)]

    def ours() -> None:
        for _ in tp.check_calls(TOOLS, lines):
            pass

    def hand() -> None:
        for text in lines:
            record = json.loads(text)
            try:
                Weather.model_validate(record["arguments"])
            except pydantic.ValidationError as exc:
                str(exc)

    r = ratio_rounds(ours, hand, rounds=9, budget=0.2)
    rate = count / (r.a_us / 1e6)
    name = f"check_calls, {count:,} JSON lines, 20% rejected ({rate:,.0f} calls/s, per record)"
    floor = "json.loads + model_validate + str(e)"
    return Row(name, r.a_us / count, r.b_us / count, floor, 1.25, r.spread, r.ratio)


def _command(calls: pathlib.Path, jobs: int = 1) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (its workers' included) and peak RSS (KiB) of ``toolparse check``."""
    target = f"{pathlib.Path(__file__).resolve()}:TOOLS"
    argv = [sys.executable, "-m", "toolparse", "check", target, str(calls), "--jobs", str(jobs)]
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)  # this child's own peak, not all children's
    took = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):  # 1: some calls were rejected, as they are
        raise RuntimeError(f"toolparse check failed: {process.returncode}")
    # (a child's usage counts its own children once they are waited for: the pool's workers)
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


#: the hand loop as a command over the same file, for the whole-process comparison
HAND = """
import json, sys
import pydantic
sys.path.insert(0, sys.argv[2])
from bench_batch import Weather
with open(sys.argv[1], "rb") as f:
    for text in f:
        try:
            Weather.model_validate(json.loads(text)["arguments"])
        except pydantic.ValidationError as exc:
            str(exc)
"""


def _hand(calls: pathlib.Path) -> float:
    """Wall seconds of the hand loop over ``calls`` in a fresh process."""
    argv = [sys.executable, "-c", HAND, str(calls), str(pathlib.Path(__file__).parent)]
    start = time.perf_counter()
    subprocess.run(argv, check=True)
    return time.perf_counter() - start


def _command_row(calls: pathlib.Path, count: int, rounds: int = 4) -> Row:
    ours, hand = [], []
    for i in range(rounds):  # alternating, best of each: the least disturbed run
        for side in (0, 1) if i % 2 == 0 else (1, 0):
            if side == 0:
                ours.append(_command(calls)[0])
            else:
                hand.append(_hand(calls))
    a, b = min(ours), min(hand)
    ratios = [x / y for x, y in zip(ours, hand, strict=True)]
    name = (
        f"toolparse check, {count:,} lines, one process ({count / a:,.0f} lines/s against"
        f" {count / b:,.0f}; per line)"
    )
    floor = "the hand loop as a command"
    return Row(
        name, a / count * 1e6, b / count * 1e6, floor, 1.25, (min(ratios), max(ratios)), a / b
    )


def _write(path: pathlib.Path, count: int) -> pathlib.Path:
    with path.open("wb") as f:
        f.writelines(line(i) for i in range(count))
    return path


def _jobs_rows(folder: pathlib.Path, count: int = 200_000, rounds: int = 4) -> list[Row]:
    calls = _write(folder / "calls.jsonl", count)
    rows = [_command_row(calls, count)]
    cores = os.cpu_count() or 1
    for jobs in range(2, cores + 1):
        one: list[tuple[float, float, int]] = []
        many: list[tuple[float, float, int]] = []
        load = os.getloadavg()[0]
        for i in range(rounds):
            for n in (1, jobs) if i % 2 == 0 else (jobs, 1):
                (one if n == 1 else many).append(_command(calls, n))
        # best of the interleaved runs, as the page's other whole-process rows: the least
        # disturbed run of each; the spread is that of the runs side by side
        ratios = [m[0] / o[0] for m, o in zip(many, one, strict=True)]
        a, b = min(m[0] for m in many), min(o[0] for o in one)
        # the CPU both spend: what spreading the work costs, whatever the machine's load
        cpu = statistics.median(m[1] / o[1] for m, o in zip(many, one, strict=True))
        name = (
            f"toolparse check --jobs {jobs}, {count:,} lines ({count / a:,.0f} lines/s against"
            f" {count / b:,.0f}; CPU {cpu:.2f}x; {cores} cores, load {load:.1f}; per line)"
        )
        spread = (min(ratios), max(ratios))
        target = 1 / (0.8 * jobs)
        rows.append(Row(name, a / count * 1e6, b / count * 1e6, "--jobs 1", target, spread, a / b))
    return rows


def _memory_row(folder: pathlib.Path, count: int = 20_000) -> Row:
    small = _write(folder / "small.jsonl", count)
    large = _write(folder / "large.jsonl", count * 10)
    peaks = [_command(small)[2], _command(large)[2]]
    name = f"toolparse check peak RSS, {count * 10:,} lines (KiB)"
    return Row(name, peaks[1], peaks[0], f"{count:,} lines", 1.1)


def run() -> list[Row]:
    rows = [_check_calls_row()]
    with tempfile.TemporaryDirectory() as folder:
        rows += _jobs_rows(pathlib.Path(folder))
        rows.append(_memory_row(pathlib.Path(folder)))
    return rows


if __name__ == "__main__":
    from harness import table

    print(table(run()))
