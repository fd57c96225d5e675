"""``python -m games``: see ``games/cli.py``."""

from games.cli import main

raise SystemExit(main())
