"""``python -m ascend_xent <subcommand>``: the same as the ``ascend-xent`` command."""

import sys

from .cli import main

sys.exit(main())
