"""The toolparse demo: a scripted model makes real mistakes; toolparse answers each one.

Run it with ``uv run python examples/demo.py`` (or ``toolparse demo`` once installed).
The scenes live in ``toolparse/cli/_demo.py``.
"""

from toolparse.cli._demo import main

if __name__ == "__main__":
    main()
