"""`rulepress serve` for real: a server in a subprocess on a free port, pages fetched over HTTP,
sources edited on disk; and the rules for which paths it serves."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import support

from rulepress.scaffold import new_project
from rulepress.serve.site import FILE_POLICY, PAGE_POLICY, RequestRefused, Site, live_page

pytestmark = pytest.mark.slow  # rulepress serve in subprocesses

SERVING = re.compile(r"serving (http://127\.0\.0\.1:\d+)(/\S*)index\.html")


def test_paths_outside_the_project_are_refused(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "build" / "game").mkdir(parents=True)
    (project / "build" / "game" / "game.html").write_text("<p>page</p>")
    (project / "build" / "index.html").write_text("<p>index</p>")
    (tmp_path / "secret.txt").write_text("secret")
    (project / "build" / "out.txt").symlink_to(tmp_path / "secret.txt")
    site = Site.of(project, project / "build")
    assert site.file_for("/build/game/game.html") == (project / "build/game/game.html").resolve()
    assert site.file_for("/build/").name == "index.html"
    for url in ("/../secret.txt", "/build/../../secret.txt", "/%2e%2e/secret.txt",
                "/build/%2E%2E/%2e%2e/secret.txt", "/..%2fsecret.txt", "//etc/passwd",
                "/build/out.txt", f"/{tmp_path}/secret.txt".replace("//", "/"), "/a\\..\\b"):
        with pytest.raises(RequestRefused) as refused:
            site.file_for(url)
        assert refused.value.status in (403, 404), url
    with pytest.raises(RequestRefused) as refused:
        site.file_for("/build/out.txt")
    assert refused.value.status == 403


def test_an_output_folder_outside_the_project_is_served_under_its_own_name(
        tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "index.html").write_text("x")
    site = Site.of(tmp_path / "project", tmp_path / "out")
    assert site.out_url == "/_build/"
    assert site.file_for("/_build/index.html") == (tmp_path / "out" / "index.html").resolve()


def test_only_the_outputs_and_kits_are_served_whatever_folder_holds_them(
        tmp_path: Path) -> None:
    """Output folder the project itself (``--out .``): its sources, settings, engines, dotfiles
    and version-control folder stay unserved; the books' link to ../pnp/ reaches the kits."""
    project = tmp_path / "project"
    for name, text in {".git/config": "git", ".env": "env", "rulepress.toml": "toml",
                       "engines/demo.py": "py", "sources/demo/script.html": "<script>",
                       "sources/demo/plot.svg": "<svg/>", "pnp/demo/demo-a4.pdf": "%PDF-",
                       "pnp/demo/.kit.pdf": "%PDF-", "demo/demo.html": "<p>page</p>",
                       "demo/notes.md": "md", "index.html": "<p>index</p>"}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    site = Site.of(project, project, project / "pnp", project / "sources")
    assert site.kits_url == "/pnp/"
    assert site.file_for("/demo/demo.html") == (project / "demo/demo.html").resolve()
    assert site.file_for("/pnp/demo/demo-a4.pdf") == (project / "pnp/demo/demo-a4.pdf").resolve()
    for url in ("/.git/config", "/.env", "/rulepress.toml", "/engines/demo.py",
                "/sources/demo/script.html", "/sources/demo/plot.svg", "/pnp/demo/.kit.pdf",
                "/demo/notes.md", "/%2egit/config", "/demo/./.env/", "/.git/"):
        with pytest.raises(RequestRefused) as refused:
            site.file_for(url)
        assert refused.value.status == 404, url
    outside = Site.of(project, tmp_path / "out", project / "pnp")  # /_build/: kits at /pnp/
    assert outside.kits_url == "/pnp/"


def test_the_live_page_adds_the_reload_script_and_an_escaped_overlay() -> None:
    page = live_page("<html><body><p>x</p></body></html>", 3, ["a.md:4:1: error: <b> & co"])
    assert page.index("rulepress-overlay") < page.index("<script") < page.index("</body>")
    assert "a.md:4:1: error: &lt;b&gt; &amp; co" in page
    assert 'data-since="3"' in page
    assert "rulepress-overlay" not in live_page("<body></body>", 1, [])


def test_a_client_that_drops_its_connection_is_no_error_but_a_bug_still_is(
        capfd: pytest.CaptureFixture[str]) -> None:
    from http.server import BaseHTTPRequestHandler

    from rulepress.serve.server import _bind

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            raise {"/gone": BrokenPipeError, "/reset": ConnectionResetError,
                   "/bug": ValueError}[self.path]("raised")

    server = _bind(Handler, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for path in ("/gone", "/reset"):
            with pytest.raises((http.client.HTTPException, OSError)):
                urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}{path}",
                                       timeout=10)
        assert "Traceback" not in capfd.readouterr().err
        with pytest.raises((http.client.HTTPException, OSError)):
            urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}/bug",
                                   timeout=10)
        time.sleep(0.2)
        assert "ValueError: raised" in capfd.readouterr().err
    finally:
        server.shutdown()
        server.server_close()


class Server:
    def __init__(self, proc: subprocess.Popen[str], base: str) -> None:
        self.proc, self.base = proc, base
        self.lines: list[str] = []

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=30) as answer:
                return answer.status, answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")

    def fetch(self, path: str) -> tuple[int, Any, bytes]:
        """The status, headers and body of GET ``path``."""
        try:
            with urllib.request.urlopen(self.base + path, timeout=60) as answer:
                return answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers, exc.read()

    def raw(self, target: str, host: str | None = None) -> int:
        """The status of a request sent exactly as written (no client normalises it), with the
        Host header a browser sends (this server's address), or ``host``."""
        address = self.base.removeprefix("http://")
        name, port = address.split(":")
        connection = http.client.HTTPConnection(name, int(port), timeout=30)
        connection.putrequest("GET", target, skip_host=True)
        connection.putheader("Host", address if host is None else host)
        connection.endheaders()
        status = connection.getresponse().status
        connection.close()
        return status

    def request(self, method: str, path: str) -> http.client.HTTPResponse:
        host, port = self.base.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        connection.request(method, path)
        return connection.getresponse()

    def until(self, path: str, holds: Callable[[str], bool], seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            status, body = self.get(path)
            if status == 200 and holds(body):
                return body
            time.sleep(0.05)
        pytest.fail(f"{path} did not change as expected in {seconds} s; the server said:\n"
                    + "\n".join(self.lines), pytrace=False)


def spawn(project: Path, *, new_session: bool = False,
          render_seconds: float | None = None) -> subprocess.Popen[str]:
    """`rulepress serve` on ``project`` at a free port, its terminal output on stderr; with
    ``render_seconds``, that limit (RENDER_SECONDS) instead of rulepress's, for a quick test."""
    command = ["-m", "rulepress.cli"]
    if render_seconds is not None:
        command = ["-c", "import rulepress.limits, rulepress.cli; "
                   f"rulepress.limits.RENDER_SECONDS = {render_seconds!r}; rulepress.cli.main()"]
    return subprocess.Popen(
        [sys.executable, *command, "serve", "--project", str(project), "--port", "0"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, "CI": "1"}, start_new_session=new_session)


@contextmanager
def serving(project: Path, render_seconds: float | None = None) -> Iterator[Server]:
    """A server on ``project``, started and, at the end, killed with its rebuild processes."""
    proc = spawn(project, render_seconds=render_seconds)
    assert proc.stderr is not None
    lines: list[str] = []
    found = None
    deadline = time.monotonic() + 60
    while found is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line.rstrip())
        found = SERVING.search(line)
    if found is None:
        proc.kill()
        pytest.fail("rulepress serve did not start:\n" + "\n".join(lines), pytrace=False)
    server = Server(proc, found[1])
    server.lines = lines
    stderr = proc.stderr

    def pump() -> None:
        for text in stderr:
            lines.append(text.rstrip())

    threading.Thread(target=pump, daemon=True).start()
    groups = _fork_servers(proc.pid)  # its rebuild processes' groups (see preload.py)
    try:
        yield server
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        deadline = time.monotonic() + 10
        while left := _in_groups(groups):
            assert time.monotonic() < deadline, f"rebuild processes outlived the server: {left}"
            time.sleep(0.05)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    project = new_project("demo", tmp_path)
    with serving(project) as srv:
        yield srv, project


def test_serve_rebuilds_reloads_shows_failures_and_stops_cleanly(
        server: tuple[Server, Path]) -> None:
    srv, project = server
    page = "/build/demo/demo.html"
    rules = project / "sources" / "demo" / "rules.md"
    status, body = srv.get(page)
    assert status == 200 and "Be the first to bank 100 points" in body
    assert "/_rulepress/wait" in body  # the reload script, added when served ...
    assert "/_rulepress/wait" not in (project / "build/demo/demo.html").read_text()  # ... only
    status, index = srv.get("/build/index.html")
    assert status == 200 and 'href="demo/demo-reference.html"' in index
    assert srv.get("/") == (status, index)  # the bare address leads to the index
    head = srv.request("HEAD", page)
    assert head.status == 200 and head.read() == b""
    assert head.getheader("Content-Type") == "text/html; charset=utf-8"
    assert int(head.getheader("Content-Length", "0")) == len(body.encode())

    good = rules.read_text()
    rules.write_text(good.replace("Be the first", "Be the quickest"))
    srv.until(page, lambda b: "Be the quickest to bank" in b)

    line = next(n for n, text in enumerate(good.splitlines(), 1) if "banked: [19, 0]" in text)
    rules.write_text(good.replace("banked: [19, 0]", "banked: [20, 0]"))
    shown = srv.until(page, lambda b: "rulepress-overlay" in b)
    assert f"sources/demo/rules.md:{line}:" in shown
    assert "claims banked" in shown and "the rules give" in shown
    assert "Be the quickest to bank" in shown  # the last good page, under the overlay
    status, said = srv.get("/build/demo/demo-letter.pdf")  # never rendered: none to fall back on
    assert status == 404 and "demo fails its check, so it has no PDF" in said
    rules.write_text(good)
    srv.until(page, lambda b: "rulepress-overlay" not in b and "Be the first" in b)

    for target in ("/../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                   "/build/..%2f..%2f..%2fetc/passwd", "//etc/passwd",
                   f"{srv.base}/../../etc/passwd"):
        assert srv.raw(target) in (403, 404), target
    assert srv.get("/etc/passwd")[0] == 404  # the project's own etc/, which it has not
    (project / "build" / "latin1.html").write_bytes("<p>caf\xe9</p>".encode("latin-1"))
    assert srv.get("/build/latin1.html") == (200, "<p>caf\ufffd</p>")  # not ours: as it is
    (project / "link").symlink_to("/etc")
    assert srv.raw("/link/passwd") == 404  # not an output folder: nothing in it is served
    # DNS rebinding: a page of another site whose name leads to 127.0.0.1 cannot read it.
    port = srv.base.rsplit(":", 1)[1]
    assert srv.raw(page, host=f"evil.example:{port}") == 403
    assert srv.raw(page, host=f"127.0.0.1.evil.example:{port}") == 403
    assert srv.raw(page, host=f"localhost:{port}") == srv.raw(page) == 200

    pdf = project / "build/demo/demo-a4.pdf"
    assert not pdf.exists()  # pages only, until a PDF is asked for
    with urllib.request.urlopen(srv.base + "/build/demo/demo-a4.pdf", timeout=60) as answer:
        assert answer.read(5) == b"%PDF-"
        # No policy: a browser's PDF viewer refuses a sandbox (it runs no script of the page).
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Content-Security-Policy"] is None
    assert pdf.is_file()

    srv.proc.send_signal(signal.SIGINT)
    assert srv.proc.wait(timeout=30) == 130
    time.sleep(0.2)
    said = "\n".join(srv.lines)
    assert "rulepress: stopped by SIGINT" in said and "Traceback" not in said, said


def test_nothing_but_the_books_is_served_and_every_answer_says_how_to_treat_it(
        server: tuple[Server, Path]) -> None:
    """A game's own page with a script, linked from its rulebook (http links are allowed),
    would run on the preview's origin and read whatever it serves: .git, .env, the project."""
    srv, project = server
    secrets = {".git/config": "[remote] url = SECRET-git", ".env": "TOKEN=SECRET-env",
               "sources/demo/script.html": "<script>fetch('/.env') /* SECRET-page */</script>",
               "sources/demo/images/a.svg": "<svg><script>/* SECRET-svg */</script></svg>",
               "build/demo/.draft.html": "<p>SECRET-dotfile</p>",
               "build/demo/notes.md": "SECRET-notes"}
    for name, text in secrets.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    (project / "build/demo/env.txt").symlink_to(project / ".env")
    (project / "build/demo/game.html").symlink_to(project / "sources/demo/script.html")
    for url in ("/.git/config", "/.env", "/rulepress.toml", "/engines/demo.py",
                "/sources/demo/rules.md", "/sources/demo/script.html",
                "/sources/demo/images/a.svg", "/build/.rulepress/manifest.json",
                "/build/demo/.draft.html", "/build/demo/notes.md", "/build/%2Egit/config",
                "/build/demo/env.txt", "/build/demo/game.html"):
        status, headers, body = srv.fetch(url)
        assert status in (403, 404), url
        assert b"SECRET" not in body and b"[project]" not in body, url
        assert headers["X-Content-Type-Options"] == "nosniff", url
        assert headers["Content-Security-Policy"] == FILE_POLICY, url

    for url in ("/_rulepress/wait?since=-1", "/favicon.ico", "/build/fonts/OFL.txt"):
        status, headers, _ = srv.fetch(url)
        assert status in (200, 204), url
        assert headers["X-Content-Type-Options"] == "nosniff", url
        assert headers["Content-Security-Policy"] == FILE_POLICY, url

    status, headers, body = srv.fetch("/build/demo/demo.html")  # a page: only its own script
    assert status == 200 and b"data-since=" in body
    assert headers["Content-Security-Policy"] == PAGE_POLICY
    assert headers["X-Content-Type-Options"] == "nosniff"

    assert support.run("simulate", "demo", "-n", "20", "-j", "1", "-q",
                       "--project", str(project))[0] == 0
    status, headers, body = srv.fetch("/build/demo/simulation/length.svg")  # a game's image
    assert status == 200 and body.startswith(b"<?xml")
    assert headers["Content-Type"] == "image/svg+xml"
    assert headers["Content-Security-Policy"] == FILE_POLICY  # shown, but in a sandbox
    assert headers["X-Content-Type-Options"] == "nosniff"

    assert support.run("pnp", "-q", "--project", str(project))[0] == 0
    link = "../../pnp/demo/demo-a4.pdf"  # the book's link to its kit, followed
    assert f'href="{link}"' in srv.get("/build/demo/demo.html")[1]
    status, headers, body = srv.fetch(urllib.parse.urljoin("/build/demo/demo.html", link))
    assert status == 200 and body.startswith(b"%PDF-")
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_a_game_added_while_serving_is_built_and_listed_and_one_removed_is_dropped(
        server: tuple[Server, Path]) -> None:
    srv, project = server
    sources = project / "sources"
    rules = sources / "demo" / "rules.md"
    rules.write_text(rules.read_text().replace("Be the first", "Be the quickest"))
    srv.until("/build/demo/demo.html", lambda b: "Be the quickest" in b)  # the watcher runs

    second = sources / "second"
    shutil.copytree(sources / "demo", second)
    rules = second / "rules.md"
    rules.write_text(rules.read_text().replace("Be the quickest", "Be the second"))
    srv.until("/build/index.html", lambda b: 'href="second/second.html"' in b)
    assert "Be the second to bank" in srv.get("/build/second/second.html")[1]

    rules.write_text("no front matter\n")  # broken: the index shows it
    shown = srv.until("/build/index.html", lambda b: "rulepress-overlay" in b)
    assert "sources/second/rules.md:1:" in shown
    shutil.rmtree(second)
    index = srv.until("/build/index.html",
                      lambda b: "second/" not in b and "rulepress-overlay" not in b)
    assert 'href="demo/demo.html"' in index
    assert any("new game: second" in line for line in srv.lines)
    assert any("game gone: second" in line for line in srv.lines)

    sources.rename(project / "elsewhere")  # the whole folder goes: a clear error, exit 2
    assert srv.proc.wait(timeout=30) == 2
    time.sleep(0.2)
    said = "\n".join(srv.lines)
    assert f"error: the sources folder {sources} is gone" in said and "Traceback" not in said


def test_an_edit_saved_as_the_server_starts_is_not_lost(tmp_path: Path) -> None:
    project = new_project("demo", tmp_path)
    rules = project / "sources" / "demo" / "rules.md"
    proc = spawn(project)
    assert proc.stderr is not None
    try:
        lines = [proc.stderr.readline().rstrip()]
        while (found := SERVING.search(lines[-1])) is None and lines[-1]:
            lines.append(proc.stderr.readline().rstrip())
        assert found is not None, "\n".join(lines)
        # Saved at once: the watcher starts a moment after the server says it serves.
        rules.write_text(rules.read_text().replace("Be the first", "Be the earliest"))
        srv = Server(proc, found[1])
        srv.lines = lines
        srv.until("/build/demo/demo.html", lambda b: "Be the earliest" in b)
    finally:
        proc.kill()
        proc.wait()


def _parents() -> dict[int, int]:
    """Every process's parent (Linux's /proc)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return parents


def _descendants(pid: int) -> set[int]:
    """The processes under ``pid``."""
    parents = _parents()
    found: set[int] = set()
    while more := {p for p, parent in parents.items() if parent in found | {pid}} - found:
        found |= more
    return found


def test_a_stop_signal_to_its_whole_process_group_stops_it_cleanly(tmp_path: Path) -> None:
    """timeout(1), a service manager or a terminal signals the command's whole process group:
    the rebuild workers must not die before the server stops them (it then waited forever on
    a queue lock a dead worker held, and printed the pool's traceback)."""
    project = new_project("demo", tmp_path)
    proc = spawn(project, new_session=True)
    assert proc.stderr is not None
    try:
        lines = [proc.stderr.readline().rstrip()]
        while SERVING.search(lines[-1]) is None and lines[-1]:
            lines.append(proc.stderr.readline().rstrip())
        time.sleep(1)  # the watcher runs, the workers wait for work
        helpers = _descendants(proc.pid)
        assert helpers  # the fork server and its workers
        os.killpg(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 143, err
        assert "rulepress: stopped by SIGTERM" in err and "Traceback" not in err
        _all_gone(helpers)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _all_gone(helpers: set[int]) -> None:
    """Wait up to 10 s for every process of ``helpers`` to end; fail if one outlives that."""
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{p}").exists() for p in helpers):
        assert time.monotonic() < deadline, "a rebuild process outlived the server"
        time.sleep(0.05)


def _fork_servers(pid: int) -> set[int]:
    """The fork server of the server ``pid`` (a child of its command's process, the child of
    ``pid``: supervise.py), if it has started it."""
    found = set()
    parents = _parents()
    for child in (p for p, parent in parents.items() if parents.get(parent) == pid):
        try:
            if b"forkserver" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            continue
    return found


def _workers(pid: int) -> set[int]:
    """The rebuild processes of the server ``pid``: the children of its fork server."""
    servers = _fork_servers(pid)
    return {p for p, parent in _parents().items() if parent in servers}


def _in_groups(groups: set[int]) -> set[int]:
    """The processes still running in the process groups ``groups`` (zombies are done)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[2]) in groups:
            found.add(int(stat.parent.name))
    return found


def _cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _lengthen(srv: Server, project: Path) -> None:
    """Demo's rules made long enough that a PDF of them takes seconds to render, built."""
    rules = project / "sources" / "demo" / "rules.md"
    parts = "".join(f"\n## More {n}\n\n" + "Roll the die and count. " * 300 for n in range(40))
    rules.write_text(rules.read_text().replace("## The end", parts + "\n## The end"))
    srv.until("/build/demo/demo.html", lambda b: "More 39" in b)


def _ask(srv: Server, path: str) -> tuple[threading.Thread, list[object]]:
    """GET ``path`` in a thread: its answer (status, body), or the exception, in the list."""
    answers: list[object] = []

    def ask() -> None:
        try:
            answers.append(srv.get(path))
        except (OSError, http.client.HTTPException) as exc:  # a timeout, a dropped connection
            answers.append(exc)

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread, answers


def _rendering(srv: Server, asked: threading.Thread) -> int:
    """The rebuild process running the job ``asked`` waits for: the one whose CPU time grows
    (one that waits for work uses none)."""
    start: dict[int, float] = {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and asked.is_alive():
        for pid in _workers(srv.proc.pid):
            used = _cpu_seconds(pid)
            if used - start.setdefault(pid, used) > 0.3:
                return pid
        time.sleep(0.02)
    pytest.fail("found no rebuild process rendering the PDF "
                f"({'it was answered first' if not asked.is_alive() else 'in 30 s'}); "
                "the server said:\n" + "\n".join(srv.lines), pytrace=False)


def test_a_render_whose_process_is_killed_answers_an_error_and_the_next_one_works(
        server: tuple[Server, Path]) -> None:
    """The kernel kills a render (out of memory, a crash in the PDF library): the request gets
    an error saying so instead of hanging, and so would every later one."""
    srv, project = server
    _lengthen(srv, project)
    page = "/build/demo/demo.html"
    asked, answers = _ask(srv, "/build/demo/demo-a4.pdf")
    os.kill(_rendering(srv, asked), signal.SIGKILL)
    asked.join(timeout=30)
    assert answers and isinstance(answers[0], tuple), (
        f"the PDF request hung after its render process was killed: {answers}")
    status, body = answers[0]
    assert status == 500 and "killed by signal 9" in body, body
    deadline = time.monotonic() + 5  # the terminal's lines come through a pipe, later
    while not any("demo-a4.pdf" in line and "killed by signal 9" in line for line in srv.lines):
        assert time.monotonic() < deadline, "\n".join(srv.lines)
        time.sleep(0.05)
    shown = srv.until(page, lambda b: "rulepress-overlay" in b)
    assert "killed by signal 9" in shown and "More 39" in shown  # over the last good page

    with urllib.request.urlopen(srv.base + "/build/demo/demo-a4.pdf", timeout=60) as answer:
        assert answer.read(5) == b"%PDF-"
    srv.until(page, lambda b: "rulepress-overlay" not in b)
    assert "Traceback" not in "\n".join(srv.lines)


def test_an_idle_rebuild_process_killed_is_replaced_and_the_next_save_is_built(
        server: tuple[Server, Path]) -> None:
    srv, project = server
    page = "/build/demo/demo.html"
    rules = project / "sources" / "demo" / "rules.md"
    good = rules.read_text()
    rules.write_text(good.replace("Be the first", "Be the quickest"))
    srv.until(page, lambda b: "Be the quickest" in b)  # the watcher runs
    time.sleep(1.5)  # its catch-up rebuild is done too: the processes wait for work
    idle = _workers(srv.proc.pid)
    assert idle, "no rebuild process waits for work, so none can be killed"
    for pid in idle:
        os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    rules.write_text(good.replace("Be the first", "Be the earliest"))
    srv.until(page, lambda b: "Be the earliest" in b and "rulepress-overlay" not in b)
    said = "\n".join(srv.lines)
    assert "killed" not in said and "Traceback" not in said  # no rebuild was stopped


def test_ctrl_c_while_a_pdf_renders_stops_the_server_and_leaves_no_process(
        server: tuple[Server, Path]) -> None:
    srv, project = server
    _lengthen(srv, project)
    asked, _ = _ask(srv, "/build/demo/demo-a4.pdf")
    _rendering(srv, asked)
    helpers = _descendants(srv.proc.pid)
    srv.proc.send_signal(signal.SIGINT)
    try:
        code = srv.proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pytest.fail("the server did not stop within 5 s of Ctrl-C", pytrace=False)
    assert code == 130
    time.sleep(0.2)
    said = "\n".join(srv.lines)
    assert "rulepress: stopped by SIGINT" in said and "Traceback" not in said
    assert "killed" not in said  # the render the server stopped is no failure to report
    _all_gone(helpers)


def test_a_job_whose_process_died_says_how_and_what_to_do() -> None:
    from rulepress.serve.builder import _died, _late

    rebuild = _died("demo", None, -9)
    assert not rebuild.ok and rebuild.died
    assert rebuild.problems == [
        "rulepress: error: the rebuild of demo stopped: its process was killed by signal 9, "
        "perhaps for lack of memory; save a file to try again"]
    assert _died("demo", frozenset({"demo/demo-a4.pdf"}), 3).problems == [
        "rulepress: error: demo/demo-a4.pdf was not rendered: its process exited with status 3; "
        "reload it to try again"]
    late = _late("demo", None, 180.0)
    assert not late.ok and late.died
    assert late.problems == [
        "rulepress: error: the rebuild of demo ran past 180 s (RENDER_SECONDS, see Limits in "
        "docs/authoring.md) and was stopped; save a file to try again"]


def test_ctrl_c_during_the_first_build_stops_the_server(tmp_path: Path) -> None:
    """Stopped before it serves: it waited forever for a server loop that never ran."""
    project = new_project("demo", tmp_path)
    proc = spawn(project)
    assert proc.stderr is not None
    try:
        line = proc.stderr.readline()
        assert "building the pages of demo" in line, line  # the fork server starts meanwhile
        time.sleep(0.2)
        helpers = _descendants(proc.pid)
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail("the server did not stop within 10 s of Ctrl-C", pytrace=False)
        assert proc.returncode == 130, err
        assert "rulepress: stopped by SIGINT" in err and "Traceback" not in err
        assert "serving" not in err
        _all_gone(helpers)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_render_that_never_ends_is_stopped_and_holds_up_no_other_game(tmp_path: Path) -> None:
    """A print.css override that makes every nested list a flex box: each level triples the
    typesetter's work, so eight levels of list (16 boxes) never finish, within every limit on
    the input. Another game's PDF is served meanwhile; past the render limit the process is
    killed and the PDF's link answers an error saying so."""
    project = new_project("demo", tmp_path)
    sources = project / "sources"
    shutil.copytree(sources / "demo", sources / "slow")
    rules = sources / "slow" / "rules.md"
    nested = "\n".join("  " * n + f"- level {n}" for n in range(8))
    rules.write_text(rules.read_text().replace("## A turn", f"## Nested\n\n{nested}\n\n## A turn"))
    (sources / "slow" / "templates").mkdir()
    (sources / "slow" / "templates" / "print.css").write_text(
        "@page { size: {{ page_size }}; margin: 20mm }\nul, li { display: flex }\n")
    limit = 20.0  # the server waits this long; the client (Server.get) 30 s
    with serving(project, render_seconds=limit) as srv:
        assert "level 7" in srv.get("/build/slow/slow.html")[1]  # its page builds at once
        time.sleep(2)  # the watcher's first rebuild is done: only a render uses CPU now
        start = time.monotonic()
        asked, answers = _ask(srv, "/build/slow/slow-a4.pdf")
        rendering = _rendering(srv, asked)
        with urllib.request.urlopen(srv.base + "/build/demo/demo-a4.pdf",
                                    timeout=limit) as answer:
            assert answer.read(5) == b"%PDF-"
        assert asked.is_alive(), f"the slow render ended first: {answers}"
        asked.join(timeout=limit + 30)
        assert answers and isinstance(answers[0], tuple), (
            f"the request for the endless render was not answered: {answers}")
        status, body = answers[0]
        assert status == 500, (status, body)
        assert "slow/slow-a4.pdf was not rendered: its render ran past 20 s" in body, body
        assert limit - 1 < time.monotonic() - start < limit + 20
        _all_gone({rendering})  # killed, not left to run
        shown = srv.until("/build/slow/slow.html", lambda b: "rulepress-overlay" in b)
        assert "ran past 20 s (RENDER_SECONDS" in shown
        assert "rulepress-overlay" not in srv.get("/build/demo/demo.html")[1]
        deadline = time.monotonic() + 5  # the terminal's lines come through a pipe, later
        while not any("ran past 20 s" in line for line in srv.lines):
            assert time.monotonic() < deadline, "\n".join(srv.lines)
            time.sleep(0.05)
        assert "Traceback" not in "\n".join(srv.lines)


def test_in_a_browser_a_page_runs_its_reload_script_and_a_file_runs_nothing(
        server: tuple[Server, Path], browser: Any) -> None:
    """Headless Chromium under the server's policies: the page loads its fonts and runs the
    reload script, which reloads it after a save, with no error; an SVG's script never runs."""
    srv, project = server
    rules = project / "sources" / "demo" / "rules.md"
    (project / "build" / "demo" / "plot.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>'
        'document.documentElement.setAttribute("data-ran", "yes")</script></svg>')
    errors: list[str] = []
    context = browser.new_context()  # the session's browser, its own cookies and cache
    try:
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
                if r.status >= 400 else None)
        with page.expect_request(lambda r: "/_rulepress/wait?since=" in r.url,
                                 timeout=30_000):
            page.goto(srv.base + "/build/demo/demo.html", wait_until="load")
        fonts = page.evaluate("document.fonts.ready.then(all => [...all].filter("
                              "f => f.status === 'loaded').map(f => f.family))")
        assert any("Carlito" in f for f in fonts), fonts  # from ../fonts/, allowed
        with page.expect_navigation(timeout=30_000):  # the script saw the rebuild
            rules.write_text(rules.read_text().replace("Be the first", "Be the quickest"))
        assert "Be the quickest" in page.inner_text("body")
        assert not errors, errors

        svg = context.new_page()
        svg.goto(srv.base + "/build/demo/plot.svg", wait_until="load")
        assert svg.evaluate("document.documentElement.getAttribute('data-ran')") is None
    finally:
        context.close()


class _Jobs:
    """Rebuilds whose jobs the test finishes by hand, in the order it chooses."""

    def __init__(self) -> None:
        from concurrent.futures import Future

        self.jobs: list[tuple[str, str | None, Future[Any]]] = []
        self.lock = threading.Lock()
        self.future = Future

    def submit(self, settings: object, game: str, only: object = None,
               seconds: float | None = None, part: str | None = None) -> Any:
        with self.lock:
            self.jobs.append((game, part, self.future()))
            return self.jobs[-1][2]


def test_a_translated_games_source_pages_reload_before_its_translations_are_built(
        tmp_path: Path) -> None:
    """Pigeon Race's English page waited for its German one (one job built both): now the two
    are built at once and open pages reload as soon as the source's pages are written."""
    from rulepress.serve.builder import SOURCE, TRANSLATIONS, Outcome, Settings
    from rulepress.serve.server import Preview

    settings = Settings(tmp_path, tmp_path / "out", tmp_path, ("a4",), ("player",), "t",
                        languages=("en", "de"))
    jobs = _Jobs()
    said: list[str] = []
    preview = Preview(settings, ["game"], jobs, said.append)  # type: ignore[arg-type]
    result: list[bool] = []
    rebuilding = threading.Thread(target=lambda: result.append(preview.rebuild(["game"])))
    rebuilding.start()
    deadline = time.monotonic() + 10
    while len(jobs.jobs) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [(g, part) for g, part, _ in jobs.jobs] == [("game", SOURCE), ("game", TRANSLATIONS)]
    jobs.jobs[0][2].set_result(Outcome("game", True, [], ["game/game.html"], 0.3))
    assert preview.state.version == 1 and rebuilding.is_alive()  # reloaded, German still at work
    jobs.jobs[1][2].set_result(Outcome("game", False, ["de.po:3: error: bad"], [], 0.5))
    rebuilding.join(10)
    assert result == [True] and preview.state.version == 2
    assert preview.state.shown_on("game") == ["de.po:3: error: bad"]
    assert said == ["game: the rebuild failed; serving the last good pages", "de.po:3: error: bad"]


def test_the_manifest_keeps_each_generators_part_of_a_game_written_at_once() -> None:
    """serve's two jobs of one game (its pages, its translations') each record their own
    generator's part of it; the second written must not drop the first's."""
    from rulepress.write import Record

    on_disk = {"units": {}, "games": {"game": {"engine": "e", "books": {"key": "old"},
                                               "translated-books": {"key": "t"}}}}
    record = Record()  # the source's job, which read the manifest before the other wrote it
    record.games["game"] = {"engine": "e", "books": {"key": "new"}}
    merged = record.merged(on_disk)["games"]["game"]
    assert merged == {"engine": "e", "books": {"key": "new"}, "translated-books": {"key": "t"}}


def test_an_edited_engine_is_read_again_by_the_next_rebuild(server: tuple[Server, Path]) -> None:
    """Each rebuild is a fresh process of the one pool, from a fork server that never imports
    a game: the engine's code as saved now, not as the server found it, fills the page."""
    srv, project = server
    page = "/build/demo/demo.html"
    assert "Be the first to bank 100 points" in srv.get(page)[1]
    [engine] = [p for p in project.rglob("rules.py") if "GOAL = 100" in p.read_text()]
    engine.write_text(engine.read_text().replace("GOAL = 100", "GOAL = 120"))
    rules = project / "sources" / "demo" / "rules.md"
    rules.write_text(rules.read_text().replace("bank 100 points", "bank 120 points"))
    shown = srv.until(page, lambda b: "Be the first to bank 120 points" in b)
    assert "rulepress-overlay" not in shown
    engine.write_text(engine.read_text().replace("GOAL = 120", "GOAL = 90"))
    shown = srv.until(page, lambda b: "rulepress-overlay" in b)
    assert "this rule says 120 for scoring.goal, the demo engine holds 90" in shown


def test_a_host_or_path_that_is_no_url_is_a_bad_request_without_a_traceback(
        capfd: pytest.CaptureFixture[str]) -> None:
    from typing import cast

    from rulepress.serve.server import Preview, _bind, handler

    # Refused before the preview is asked for anything: none is needed. (http.server makes a
    # path '//[x' '/[x' itself; an absolute-form target names a host the same way.)
    server = _bind(handler(cast(Preview, None)), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        for target, host in (("/index.html", "["), ("/a", "[::1"),
                             ("http://[x/", f"127.0.0.1:{port}"), ("//[x", "[")):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.putrequest("GET", target, skip_host=True)
            connection.putheader("Host", host)
            connection.endheaders()
            answer = connection.getresponse()
            assert (answer.status, b"not a host name or path" in answer.read()) == (400, True)
            connection.close()
        time.sleep(0.2)
        assert "Traceback" not in capfd.readouterr().err
    finally:
        server.shutdown()
        server.server_close()
