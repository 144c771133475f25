"""``python -m toolparse.cli``: kept so that older scripts keep working."""

from . import main

# guarded: a process pool's workers started by "spawn" import the main module again
if __name__ == "__main__":
    raise SystemExit(main())
