"""``python -m toolparse.cli``: kept so that older scripts keep working."""

from ._main import main

raise SystemExit(main())
