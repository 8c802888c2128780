"""``rulepress new NAME``: a project folder with one game, a proven example, a printed component
drawn from a layout file, and a tiny engine beside it (a package shaped as the bundled games
are), to start from."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from importlib.resources import files
from pathlib import Path
from string import Template

from rulepress.diagnostics import RulepressError

NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\Z")
# template file -> where it goes in the new project ($name and $module are substituted)
FILES = {
    "rulepress.toml.tmpl": "rulepress.toml",
    "gitignore.tmpl": ".gitignore",
    "rules.md.tmpl": "sources/$name/rules.md",
    "__init__.py.tmpl": "engines/$module/__init__.py",  # the engine, shaped as the bundled games
    "rules.py.tmpl": "engines/$module/rules.py",
    "examples.py.tmpl": "engines/$module/examples.py",
    "agents.py.tmpl": "engines/$module/agents.py",
    "score-pad.yml.tmpl": "sources/$name/layouts/score-pad.yml",
    "die.svg.tmpl": "sources/$name/images/die.svg",  # the score pad's title shows it: :die:
}


def new_project(name: str, parent: Path) -> Path:
    """Create ``parent/name`` whole, or nothing (RulepressError when it cannot)."""
    if not NAME.match(name):
        raise RulepressError.at(None, f"'{name}' is not a project name: use lower-case letters, "
                                      "digits and single hyphens, starting with a letter")
    folder = parent / name
    if os.path.lexists(folder):  # a link too, even one leading nowhere
        raise RulepressError.at(None, f"{folder} already exists; choose another name")
    values = {"name": name, "module": name.replace("-", "_"),
              "title": name.replace("-", " ").title()}
    stage = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=parent))
    stage.chmod(0o755)  # mkdtemp makes it private; a project folder is an ordinary one
    try:
        for template, target in FILES.items():
            text = (files(__package__) / template).read_text(encoding="utf-8")
            out = stage / Template(target).substitute(values)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(Template(text).substitute(values), encoding="utf-8")
        stage.rename(folder)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return folder
