"""``python -m arbiter_referee``: the ``arbiter`` command."""

import sys

from arbiter_referee.cli import main

sys.exit(main())
