"""``python -m hall.app``: the same as the ``loto-hall`` command."""

import sys

from hall.app.cli import main

sys.exit(main())
