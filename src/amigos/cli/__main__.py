"""`python -m amigos.cli` runs the `amigos` command."""

import sys

from amigos.cli import main

sys.exit(main())
