"""A designer's engine raising (at import, replaying an example, playing a simulated game) is an
error at the line of her code that raised, exit 2, never a traceback; rulepress's own
exceptions keep theirs. A value of the wrong shape it returns is an error at the def of the
method that returned it."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import support

from rulepress.diagnostics import SourceLoc
from rulepress.games.fault import described, raised_at
from rulepress.project import CONFIG

pytestmark = pytest.mark.slow  # engines that loop, crash and exit, in worker processes

ROOTS = Path(__file__).parent / "fixtures" / "roots"


def run(*args: str) -> tuple[int, str]:
    code, said = support.run(*args)
    assert "Traceback" not in said, said
    return code, said


def changed_engine(scaffolded: Path, tmp_path: Path, after: str, added: str) -> tuple[Path, int]:
    """A copy of the project whose engine runs ``added`` (indented as the line ``after``)
    right after that line; the module changed and the added line's number."""
    project = tmp_path / "p"
    shutil.copytree(scaffolded, project)
    engine = next(p for p in sorted((project / "engines" / "pig_dice").glob("*.py"))
                  if after in (t.strip() for t in p.read_text().splitlines()))
    lines = engine.read_text().splitlines()
    at = next(n for n, text in enumerate(lines) if text.strip() == after)
    indent = re.match(r"\s*", lines[at])[0]  # type: ignore[index]
    lines.insert(at + 1, indent + added)
    engine.write_text("\n".join(lines) + "\n")
    return engine, at + 2


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
    engine, line = changed_engine(scaffolded, tmp_path, "state = State(tuple(banked))",
                                  "1 / 0")
    project, engine = tmp_path / "p", engine.resolve()
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
    engine, line = changed_engine(
        scaffolded, tmp_path, '"""Keep rolling until the turn total reaches 20 (or would win), '
        'then hold."""', "assert state.turn() < 3, 'a bug'")
    project, engine = tmp_path / "p", engine.resolve()
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


# An engine returning a value of the wrong shape. The code is added to the scaffolded engine's
# module: methods of its engine, rules or states (BadEngine, BadRules, BadState), and functions.
BROKEN = '''

import dataclasses as _dataclasses
{module}


class BadState(State):
    pass
{state}


class BadRules(Rules):
    def new_game(self, players, seed, variant=None):
        return BadState(super().new_game(players, seed, variant).banked)
{rules}


def _bad_rules():
    return BadRules()


_BEFORE = dict(globals())
{engine}


_PARTS = ("rules", "replay", "facts", "figures", "component_counts", "drawers", "tables",
          "agents", "questions")
ENGINE = _dataclasses.replace(ENGINE, **{{"rules": _bad_rules, **{{
    name: part for name, part in globals().items()
    if name in _PARTS and part is not _BEFORE.get(name)}}}})
'''

CHECK, BUILD, PNP = ("check",), ("build", "--jobs", "1"), ("pnp",)
SIMULATE = ("simulate", "pig-dice", "-n", "20", "--jobs", "1", "-q")
COUNTS = "component_counts() must return a mapping of component id to a whole number; it returned"
STATE = "must return a game state, with current_player(), legal_moves(), chance_outcomes()"
FIGURES = "figures() must return a list of Figure(caption, svg), both text"
QUESTIONS = "questions() must return a list of Question(name, text, ask, kind)"
# name: (command, code by place, the def to blame, what follows "the pig_dice engine's", "…"
# standing for any text)
MALFORMED = {
    "a count as text": (
        CHECK, {"engine": "def component_counts():\n    return {'die': 'one'}"},
        "component_counts",
        f"{COUNTS} {{'die': 'one'}}, whose 'die' is 'one', while counting its components"),
    "counts as a list": (
        CHECK, {"engine": "def component_counts():\n    return ['die']"},
        "component_counts", f"{COUNTS} ['die'], while counting its components"),
    "a drawer not a function": (
        CHECK, {"engine": "def drawers():\n    return {'pad': 3}"},
        "drawers", "drawers() must return a mapping of drawer name to a function drawing a "
                   "face; it returned {'pad': 3}, whose 'pad' is 3, while drawing its kit"),
    "a drawer not a function, printing the kit": (
        PNP, {"engine": "def drawers():\n    return {'pad': 3}"},
        "drawers", "drawers() must return a mapping of drawer name to a function"),
    "a table of numbers": (
        CHECK, {"engine": "def tables():\n    return {'scores': [1, 2]}"},
        "tables", "tables() must return a mapping of table name to a list of rows, each a "
                  "mapping of field to value; it returned {'scores': [1, 2]}"),
    "facts as a list": (
        CHECK, {"engine": "def facts(state):\n    return [1, 2]"},
        "facts", "facts() must return a mapping of fact name to value; it returned "
                    "[1, 2], while replaying bank-after-two"),
    "no facts": (
        CHECK, {"engine": "def facts(state):\n    return None"},
        "facts", "facts() must return a mapping of fact name to value; it returned None, "
                    "while replaying bank-after-two"),
    "figures as text": (
        BUILD, {"engine": "def figures(replay, example):\n    return ['<svg/>']"},
        "figures", f"{FIGURES}…it returned ['<svg/>'], whose [0] is '<svg/>', while drawing "
                    "bank-after-two"),
    "a figure's svg not text": (
        BUILD, {"module": "from rulepress.plugin import Figure",
                "engine": "def figures(replay, example):\n    return [Figure('a die', 3)]"},
        "figures", f"{FIGURES}…whose [0] is Figure(caption='a die', svg=3)"),
    "rules without new_game": (
        SIMULATE, {"engine": "def rules():\n    return object()"},
        "rules", "rules() must return None or the game's Rules…which has no new_game()"),
    "no variant": (
        SIMULATE, {"rules": "def variants(self):\n    return []"},
        "variants", "BadRules.variants() must return a list of Variant(name, description)"),
    "no state": (
        SIMULATE, {"rules": "def new_game(self, players, seed, variant=None):\n    return None"},
        "new_game", f"BadRules.new_game() {STATE}…it returned None"),
    "an agent not a pair": (
        SIMULATE, {"engine": "def agents():\n    return {'hold': hold_at_20}"},
        "agents", "agents() must return a mapping of agent name to (a line saying how it "
                  "plays, the agent function); it returned {'hold': <function hold_at_20"),
    "a question as text": (
        SIMULATE, {"engine": "def questions():\n    return ['how often?']"},
        "questions", f"{QUESTIONS}…it returned ['how often?']"),
    "a question of no kind": (
        SIMULATE, {"module": "from rulepress.plugin import Question",
                   "engine": "def questions():\n"
                             "    return [Question('q', 'Who?', lambda moves, end: 1, 'median')]"},
        "questions", f"{QUESTIONS}…whose [0] is of kind 'median'"),
    "an answer as text": (
        SIMULATE, {"module": "from rulepress.plugin import Question\n\n\n"
                             "def ask(moves, end):\n    return 'yes'",
                   "engine": "def questions():\n    return [Question('q', 'Who?', ask)]"},
        "ask", "question 'q' must answer True, False, a number or None…it answered 'yes'"),
    "legal moves as an iterator": (
        SIMULATE, {"state": "def legal_moves(self):\n    return iter(super().legal_moves())"},
        "legal_moves", "BadState.legal_moves() must return a list (or a tuple) of moves…it "
                       "returned <tuple_iterator"),
    "no legal move": (
        SIMULATE, {"state": "def legal_moves(self):\n    return ()"},
        "legal_moves", "BadState.legal_moves() must return a list (or a tuple) of moves, not "
                       "empty while the game is not over; it returned ()"),
    "no chance outcome": (
        SIMULATE, {"state": "def chance_outcomes(self):\n    return []"},
        "chance_outcomes", "BadState.chance_outcomes() must return a list of (outcome, "
                           "probability) pairs, not empty at a chance node; it returned []"),
    "a seat out of range": (
        SIMULATE, {"state": "def current_player(self):\n    return 7"},
        "current_player", "BadState.current_player() must return the seat to act, 0 to 1, or "
                          "CHANCE (-1); it returned 7"),
    "no outcome when over": (
        SIMULATE, {"state": "def outcome(self):\n    return None"},
        "outcome", "BadState.outcome() must return an Outcome once is_over()…it returned None"),
    "a winner out of range": (
        SIMULATE, {"module": "from rulepress.plugin import Outcome",
                   "state": "def outcome(self):\n    end = super().outcome()\n"
                            "    return end and Outcome((-1,), end.scores, end.reason)"},
        "outcome", "BadState.outcome() must return an Outcome once is_over(), None before: "
                   "winners among seats 0 to 1…it returned Outcome(winners=(-1,)"),
    "apply gives nothing": (
        SIMULATE, {"state": "def apply(self, move):\n    return None"},
        "apply", f"BadState.apply() {STATE}…it returned None"),
    "no turn count": (
        SIMULATE, {"state": "def turn(self):\n    return None"},
        "turn", "BadState.turn() must return the turns completed, a whole number; it returned "
                "None"),
    "an agent's move not a legal one": (
        SIMULATE + ("-a", "jumper"),
        {"module": "def jumper(state, rng):\n    return 'hold'",
         "engine": "def agents():\n    return {'jumper': ('holds', jumper)}"},
        "jumper", "agent 'jumper' must return one of state.legal_moves(); it returned 'hold'; "
                  "the legal moves were (Move.parse('roll'), Move.parse('hold'))"),
    "an invariant not a sentence": (
        SIMULATE + ("--check",),
        {"rules": "def invariants(self, state):\n    return [1] if state.turns > 2 else []"},
        "invariants", "BadRules.invariants() must return a list of sentences…it returned [1]"),
}


def placed(added: dict[str, str]) -> dict[str, str]:
    """The code of each place; methods of a class indented, functions of the module not."""
    return {place: textwrap.indent(added.get(place, ""), "    " if place in ("state", "rules")
                                   else "") for place in ("module", "state", "rules", "engine")}


def files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if "__pycache__" not in p.parts}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_an_engine_value_of_the_wrong_shape_is_an_error_at_its_def(
        scaffolded: Path, tmp_path: Path, case: str) -> None:
    command, added, method, said = MALFORMED[case]
    project = tmp_path / "p"
    shutil.copytree(scaffolded, project)
    engine = project / "engines" / "pig_dice" / "__init__.py"
    places = placed(added)
    engine.write_text(engine.read_text() + BROKEN.format(**places))
    lines = engine.read_text().splitlines()
    line = max(n for n, text in enumerate(lines, 1) if text.strip().startswith(f"def {method}("))
    before = files(project)
    code, err = run(command[0], "--project", str(project), *command[1:])
    assert code == 2, err
    game = r"pig-dice game 0 \(2 players, standard, seed 1\): "  # a simulated game's error
    assert re.search(rf"^{re.escape(str(engine.resolve()))}:{line}:\d+: error: ({game})?"
                     rf"the pig_dice engine's {'.*'.join(map(re.escape, said.split('…')))}",
                     err, re.M), err
    assert files(project) == before  # nothing written


REPORT = """
## Playtest report

```simulation
id: playtest
title: Four games
summary: playtest/summary.json
run: {games: 4}
text: Played.
```
"""


@pytest.mark.parametrize(("added", "method"), [
    ({"engine": "def agents():\n    return ['hold']"}, "agents"),
    ({"state": "def legal_moves(self):\n    return ()"}, "legal_moves"),
], ids=["planning the run", "replaying its games"])
def test_a_playtest_report_of_an_engine_value_of_the_wrong_shape_is_an_error_at_its_def(
        scaffolded: Path, tmp_path: Path, added: dict[str, str], method: str) -> None:
    project = tmp_path / "p"
    shutil.copytree(scaffolded, project)
    game = project / "sources" / "pig-dice"
    # The summary is made with the engine as scaffolded (a module loads once per process).
    code, err = run("simulate", "pig-dice", "--project", str(scaffolded), "-n", "4", "-q",
                    "--jobs", "1", "--out", str(game / "playtest"))
    assert code == 0, err
    (game / "rules.md").write_text((game / "rules.md").read_text() + REPORT)
    engine = project / "engines" / "pig_dice" / "__init__.py"
    places = placed(added)
    engine.write_text(engine.read_text() + BROKEN.format(**places))
    line = max(n for n, text in enumerate(engine.read_text().splitlines(), 1)
               if text.strip().startswith(f"def {method}("))
    code, err = run("check", "--project", str(project))
    assert code == 2, err
    assert re.search(rf"^{re.escape(str(engine.resolve()))}:{line}:\d+: error: the pig_dice "
                     rf"engine's .*{method}\(\) must return .*, while playing playtest "
                     rf"\({re.escape(str(game / 'rules.md'))}:\d+:1\)$", err, re.M), err


@pytest.mark.parametrize(("added", "owner", "said"), [
    ({"rules": "game_type = 'imperfect'"}, "BadRules",
     "BadRules.game_type must be PERFECT_INFORMATION or IMPERFECT_INFORMATION; it is "
     "'imperfect'"),
    ({"module": "from rulepress.games.base import IMPERFECT_INFORMATION",
      "rules": "game_type = IMPERFECT_INFORMATION"}, "BadState",
     "BadState must have view(), as its rules declare hidden information; it has none"),
], ids=["a game type as text", "hidden information without a view"])
def test_a_search_on_a_game_that_misdeclares_hidden_information_is_an_error_at_its_class(
        scaffolded: Path, tmp_path: Path, added: dict[str, str], owner: str, said: str) -> None:
    project = tmp_path / "p"
    shutil.copytree(scaffolded, project)
    engine = project / "engines" / "pig_dice" / "__init__.py"
    places = placed(added)
    engine.write_text(engine.read_text() + BROKEN.format(**places))
    line = engine.read_text().splitlines().index(f"class {owner}(" + (
        "State):" if owner == "BadState" else "Rules):")) + 1
    before = files(project)
    code, err = run(*SIMULATE[:1], "--project", str(project), *SIMULATE[1:], "-a", "ismcts:5")
    assert code == 2, err
    assert err.strip() == (f"{engine.resolve()}:{line}:1: error: the pig_dice engine's {said}")
    assert files(project) == before  # nothing written
    code, err = run(*SIMULATE[:1], "--project", str(project), *SIMULATE[1:])
    assert code == 0, "a run with no search does not look"


# --- an engine that ends, crashes or outruns its worker (workers.py) ---------------------------

HOSTILE = Path(__file__).parent / "hostile"


def hostile_project(tmp_path: Path, case: str, old: str = "", new: str = "",
                    limits: str = "") -> Path:
    """A copy of the hostile case ``case`` (a project with one game, g), its engine's ``old``
    text replaced by ``new`` and ``limits`` added to its [limits]."""
    project = tmp_path / "p"
    shutil.copytree(HOSTILE / case, project, ignore=shutil.ignore_patterns("expected.txt"))
    engine = project / "sources" / "g" / "engine.py"
    engine.write_text(engine.read_text().replace(old, new))
    if limits:
        (project / CONFIG).write_text(f"[limits]\n{limits}\n")
    return project


def test_a_stopped_worker_fails_its_example_and_the_next_is_still_proven(tmp_path: Path) -> None:
    project = hostile_project(tmp_path, "engine-os-exit", "        os._exit(0)",
                              '        if example["setup"]["at"] == 1:\n'
                              '            os._exit(0)\n'
                              '        return {"at": example["setup"]["at"] + 1}')
    rules = project / "sources" / "g" / "rules.md"
    text = rules.read_text()
    rules.write_text(text + "\n" + text[text.index("```example"):]
                     .replace("one-step", "two-steps").replace("at: 1", "at: 5")
                     .replace("at: 2", "at: 6"))
    code, err = run("check", "--project", str(project))
    assert code == 2, err
    assert err.splitlines() == [
        f"{rules}:22:1: error: the count engine ended its process (exit status 0) while "
        "replaying one-step", "1 proven, 1 failed, 0 not checkable"], err


def test_an_engine_that_waits_is_stopped_after_three_times_its_time(tmp_path: Path) -> None:
    project = hostile_project(tmp_path, "engine-os-exit", "os._exit(0)", "time.sleep(60)",
                              limits="engine_seconds = 0.2")
    engine = project / "sources" / "g" / "engine.py"
    engine.write_text("import time\n" + engine.read_text())
    started = time.monotonic()
    code, err = run("check", "--project", str(project))
    assert code == 2 and time.monotonic() - started < 10, err
    rules = project / "sources" / "g" / "rules.md"
    assert (f"{rules}:22:1: error: the count engine did not return within 0.6 s (it was "
            "waiting, not computing) while replaying one-step") in err, err


def test_an_engine_exiting_as_it_loads_or_sets_up_a_game_is_an_error_at_its_line(
        tmp_path: Path) -> None:
    project = hostile_project(tmp_path, "engine-exit-zero", "ENGINE = CountEngine()",
                              "ENGINE = CountEngine()\nraise SystemExit(0)")
    engine = (project / "sources" / "g" / "engine.py").resolve()
    line = engine.read_text().splitlines().index("raise SystemExit(0)") + 1
    code, err = run("check", "--project", str(project))
    assert code == 2, err
    assert (f"{engine}:{line}:1: error: engine module 'sources/g/engine.py' failed to load: "
            "SystemExit: 0") in err, err

    project = hostile_project(tmp_path / "2", "engine-exit-zero", "        return Rules()",
                              "        raise KeyboardInterrupt")
    engine = (project / "sources" / "g" / "engine.py").resolve()
    line = engine.read_text().splitlines().index("        raise KeyboardInterrupt") + 1
    code, err = run("simulate", "g", "--project", str(project), "-n", "2", "-q")
    assert code == 2, err
    assert err == (f"{engine}:{line}:1: error: the count engine raised KeyboardInterrupt while "
                   "setting up g\n"), err


ENV = {**os.environ, "CI": "1"}


@pytest.mark.parametrize("command", [("check",), ("simulate", "g", "-n", "4", "-j", "1")])
def test_ctrl_c_while_an_engine_loops_stops_the_command_with_130(
        tmp_path: Path, command: tuple[str, ...]) -> None:
    """A KeyboardInterrupt the engine raises is its error (exit 2); the user's Ctrl-C is not."""
    case = "engine-endless-" + ("evaluate" if command[0] == "check" else "legal-moves")
    project = hostile_project(tmp_path, case, limits="engine_seconds = 60")
    proc = subprocess.Popen([sys.executable, "-m", "rulepress.cli", *command, "--project",
                             str(project)], env=ENV, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not _children(proc.pid):  # the worker looping
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr
        time.sleep(0.05)
    workers = _children(proc.pid)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == "rulepress: stopped by SIGINT", err
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{p}").exists() for p in workers):
        assert time.monotonic() < deadline, "an engine's worker outlived the command"
        time.sleep(0.05)


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def test_a_searching_agent_gets_the_budget_afresh_for_each_playout(
        scaffolded: Path, tmp_path: Path) -> None:
    """A game of searching agents takes far longer than engine_seconds; each playout does not."""
    project = tmp_path / "p"
    shutil.copytree(scaffolded, project)
    config = project / CONFIG
    config.write_text(config.read_text() + "\n[limits]\nengine_seconds = 0.05\n")
    before = os.times()
    code, err = run("simulate", "pig-dice", "--project", str(project), "-n", "2", "-a",
                    "mcts:60", "-j", "1", "-q")
    assert code == 0, err
    after = os.times()  # the worker's CPU time: its games outlasted the budget many times over
    assert after.children_user + after.children_system - (
        before.children_user + before.children_system) > 0.5


SECOND_IMPORT = ("ENGINE = CountEngine()\nos._exit(0)\n",
                 "ENGINE = CountEngine()\nimport multiprocessing\n"
                 "if multiprocessing.parent_process() is None:  # not a worker: the command's\n")


def console(project: Path, *args: str, timeout: float = 60) -> tuple[int, str]:
    """``rulepress ARGS`` run as users run it, a process (supervised: supervise.py), in
    ``project``; its exit code and stderr."""
    env = {**ENV, "PYTHONDONTWRITEBYTECODE": "1"}  # a failed run leaves the project as it was
    done = subprocess.run([sys.executable, "-m", "rulepress", *args], cwd=project, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stderr


def contents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("command", [
    ("check",), ("build", "--no-pdf"), ("pnp",), ("export", "g", "--to", "tts"),
    ("simulate", "g", "-n", "4"), ("translate", "g", "--lang", "de"), ("diff", "old")])
def test_an_engine_ending_the_commands_own_process_as_it_is_imported_again_is_named(
        tmp_path: Path, command: tuple[str, ...]) -> None:
    """Its trial import in a worker passes; the import in the command's own process ends it
    (exit 0, silent, nothing written until the supervisor): exit 2, the engine at its file."""
    project = hostile_project(tmp_path, "engine-os-exit-at-import", *SECOND_IMPORT)
    engine = project / "sources" / "g" / "engine.py"
    engine.write_text(engine.read_text() + "    os._exit(0)\n")
    if command[0] == "diff":  # an old revision's engine, the new one good
        shutil.copytree(project, tmp_path / "old")
        command = ("diff", str(tmp_path / "old"))
        engine.write_text(engine.read_text().replace("    os._exit(0)\n", "    pass\n"))
        engine = tmp_path / "old" / "sources" / "g" / "engine.py"
    before = contents(project)
    code, err = console(project, *command)
    assert (code, err.splitlines()[-1]) == (2, (
        f"{engine.resolve()}:1:1: error: engine module 'sources/g/engine.py' ended its "
        "process (exit status 0) as it was imported again, in the command's own process")), err
    assert contents(project) == before


def test_an_engine_looping_as_it_is_imported_again_is_stopped_past_its_budget(
        tmp_path: Path) -> None:
    project = hostile_project(tmp_path, "engine-os-exit-at-import", *SECOND_IMPORT,
                              limits="engine_seconds = 0.5")
    engine = project / "sources" / "g" / "engine.py"
    engine.write_text(engine.read_text() + "    while True:\n        pass\n")
    started = time.monotonic()
    code, err = console(project, "check")
    assert (code, err.splitlines()[-1]) == (2, (
        f"{engine.resolve()}:1:1: error: engine module 'sources/g/engine.py' ran past its time "
        "budget (0.5 s of CPU time; engine_seconds in rulepress.toml's [limits]) as it was "
        "imported again, in the command's own process")), err
    assert time.monotonic() - started < 20


def test_the_supervised_command_ends_as_the_command_does(tmp_path: Path) -> None:
    """Its exit status, and its output, pass through the supervisor unchanged."""
    project = hostile_project(tmp_path, "engine-os-exit-at-import", "os._exit(0)\n", "")
    assert console(project, "check") == (0, "1 proven, 0 failed, 0 not checkable\n")
    code, err = console(project, "check", "--no-such-option")
    assert code == 2 and "Error: No such option '--no-such-option'." in err, err


def test_an_installed_engine_ending_the_commands_own_process_as_it_is_imported_again_is_named(
        tmp_path: Path) -> None:
    project = tmp_path / "p"
    shutil.copytree(HOSTILE / "engine-os-exit-package-import", project,
                    ignore=shutil.ignore_patterns("expected.txt"))
    module = project / "site-packages" / "hostile_exit.py"
    module.write_text(module.read_text().replace(*SECOND_IMPORT) + "    os._exit(0)\n")
    env = {**ENV, "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": os.pathsep.join([str(project / "site-packages"),
                                          os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "rulepress", "check"], cwd=project, env=env,
                          stderr=subprocess.PIPE, text=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    assert (done.returncode, done.stderr.splitlines()[-1]) == (2, (
        f"{module.resolve()}:1:1: error: the entry point 'hostile_exit' (hostile_exit:ENGINE) "
        "ended its process (exit status 0) as it was imported again, in the command's own "
        "process")), done.stderr
