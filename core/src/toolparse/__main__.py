"""``python -m toolparse``: the same as the ``toolparse`` command."""

from .cli import main

raise SystemExit(main())
