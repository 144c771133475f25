"""Run every benchmark and print one Markdown table.

uv run --locked python benchmarks/run.py            # all
uv run --locked python benchmarks/run.py core pydantic   # some (bench_<name>.py)
uv run --locked python benchmarks/run.py --write docs/performance.md   # all, into the page
uv run --locked python benchmarks/run.py --peers    # all, plus the peers' own tool paths

``--peers`` adds ``bench_peers.py``: the same tool through toolparse and through
langchain-core's, pydantic-ai's and openai-agents' own tool paths and the MCP
SDK's own servers, in the same run (its rows include those of
``bench_integrations.py`` and ``bench_mcp.py``, which it then replaces); a peer
whose library is not installed is skipped with a line saying so under the
table. It combines with names and with ``--write``.

``--write PAGE`` replaces the table between the ``<!-- benchmarks:start -->``
and ``<!-- benchmarks:end -->`` markers of PAGE (appending them when absent),
leaving the page's prose as it is, and draws the rows that are points of a
scaling curve next to it (``PAGE-scaling.svg``, with matplotlib from the
``bench`` dependency group: ``uv run --locked --group bench python benchmarks/run.py ...``).
"""

from __future__ import annotations

import importlib
import pathlib
import platform
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from harness import Row, table
from plot import draw

#: the modules whose rows bench_peers.py includes
_IN_PEERS = ("integrations", "mcp")

START = "<!-- benchmarks:start -->"
END = "<!-- benchmarks:end -->"


def write(page: pathlib.Path, text: str) -> None:
    """Put ``text`` between the markers of ``page``."""
    old = page.read_text(encoding="utf-8")
    block = f"{START}\n{text}\n{END}"
    if START in old and END in old:
        head, rest = old.split(START, 1)
        _, tail = rest.split(END, 1)
        new = head + block + tail
    else:
        new = old.rstrip("\n") + "\n\n" + block + "\n"
    page.write_text(new, encoding="utf-8")


def main(argv: list[str]) -> int:
    here = pathlib.Path(__file__).parent
    if {"-h", "--help"} & set(argv):
        names = sorted(p.stem.removeprefix("bench_") for p in here.glob("bench_*.py"))
        print(f"{__doc__}\nNames: {', '.join(names)}")
        return 0
    page: pathlib.Path | None = None
    if "--write" in argv:
        at = argv.index("--write")
        page = pathlib.Path(argv[at + 1])
        argv = argv[:at] + argv[at + 2 :]
    peers = "--peers" in argv
    argv = [a for a in argv if a != "--peers"]
    every = sorted(p.stem.removeprefix("bench_") for p in here.glob("bench_*.py"))
    # the peers' rows include the integration and MCP rows: run them only once
    names = argv or [n for n in every if n != "peers" and not (peers and n in _IN_PEERS)]
    if peers and "peers" not in names:
        names.append("peers")
    rows: list[Row] = []
    failed: list[str] = []
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            module = importlib.import_module(f"bench_{name}")
            rows.extend(module.run())
            failed.extend(getattr(module, "SKIPPED", []))
        except Exception as exc:  # one broken module must not cost the others' figures
            failed.append(f"- bench_{name} failed: {type(exc).__name__}: {exc}")
            print(failed[-1], file=sys.stderr, flush=True)
    text = table(rows) + ("\n\n" + "\n".join(failed) if failed else "")
    print(text)
    if page is not None:
        stamp = time.strftime("%Y-%m-%d", time.gmtime())
        note = (
            f"Measured {stamp}, Python {platform.python_version()}, {platform.machine()}."
            " Ratios are medians over interleaved rounds (spread: lowest-highest round)"
            " where a spread is shown, else best-of-repeats."
        )
        figure = page.with_name(f"{page.stem}-scaling.svg")
        if draw(rows, figure):
            text = f"![The scaling curves: each ratio by size, with its spread]({figure.name})\n\n{text}"
        elif any(row.curve for row in rows):  # (curves, but no matplotlib to draw them)
            print(
                "no plot: matplotlib is in the bench group (uv run --group bench)", file=sys.stderr
            )
        write(page, f"{note}\n\n{text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
