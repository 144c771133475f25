"""``python -m toolparse``: the same as the ``toolparse`` command."""

from .cli import main

# guarded: a process pool's workers started by "spawn" import the main module again
if __name__ == "__main__":
    raise SystemExit(main())
