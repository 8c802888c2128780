"""The preview server: HTTP on 127.0.0.1, a watcher, and rebuilds of the game that changed."""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from functools import partial
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from rulepress import limits
from rulepress.books import book_files
from rulepress.cache import engine_files
from rulepress.diagnostics import RulepressError
from rulepress.document.reader import source_games
from rulepress.paths import templates_dir
from rulepress.serve.builder import (
    SOURCE,
    TRANSLATIONS,
    Outcome,
    Rebuilds,
    ServerStopping,
    Settings,
)
from rulepress.serve.site import EVENTS, MEDIA, RequestRefused, Site, faces_path, headers, live_page
from rulepress.signals import raise_if_stopped
from rulepress.write import read_manifest

WAIT_SECONDS = 25.0  # a reload script's request is answered at least this often
HOST = "127.0.0.1"
CATCH_UP_MS = 300  # the watcher's first wait: then, anything saved before it ran is built


@dataclass
class State:
    """What the pages show: a version that grows with every rebuild, and each game's problems
    while its last rebuild failed."""

    version: int = 0
    problems: dict[str, list[str]] = field(default_factory=dict)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def update(self, outcomes: Sequence[Outcome]) -> bool:
        """Record rebuilds; whether the pages changed (files written, or other problems), in
        which case the version grows and open pages reload."""
        with self.changed:
            before = dict(self.problems)
            for o in outcomes:
                if o.ok:
                    self.problems.pop(o.game, None)
                else:
                    self.problems[o.game] = o.problems
            if not any(o.written for o in outcomes) and self.problems == before:
                return False
            self.version += 1
            self.changed.notify_all()
            return True

    def wait(self, since: int, timeout: float) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.version != since, timeout)
            return self.version

    def forget(self, games: Iterable[str]) -> None:
        """Drop the problems of games that are gone from the sources."""
        with self.changed:
            for game in games:
                self.problems.pop(game, None)

    def shown_on(self, game: str | None) -> list[str]:
        """The problems a page shows: its game's, or every game's on a page of none."""
        with self.changed:
            if game is not None:
                return list(self.problems.get(game, []))
            return [p for g in sorted(self.problems) for p in self.problems[g]]


class Preview:
    """The server's parts: where it reads, the rebuild processes and the pages' state."""

    def __init__(self, settings: Settings, games: Sequence[str], rebuilds: Rebuilds,
                 say: Callable[[str], None], follow: bool = False) -> None:
        self.settings = settings
        self.games = tuple(games)
        # No game named: serve every game the sources hold, those added or removed meanwhile too.
        self.follow = follow
        self.site = Site.of(settings.project, settings.out, settings.kits, settings.sources)
        self.rebuilds = rebuilds
        self.state = State()
        self.say = say
        # One render of a game at a time (a second request waits for the first, then finds
        # its PDF made); other games' renders go on meanwhile.
        self._pdf_locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()

    def rebuild(self, games: Sequence[str]) -> bool:
        """Rebuild the pages of ``games``, each on its own (one failing stops no other);
        whether the pages changed. A game with translations is two rebuilds at once, its
        source's pages and its translations': open pages reload as soon as the first is
        written, not once the second is."""
        parts = (SOURCE, TRANSLATIONS) if len(self.settings.languages) > 1 else (None,)
        arrived: dict[str, list[Outcome]] = {g: [] for g in games}
        changed = [False]
        lock = threading.Lock()

        def done(game: str, future: Future[Outcome]) -> None:
            if future.exception() is None:  # else raised below, in the caller
                with lock:
                    arrived[game].append(future.result())
                    changed[0] |= self.state.update([_merged(arrived[game])])

        pending = []
        for part in parts:
            for g in games:
                pending.append(self.rebuilds.submit(
                    self.settings, g, seconds=limits.RENDER_SECONDS, part=part))
                pending[-1].add_done_callback(partial(done, g))
        for p in pending:
            p.result()
        outcomes = [_merged(arrived[g]) for g in games]
        for o in outcomes:
            if not o.ok:
                self.say(f"{o.game}: the rebuild failed; serving the last good pages")
            for line in o.problems:
                self.say(line)
            if o.ok and o.written:
                self.say(f"{o.game}: rebuilt in {o.seconds:.2f} s ({len(o.written)} files)")
        return changed[0]

    def pdf(self, path: Path) -> str | None:
        """Bring ``path``, one of a served game's rulebook PDFs, up to date before it is
        served: rendered now if its inputs changed since it was written (or it never was).
        Why it could not be, if so (the last good one, if any, is served); RequestRefused if its
        render's process died (the last good one may be what failed to render)."""
        game = self.site.game_of(path)
        if game is None or game not in self.games:
            return None
        name = path.relative_to(self.site.out).as_posix()
        names = {f.name for f in book_files(game, self.settings.editions, self.settings.papers,
                                            booklet=False)}
        # A translation's PDFs are its game's, one folder down: <game>/<lang>/<file>.
        names |= {f"{game}/{lang}/{n.split('/', 1)[1]}" for n in names
                  for lang in self.settings.languages[1:]}
        if name not in names:
            return None
        with self._locks_lock:
            lock = self._pdf_locks.setdefault(game, threading.Lock())
        try:
            with lock:
                outcome = self.rebuilds.submit(self.settings, game, frozenset({name}),
                                               seconds=limits.RENDER_SECONDS).result()
        except ServerStopping:
            raise RequestRefused(HTTPStatus.SERVICE_UNAVAILABLE, "the server is stopping") from None
        if outcome.written:
            self.say(f"{game}: rendered {path.name} in {outcome.seconds:.2f} s")
        for line in outcome.problems if outcome.died else ():
            self.say(line)
        # Its problems, or none now (a render that died before is forgotten); the pages
        # reload only if those change, not for the PDF.
        self.state.update([replace(outcome, written=[])])
        if outcome.died:
            raise RequestRefused(HTTPStatus.INTERNAL_SERVER_ERROR, outcome.problems[0])
        if not outcome.ok:
            return f"{game} fails its check, so it has no PDF: its page lists why"
        return None

    def faces_url(self, game: str | None, page: Path) -> str | None:
        """The URL of ``game``'s faces page, for a link from another of its pages."""
        if game is None:
            return None
        faces = self.site.out / faces_path(game)
        return self.site.url_of(faces) if faces.is_file() and faces != page else None

    def watched(self) -> list[Path]:
        """The sources, the theme, and the module files of every served game's engine."""
        engines = read_manifest(self.settings.out)["games"]
        paths = {self.settings.sources.resolve(), templates_dir()}
        for game in self.games:
            spec = engines.get(game, {}).get("engine")
            paths |= {p.parent for p in engine_files(spec, self.settings.project)}
        return sorted(p for p in paths if p.exists())  # the watcher refuses a missing one

    def affected(self, changed: Iterable[str]) -> list[str]:
        """The served games a set of changed files may affect: the game whose folder holds
        them, or every game for a change to the theme or an engine (the cache skips those
        that did not change); when following the sources, also a game added to them."""
        sources = self.settings.sources.resolve()
        games: set[str] = set(self._follow_sources())
        for name in changed:
            path = Path(name)
            if path.is_relative_to(sources):
                parts = path.relative_to(sources).parts
                if parts and parts[0] in self.games:
                    games.add(parts[0])
            else:
                return list(self.games)
        return sorted(games)

    def _follow_sources(self) -> list[str]:
        """When following the sources: serve the games they hold now, and return those to
        build: a new game, or one other game when a game went (index.html still lists it)."""
        if not self.follow:
            return []
        try:
            now = source_games(self.settings.sources)
        except RulepressError:  # the last game went: nothing left to build
            now = []
        added = [g for g in now if g not in self.games]
        gone = [g for g in self.games if g not in now]
        self.games = tuple(now)
        if added:
            self.say(f"new game: {', '.join(added)}")
        if gone:
            self.say(f"game gone: {', '.join(gone)}")
            self.state.forget(gone)
        return now[:1] if gone and not added else added


def _merged(outcomes: Sequence[Outcome]) -> Outcome:
    """One game's rebuild made of its parts' (source, translations) as they arrive."""
    return Outcome(outcomes[0].game, all(o.ok for o in outcomes),
                   list(dict.fromkeys(p for o in outcomes for p in o.problems)),
                   [f for o in outcomes for f in o.written], max(o.seconds for o in outcomes),
                   any(o.died for o in outcomes))


def local_host(host: str | None) -> bool:
    """Whether a request's Host header names this machine's loopback (a request without one,
    HTTP/1.0, comes from a tool, not a browser)."""
    if host is None:
        return True
    name = urlsplit(f"//{host}").hostname
    return name in (HOST, "localhost")


def handler(preview: Preview) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "rulepress-serve"
        _policy: dict[str, str] | None = None  # the next answer's headers, when not an error's

        def log_message(self, format: str, *args: object) -> None:
            pass  # the terminal shows rebuilds and diagnostics, not every request

        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            try:  # 'Host: [' or a path '//[x' (any page can make a browser send them)
                local = local_host(self.headers.get("Host"))
                urlsplit(self.path)
            except ValueError:
                self.send_error(HTTPStatus.BAD_REQUEST, "not a host name or path")
                return
            if not local:
                # A page of another site whose name was made to lead to 127.0.0.1 (DNS
                # rebinding) would read the project: only our own address is answered.
                self.send_error(HTTPStatus.FORBIDDEN, f"served at {HOST} or localhost only")
                return
            if urlsplit(self.path).path == EVENTS:
                self._events()
                return
            if urlsplit(self.path).path == "/favicon.ico":  # a browser asks, unbidden: none
                self.send_response(HTTPStatus.NO_CONTENT)
                self.end_headers()
                return
            index = preview.site.url_of(preview.site.out / "index.html")
            if urlsplit(self.path).path == "/" and index != "/index.html":
                self.send_response(HTTPStatus.FOUND)  # the address the terminal printed, bare
                self.send_header("Location", index)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            failed = None
            try:
                if preview.site.target(self.path).suffix == ".pdf":
                    failed = preview.pdf(preview.site.target(self.path))
                path = preview.site.file_for(self.path)
                data = path.read_bytes()
            except RequestRefused as refused:
                self.send_error(refused.status, failed or str(refused))
                return
            except OSError:  # gone, or unreadable, since it was found
                self.send_error(HTTPStatus.NOT_FOUND, "no such file")
                return
            if path.suffix == ".html" and path.is_relative_to(preview.site.out):
                try:
                    html = data.decode("utf-8")
                except UnicodeDecodeError:
                    html = None  # not a page rulepress wrote: served as it is, in a sandbox
                if html is not None:
                    game = preview.site.game_of(path)
                    page = live_page(html, preview.state.version, preview.state.shown_on(game),
                                     preview.faces_url(game, path))
                    self._send(page.encode("utf-8"), MEDIA[".html"], path, page=True)
                    return
            self._send(data, MEDIA[path.suffix], path)

        def _events(self) -> None:
            query = parse_qs(urlsplit(self.path).query)
            try:
                since = int(query.get("since", ["-1"])[0])
            except ValueError:
                self.send_error(HTTPStatus.BAD_REQUEST, "since must be a number")
                return
            version = preview.state.wait(since, WAIT_SECONDS)
            self._send(json.dumps({"version": version}).encode(), "application/json")

        def _send(self, body: bytes, media: str, path: Path | None = None,
                  page: bool = False) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", media)
            self.send_header("Content-Length", str(len(body)))
            self._policy = headers(path, page)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def end_headers(self) -> None:
            # Every answer, an error page too, says how it may be treated: a file's or an
            # error's own policy unless _send chose one.
            for name, value in (self._policy or headers(None, False)).items():
                self.send_header(name, value)
            self._policy = None
            super().end_headers()

        do_HEAD = do_GET  # noqa: N815 - a link checker's question: GET's answer, no body

    return Handler


def serve(settings: Settings, games: Sequence[str], port: int | None,
          say: Callable[[str], None], follow: bool = False) -> None:
    """Build the served games' pages, serve them, and rebuild on every change until stopped
    (Interrupted, from stop_on_signals: Ctrl-C or SIGTERM). ``follow``: ``games`` are all the
    sources hold, and a game added to them (or removed) is served (or dropped) as it comes."""
    import watchfiles

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # its word on Ctrl-C: ours is enough
    rebuilds = Rebuilds()
    server: ThreadingHTTPServer | None = None
    thread: threading.Thread | None = None
    try:
        preview = Preview(settings, games, rebuilds, say, follow)
        server = _bind(handler(preview), port)
        say(f"building the pages of {', '.join(games)}")
        preview.rebuild(games)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        address = f"http://{HOST}:{server.server_address[1]}"
        say(f"serving {address}{preview.site.out_url}index.html (Ctrl-C stops)")
        while True:
            if not settings.sources.is_dir():  # removed or renamed: nothing left to watch
                raise RulepressError.at(None, f"the sources folder {settings.sources} is gone: "
                                              "nothing left to serve")
            watched = preview.watched()
            # The watcher runs the signal handlers: a stop signal ends its loop (it calls
            # that an interrupt and returns), and the handler remembered which signal it was.
            caught_up = False
            for changes in watchfiles.watch(*watched, step=50, debounce=1000,
                                            rust_timeout=CATCH_UP_MS, yield_on_timeout=True,
                                            raise_interrupt=False):
                start = time.perf_counter()
                if not changes and caught_up:
                    continue
                affected = preview.affected(name for _, name in changes)
                if not caught_up:  # the watcher surely runs now: what was saved before it ran
                    affected, caught_up = list(preview.games), True  # is built (if changed)
                if affected and preview.rebuild(affected):
                    say(f"reloaded in {time.perf_counter() - start:.2f} s")
                if preview.watched() != watched or not settings.sources.is_dir():
                    break  # a game now names another engine: watch its files instead
            raise_if_stopped()
    finally:
        if thread is not None and server is not None:
            server.shutdown()  # waits for serve_forever to return: never, had it not started
        if server is not None:
            server.server_close()
        rebuilds.stop()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that reloads or closes a page drops its connection, often while the
        # reload script waits: nothing to report. Anything else is a bug: its traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _bind(handler_class: type[BaseHTTPRequestHandler], port: int | None) -> ThreadingHTTPServer:
    """The server on ``port``, or on 8000 (else any free port) when none is given."""
    for candidate in ([port] if port is not None else [8000, 0]):
        try:
            server = _Server((HOST, candidate), handler_class)
        except OSError as exc:
            if port is not None:
                raise RulepressError.at(None, f"cannot serve on port {port}: "
                                              f"{exc.strerror or exc}") from None
            continue
        return server
    raise RulepressError.at(None, "no free port to serve on")
