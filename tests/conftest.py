from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))

from tiny_engine import ENGINE, KIT_ENGINE  # noqa: E402

from rulepress.games import register_engine  # noqa: E402

register_engine("tiny_race", ENGINE)
register_engine("tiny_kit", KIT_ENGINE)
