"""A designer's engine raising (at import, replaying an example, playing a simulated game) is an
error at the line of her code that raised, exit 2, never a traceback; rulepress's own
exceptions keep theirs."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest
import support

from rulepress.diagnostics import SourceLoc
from rulepress.games.fault import described, raised_at
from rulepress.project import CONFIG

ROOTS = Path(__file__).parent / "fixtures" / "roots"


def run(*args: str) -> tuple[int, str]:
    code, said = support.run(*args)
    assert "Traceback" not in said, said
    return code, said


def changed_engine(scaffolded: Path, tmp_path: Path, after: str, added: str) -> tuple[Path, int]:
    """A copy of the project whose engine runs ``added`` (indented as the line ``after``)
    right after that line; the copy and the added line's number."""
    project = tmp_path / "p"
    shutil.copytree(scaffolded, project)
    engine = project / "engines" / "pig_dice.py"
    lines = engine.read_text().splitlines()
    at = next(n for n, text in enumerate(lines) if text.strip() == after)
    indent = re.match(r"\s*", lines[at])[0]  # type: ignore[index]
    lines.insert(at + 1, indent + added)
    engine.write_text("\n".join(lines) + "\n")
    return project, at + 2


@pytest.mark.parametrize(("text", "line", "said"), [
    ("ENGINE = 1\ndef broken(:\n", 2, "SyntaxError: invalid syntax"),
    ("import json\nENGINE = json.loads('{oops')\n", 2, "JSONDecodeError: Expecting property"),
])
def test_an_engine_that_fails_to_load_is_an_error_at_its_line(
        tmp_path: Path, text: str, line: int, said: str) -> None:
    project = tmp_path / "p"
    shutil.copytree(ROOTS / "good" / "tiny", project / "sources" / "g")
    rules = project / "sources" / "g" / "rules.md"
    rules.write_text(rules.read_text().replace("engine: tiny_race", "engine: engines/g.py"))
    (project / CONFIG).write_text('title = "t"\n')
    (project / "engines").mkdir()
    engine = project / "engines" / "g.py"
    engine.write_text(text)
    code, err = run("check", "--project", str(project))
    assert code == 2, err
    assert re.search(rf"^{re.escape(str(engine.resolve()))}:{line}:\d+: error: engine module "
                     rf"'engines/g.py' failed to load: {said}", err, re.M), err


def test_an_engine_raising_on_an_example_is_an_error_at_its_line_for_each_example(
        scaffolded: Path, tmp_path: Path) -> None:
    project, line = changed_engine(scaffolded, tmp_path, "state = State(tuple(banked))",
                                   "1 / 0")
    engine = (project / "engines" / "pig_dice.py").resolve()
    rules = project / "sources" / "pig-dice" / "rules.md"
    code, err = run("check", "--project", str(project))
    assert code == 2, err
    raised = re.findall(rf"^{re.escape(str(engine))}:{line}:1: error: the pig_dice engine raised "
                        rf"ZeroDivisionError: division by zero while replaying ([\w-]+) "
                        rf"\({re.escape(str(rules))}:(\d+):1\)$", err, re.M)
    text = rules.read_text().splitlines()
    assert [name for name, _ in raised] == ["bank-after-two", "lose-the-turn"], err
    for name, at in raised:  # each names its example's own line
        assert text[int(at) - 1] == "```example" and text[int(at)] == f"id: {name}"
    code, err = run("build", "--project", str(project), "--jobs", "1")
    assert code == 2 and err.count("ZeroDivisionError") == 2, err
    assert not (project / "build").exists()


def test_an_engine_raising_in_a_simulated_game_is_an_error_at_its_line(
        scaffolded: Path, tmp_path: Path) -> None:
    project, line = changed_engine(
        scaffolded, tmp_path, '"""Keep rolling until the turn total reaches 20 (or would win), '
        'then hold."""', "assert state.turn() < 3, 'a bug'")
    engine = (project / "engines" / "pig_dice.py").resolve()
    for jobs in ("1", "2"):
        code, err = run("simulate", "pig-dice", "--project", str(project), "-n", "20",
                        "-a", "hold-at-20", "--jobs", jobs, "-q")
        assert code == 2, err
        assert re.fullmatch(rf"{re.escape(str(engine))}:{line}:1: error: pig-dice game 0 "
                            r"\(2 players, standard, seed \d+\): the pig_dice engine raised "
                            r"AssertionError: a bug\n", err), err


def load(path: Path, text: str) -> object:
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_line_blamed_is_the_engines_own_not_a_library_nor_rulepress(tmp_path: Path) -> None:
    module = load(tmp_path / "plugin.py", "import json\n\ndef parse(text):\n"
                                          "    return json.loads(text)\n")
    with pytest.raises(ValueError) as caught:
        module.parse("{")  # type: ignore[attr-defined]
    assert raised_at(caught.value) == SourceLoc(tmp_path / "plugin.py", 4)
    assert described(caught.value).startswith("JSONDecodeError: Expecting property name")

    from rulepress.document.slug import slugify

    with pytest.raises(Exception) as ours:  # rulepress's own code raised last: its bug
        slugify(None)  # type: ignore[arg-type]
    assert raised_at(ours.value) is None
    assert described(ValueError("x" * 1000)).endswith("…")
    assert len(described(ValueError("x" * 1000))) < 340
