"""Every generator's part of the check, for the commands that check a game whole: `check`,
and `build`, `pnp`, `export` and `simulate`, each of which stops on what would stop the
others (a broken reference stops a kit too)."""

from __future__ import annotations

from rulepress.books import CHECKS as BOOKS
from rulepress.pnp.checks import CHECKS as KITS
from rulepress.validate.check import Checks


def every() -> Checks:
    return BOOKS | KITS
