"""``python -m verifier`` is ``fcv``."""

import sys

from verifier.cli import main

sys.exit(main())
