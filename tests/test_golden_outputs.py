"""Every bundled HTML page, index and kit, byte for byte, against tests/golden/outputs.sha256:
a change of what users get is made on purpose (regenerate with ``pytest --update-golden``),
never as a side effect of reshaping the code. The book PDFs are left to the reproducibility
tests (two builds, same bytes): WeasyPrint's text shaping comes from the system's Pango and
HarfBuzz, which a lock file does not pin."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from support import run

pytestmark = pytest.mark.slow  # every bundled output built

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden" / "outputs.sha256"


def _digests(folder: Path, prefix: str) -> dict[str, str]:
    return {f"{prefix}/{p.relative_to(folder).as_posix()}":
            hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and ".rulepress" not in p.relative_to(folder).parts}


def test_bundled_pages_and_kits_are_the_golden_bytes(
        tmp_path: Path, update_golden: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # As `make` runs them: a build sets SOURCE_DATE_EPOCH in its process, which dates a kit.
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    for command, extra in (("pnp", []), ("pnp", ["--sides", "one"]),
                           ("build", ["--no-pdf", "--booklet"])):
        code, err = run(command, "--project", str(ROOT), "--out", str(tmp_path / command),
                        *extra)
        assert code == 0, err
    made = _digests(tmp_path / "build", "build") | _digests(tmp_path / "pnp", "pnp")
    text = "".join(f"{sha}  {name}\n" for name, sha in sorted(made.items()))
    if update_golden:
        GOLDEN.write_text(text)
    golden = dict(reversed(line.split("  ", 1)) for line in GOLDEN.read_text().splitlines())
    changed = sorted(n for n in made.keys() | golden.keys() if made.get(n) != golden.get(n))
    assert not changed, (f"outputs differ from {GOLDEN.relative_to(ROOT)}: {changed}; if on "
                         "purpose, run pytest tests/test_golden_outputs.py --update-golden")
