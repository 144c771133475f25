"""The toolparse demo: a scripted model makes real mistakes; toolparse answers each one.

Run it with ``uv run python examples/demo.py`` (or ``toolparse demo`` once installed).
"""

from toolparse.cli import main

if __name__ == "__main__":
    raise SystemExit(main(["demo"]))
