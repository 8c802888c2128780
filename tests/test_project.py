"""Projects: rulepress.toml, `rulepress new`, engines from the project, multi-file rulebooks."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import support
from pypdf import PdfReader

from rulepress.diagnostics import RulepressError
from rulepress.project import CONFIG, Project, load_project

ROOT = Path(__file__).resolve().parents[1]
ROOTS = Path(__file__).parent / "fixtures" / "roots"


@pytest.fixture
def cwd(tmp_path: Path) -> Iterator[Path]:
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(before)


def run(*args: str) -> tuple[int, str]:
    code, said = support.run(*args)
    assert "Traceback" not in said
    return code, said


# --- rulepress.toml ---------------------------------------------------------------------------


def test_no_config_means_the_current_folder_with_the_defaults(cwd: Path) -> None:
    project = load_project()
    assert project == Project(cwd.resolve(), None)
    assert project.path(project.sources) == cwd.resolve() / "sources"


def test_a_config_saved_with_a_byte_order_mark_is_read(cwd: Path) -> None:
    (cwd / CONFIG).write_text('\ufefftitle = "My games"\n', encoding="utf-8")
    assert load_project().title == "My games"


def test_every_key_is_read_and_found_from_a_subfolder(cwd: Path) -> None:
    (cwd / CONFIG).write_text(
        'title = "My games"\nsources = "rules"\nbuild = "out/books"\npnp = "out/kits"\n'
        'papers = ["letter"]\neditions = ["reference", "player"]\ngames = ["b", "a"]\n'
    )
    (cwd / "rules" / "deep").mkdir(parents=True)
    project = load_project(cwd=cwd / "rules" / "deep")
    assert project == Project(
        cwd.resolve(), cwd.resolve() / CONFIG, "My games", Path("rules"), Path("out/books"),
        Path("out/kits"), ("letter",), ("player", "reference"), ("b", "a"),
    )


@pytest.mark.parametrize(("text", "expected"), [
    ('title = "x"\n\nsourcse = "s"\n',
     "rulepress.toml:3:1: error: unknown key 'sourcse' (did you mean 'sources'?)"),
    ('papers = ["a5"]\n', "rulepress.toml:1:1: error: 'papers' must be a list of papers: a4, "
                          "letter, not ['a5']"),
    ('title = "x"\ngames = "pig"\n', "rulepress.toml:2:1: error: 'games' must be a list of game "
                                     "folder names, not 'pig'"),
    ('title = "x"\nbuild = \n', "rulepress.toml:2:9: error: rulepress.toml is not valid TOML"),
    ('title = "x"\n\ngames = [' + "9" * 5000 + "]\n",
     "rulepress.toml:3:1: error: rulepress.toml cannot be read: a whole number of more than 500 "
     "digits"),
    ("title = 0x" + "f" * 5000 + "\n",  # read, but past Python's limit to print it (a traceback)
     "rulepress.toml:1:1: error: 'title': a whole number of more than 500 digits"),
    ('[x]\ny = [[1, 2], {z = 1' + "0" * 500 + "}]\n",
     "rulepress.toml:1:1: error: 'x': a whole number of more than 500 digits"),
    ("x = " + "[" * 5000 + "]" * 5000 + "\n",
     "rulepress.toml:1:1: error: rulepress.toml cannot be read: nested too deeply"),
    ('title = "x"\n[limits]\nengine_seconds = 0\n',
     "rulepress.toml:2:1: error: 'limits' must be a table of engine_seconds (CPU seconds above "
     "0, at most 3600) and engine_memory_mb (a whole number of MB, 16 to 1048576), not "
     "{'engine_seconds': 0}"),
    ('[limits]\nengine_memory_mb = 1.5\n', "rulepress.toml:1:1: error: 'limits' must be"),
    ('[limits]\nengine_memory_mb = 8\n', "rulepress.toml:1:1: error: 'limits' must be"),
    ('[limits]\nengine_seconds = nan\n', "rulepress.toml:1:1: error: 'limits' must be"),
    ('[limits]\nengine_secs = 3\n', "rulepress.toml:1:1: error: 'limits' must be"),
    ('limits = 3\n', "rulepress.toml:1:1: error: 'limits' must be"),
])
def test_a_bad_config_is_an_error_at_its_line(cwd: Path, text: str, expected: str) -> None:
    (cwd / CONFIG).write_text(text)
    code, err = run("check")
    assert code == 2
    first = err.splitlines()[0].replace(str(cwd.resolve()) + "/", "")
    assert first.startswith(expected), first


def test_limits_set_the_engines_budget(cwd: Path) -> None:
    (cwd / CONFIG).write_text("[limits]\nengine_seconds = 2.5\nengine_memory_mb = 300\n")
    project = load_project(cwd=cwd)
    assert (project.engine_seconds, project.engine_memory_mb) == (2.5, 300)
    (cwd / CONFIG).write_text("[limits]\nengine_seconds = 3\n")
    assert (load_project(cwd=cwd).engine_seconds, load_project(cwd=cwd).engine_memory_mb) == (
        3.0, 1024)


def test_project_option_needs_a_config(cwd: Path) -> None:
    code, err = run("check", "--project", str(cwd))
    assert code == 2
    assert f"no {CONFIG} in" in err


def test_commands_use_the_project_folders(cwd: Path) -> None:
    shutil.copytree(ROOTS / "good", cwd / "rules")
    (cwd / CONFIG).write_text('sources = "rules"\nbuild = "books"\npapers = ["a4"]\n'
                              'title = "Our shelf"\neditions = ["player"]\n')
    code, err = run("build", "--jobs", "1")
    assert code == 0, err
    assert sorted(p.name for p in (cwd / "books" / "tiny").iterdir()) == [
        "tiny-a4.pdf", "tiny.html"]
    assert "<title>Our shelf</title>" in (cwd / "books" / "index.html").read_text()


_APART = ": the sources and each output folder must be folders of their own, none inside another"


@pytest.mark.parametrize(("config", "command", "expected"), [
    ('build = "build"\npnp = "build"\n', ["check"],
     'rulepress.toml:2:1: error: pnp = "build" is the same folder as build = "build" (line 1)'),
    ('pnp = "kits"\nbuild = "kits/books"\n', ["pnp"],
     'rulepress.toml:2:1: error: build = "kits/books" is inside pnp = "kits" (line 1)'),
    ('build = "sources/out"\n', ["build"],
     'rulepress.toml:1:1: error: build = "sources/out" is inside sources (by default "sources")'),
    ('sources = "src"\nbuild = "."\n', ["build"],
     'rulepress.toml:2:1: error: build = "." holds sources = "src" (line 1)'),
    ('sources = "src"\n', ["build", "--out", "src/tiny/out"],
     'rulepress: error: --out src/tiny/out is inside sources = "src" (rulepress.toml:1)'),
    ("", ["pnp", "--out", "build"],
     'rulepress: error: --out build is the same folder as build (by default "build")'),
    ("", ["build", "--out", "."],
     'rulepress: error: --out . holds sources (by default "sources")'),
    ("", ["check", "--sources", "pnp/games"],
     'rulepress: error: --sources pnp/games is inside pnp (by default "pnp")'),
    ("", ["simulate", "tiny", "--out", "sources"],
     'rulepress: error: --out sources is the same folder as sources (by default "sources")'),
    ("", ["simulate", "tiny", "--out", "pnp"],
     'rulepress: error: --out pnp is the same folder as pnp (by default "pnp")'),
    ("", ["simulate", "tiny", "--out", "sources/tiny"],
     "rulepress: error: --out sources/tiny is inside sources (by default \"sources\"): it would be "
     "a game's folder; write into a folder inside the game's (sources/tiny/playtest for a "
     "playtest report)"),
])
def test_the_sources_and_output_folders_must_be_apart(
        cwd: Path, config: str, command: list[str], expected: str) -> None:
    """One folder for two purposes (kits and rulebooks overwriting each other, a build written
    into the sources) is an error naming both and where each was set, before anything runs."""
    shutil.copytree(ROOTS / "good", cwd / ("src" if "src" in config else "sources"))
    (cwd / CONFIG).write_text(config)
    before = sorted(p.relative_to(cwd) for p in cwd.rglob("*"))
    code, err = run(*command)
    assert code == 2, err
    first = err.splitlines()[0].replace(str(cwd.resolve()) + "/", "")
    assert first == (expected if "game's" in expected else expected + _APART), first
    assert sorted(p.relative_to(cwd) for p in cwd.rglob("*")) == before


# --- rulepress new ------------------------------------------------------------------------------


def test_new_makes_a_project_with_a_game_and_its_engine(scaffolded: Path) -> None:
    files = sorted(str(p.relative_to(scaffolded)) for p in scaffolded.rglob("*") if p.is_file())
    assert files == [".gitignore", "engines/pig_dice/__init__.py", "engines/pig_dice/agents.py",
                     "engines/pig_dice/examples.py", "engines/pig_dice/rules.py", "rulepress.toml",
                     "sources/pig-dice/images/die.svg", "sources/pig-dice/layouts/score-pad.yml",
                     "sources/pig-dice/rules.md"]
    rules = (scaffolded / files[-1]).read_text()
    assert "engine: engines/pig_dice/__init__.py:ENGINE" in rules
    assert "front: layouts/score-pad.yml" in rules  # the kit's card needs no code


@pytest.mark.slow  # a project built and printed end to end
def test_the_new_project_proves_builds_and_prints_with_its_own_engine(scaffolded: Path) -> None:
    code, err = run("check", "--project", str(scaffolded))
    assert code == 0 and err.strip().endswith("2 proven, 0 failed, 0 not checkable"), err
    code, err = run("build", "--project", str(scaffolded), "--paper", "a4", "--jobs", "1")
    assert code == 0, err
    html = (scaffolded / "build" / "pig-dice" / "pig-dice.html").read_text()
    assert "She rolls twice and holds: she now has\n19 points" in html
    code, err = run("pnp", "--project", str(scaffolded), "--paper", "a4")
    assert code == 0, err
    kit = PdfReader(scaffolded / "pnp" / "pig-dice" / "pig-dice-a4.pdf")
    # After the cover (a front-only kit has no duplex test page).
    pad = [page.extract_text() for page in kit.pages[1:] if "score pad" in page.extract_text()]
    assert pad and all(f"P{seat}" in pad[0] for seat in range(1, 7))  # a column per player


def test_a_wrong_claim_in_the_new_project_is_disproved(scaffolded: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(scaffolded, copy)
    rules = copy / "sources" / "pig-dice" / "rules.md"
    rules.write_text(rules.read_text().replace("banked: [19, 0]", "banked: [20, 0]"))
    code, err = run("check", "--project", str(copy))
    assert code == 1
    assert re.search(r"rules.md:\d+:1: error: bank-after-two: claims banked = \[20, 0\], "
                     r"the rules give \[19, 0\]", err), err


def test_new_refuses_a_bad_name_or_an_existing_folder(cwd: Path) -> None:
    assert run("new", "Bad Name")[0] == 2
    (cwd / "taken").mkdir()
    code, err = run("new", "taken")
    assert code == 2 and "already exists" in err
    assert sorted(p.name for p in cwd.iterdir()) == ["taken"]  # nothing half-made
    (cwd / "linked").symlink_to(cwd / "nowhere")  # a link leading nowhere is taken too
    code, err = run("new", "linked")
    assert code == 2 and "already exists" in err, err
    assert sorted(p.name for p in cwd.iterdir()) == ["linked", "taken"]


# --- engines ------------------------------------------------------------------------------------


def game_with_engine(project: Path, engine: str) -> Path:
    game = project / "sources" / "g"
    shutil.copytree(ROOTS / "good" / "tiny", game)
    rules = game / "rules.md"
    rules.write_text(rules.read_text().replace("engine: tiny_race", f"engine: {engine}"))
    (project / CONFIG).write_text('title = "t"\n')
    return rules


def test_an_engine_module_outside_the_project_is_refused(tmp_path: Path) -> None:
    project = tmp_path / "p"
    outside = tmp_path / "evil.py"
    outside.write_text("raise SystemExit('ran code from outside the project')\n")
    rules = game_with_engine(project, "../evil.py:ENGINE")
    code, err = run("check", "--project", str(project))
    assert code == 2
    assert f"{rules}:6:1: error: engine module '../evil.py' is outside the project folder" in err


def test_an_engine_module_without_its_attribute(tmp_path: Path) -> None:
    project = tmp_path / "p"
    rules = game_with_engine(project, "engines/g.py:GAME")
    (project / "engines").mkdir()
    (project / "engines" / "g.py").write_text("ENGINE = None\n")
    code, err = run("check", "--project", str(project))
    assert code == 2
    assert f"{rules}:6:1: error: engine module 'engines/g.py' has no game engine 'GAME'" in err


def test_an_unknown_engine_name_suggests_the_nearest(tmp_path: Path) -> None:
    project = tmp_path / "p"
    rules = game_with_engine(project, "pigeon-race")
    code, err = run("check", "--project", str(project))
    assert code == 2
    assert f"{rules}:6:1: error: no engine named 'pigeon-race' (did you mean 'pigeon_race'?)" in err
    listed = re.search(r"installed engines: ([^;]+);", err)
    assert listed and {"go_stop", "pigeon", "pigeon_race", "worm_derby"} <= set(
        listed[1].split(", "))


# --- several Markdown files -------------------------------------------------------------------


def split_game(tmp_path: Path, files: str) -> Path:
    game = tmp_path / "sources" / "g"
    shutil.copytree(ROOTS / "good" / "tiny", game)
    rules = game / "rules.md"
    text = rules.read_text()
    body_at = text.index("## A turn")
    rules.write_text(text[:body_at].replace("engine: tiny_race", f"engine: tiny_race\n{files}"))
    (game / "turn.md").write_text(text[body_at:])
    return game


def test_a_rulebook_in_two_files_reads_in_order(tmp_path: Path) -> None:
    game = split_game(tmp_path, "files: [turn.md]")
    turn = game / "turn.md"
    turn.write_text(turn.read_text().replace("  at: 7", "  at: 9"))
    code, err = run("check", "--sources", str(tmp_path / "sources"))
    assert code == 1
    assert re.search(rf"{game}/turn\.md:\d+:1: error: three-steps: claims at = 9", err), err
    out = tmp_path / "out"
    turn.write_text(turn.read_text().replace("  at: 9", "  at: 7"))
    code, err = run("build", "--sources", str(tmp_path / "sources"), "--out", str(out),
                    "--paper", "a4", "--jobs", "1")
    assert code == 0, err
    html = (out / "g" / "g.html").read_text()
    assert html.index('id="goal"') < html.index('id="a-turn"') < html.index("example-three-steps")


@pytest.mark.parametrize(("files", "message"), [
    ("files: [../../elsewhere.md]", "'../../elsewhere.md' is not inside the game's folder"),
    ("files: [missing.md]", "'missing.md' does not exist in g/"),
    ("files: [turn.md, turn.md]", "'turn.md' is named twice"),
    ("files: [rules.md]", "'rules.md' is named twice"),
    ("files: [notes.txt]", "'notes.txt' is not a Markdown file (.md)"),
    ("files: turn.md", "files must be a list of Markdown file names"),
])
def test_bad_files_are_errors_at_their_line(tmp_path: Path, files: str, message: str) -> None:
    game = split_game(tmp_path, files)
    (game / "notes.txt").write_text("x")
    code, err = run("check", "--sources", str(tmp_path / "sources"))
    assert code == 2
    assert f"{game}/rules.md:7:1: error: {message}" in err, err


# --- the exit codes -------------------------------------------------------------------------


def readme_exit_codes() -> dict[int, str]:
    readme = (ROOT / "README.md").read_text()
    return {int(code): meaning for code, meaning in
            re.findall(r"^\| `(\d+)` \| ([^|]+?) \|$", readme, re.M)}


def test_the_readme_states_the_exit_code_table_the_code_uses() -> None:
    from rulepress.diagnostics import ExitStatus

    table = readme_exit_codes()
    assert set(table) == {int(s) for s in ExitStatus}
    assert "disproved" in table[1] and "bad input" in table[2]


@pytest.mark.parametrize(("tree", "status"), [("good", 0), ("disproved", 1), ("bad-mixed", 2)])
def test_every_command_gives_the_same_exit_code(tree: str, status: int, tmp_path: Path) -> None:
    sources = ["--sources", str(ROOTS / tree)]
    assert run("check", *sources)[0] == status
    code, _ = run("build", *sources, "--out", str(tmp_path / "b"), "--paper", "a4", "-j", "1")
    assert code == status
    assert run("pnp", *sources, "--out", str(tmp_path / "p"), "--paper", "a4")[0] == status
    if status:
        assert not (tmp_path / "b").exists() and not (tmp_path / "p").exists()


def test_an_unknown_project_error_is_not_a_traceback() -> None:
    with pytest.raises(RulepressError, match="no rulepress.toml"):
        load_project(Path("/nonexistent-folder"))


def test_a_config_byte_that_is_not_utf8_is_an_error_at_its_line(cwd: Path) -> None:
    (cwd / CONFIG).write_bytes(b'title = "x"\n\nsources = "caf\xe9"\n')
    code, err = run("check")
    assert code == 2
    assert err.splitlines()[0].replace(str(cwd.resolve()) + "/", "") == (
        "rulepress.toml:3:1: error: not UTF-8 text (byte 0xe9); save it as UTF-8")
