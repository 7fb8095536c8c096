"""The README's pictures: every page a person reads, in headless Chromium at a phone's and a desktop's size.

    python docs/screenshots.py [--out docs/screenshots]   # needs chromium, chromium-driver and selenium

Everything shown is built here, in a temporary directory, from what the project ships: each game's demo in
``replays/`` imported into a scratch SQLite database and exported as the HTML viewer for its first seat (it
opens at the last entry); a small Swiss tournament of By All Means (eight players, three rounds played out,
the fourth under way: one table finished, one disputed, one whose seats reported different results, one
playing, the round clock running) played by seeded random legal moves, its HTML export written offline;
then ``referee serve`` in a subprocess on a free port for the hall as the organiser (a console) and as a
spectator (a projection, also on a 1920x1080 screen), the arbiter's console, a player's page, and the seat's
page of each game mid-game: a match made over the served hall (``POST /matches``), a few moves played
through the HTTP API as the seats' pages would play them, opened as the seat to move (its hand covered).
The tournament's tokens are those ``referee tournament tokens --json`` issues. Each page is saved as
``NAME-SIZE.png`` (phone 390x844, desktop 1280x800, screen 1920x1080), the viewport only (a seat's page on a
phone: the whole page, as far as 2,400 px down, its board being below its moves); with Pillow
installed, each picture is reduced to a palette of 256 colours (a third of the bytes). Prints each page's
size in bytes and the time it took to render.

``tests/test_pages_browser.py`` opens the same pages (:func:`pages`, :func:`visit`) and checks their
layout at every size, so the pictures and the test cannot drift apart.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

#: the games whose viewers are shown, each by its bundled demo (the first transcript in its folder)
GAMES = ("by_all_means", "war_of_shadows", "xfiles_encounters", "android", "copycat")
#: name -> (width, height, a phone?)
SIZES = {"phone": (390, 844, True), "desktop": (1280, 800, False), "screen": (1920, 1080, False)}
#: the small tournament the hall, its export, the arbiter's console and the player page show
EVENT = "Thursday club"
PLAYERS = ("ann", "ben", "cy", "dee", "eve", "fay", "gus", "hal")
#: how long the round clock has been running when the pages are opened (of its 50 minutes)
CLOCK_RAN = 18 * 60
#: the seats of each game's match played over the server for its seat's page, and how many moves are played
SEATS = {"by_all_means": ("ann", "ben"), "war_of_shadows": ("ann", "ben"), "xfiles_encounters": ("ann", "ben", "cy"),
         "android": ("ann", "ben", "cy"), "copycat": ("ann", "ben", "cy")}
SEAT_MOVES = {"by_all_means": 12, "war_of_shadows": 8, "xfiles_encounters": 6, "android": 18, "copycat": 10}
#: the player whose page is shown
PLAYER = "ann"
#: what each served page has drawn once its script has fetched what it shows
HALL_READY = "return document.querySelectorAll('#standings-body tr').length > 0"
PLAYER_READY = "return !!document.getElementById('rating-chart')"
#: a seat's page on a phone is pictured whole, down to this many px: its moves, then the board below them
TALLEST = 2400
SEAT_READY = "return Number(document.body.dataset.loads || 0) > 0"
ARBITER_READY = ("return Number(document.body.dataset.matters || 0) > 0 "
                 "&& / left/.test(document.getElementById('clock').textContent)")
#: the pages also shown in Russian (the first game's viewer, exported in Russian; the organiser's hall opened
#: with ?lang=ru), last
RUSSIAN = ("viewer-by-all-means-ru", "hall-organiser-ru")
#: every page's name, in the order :func:`pages` gives them (the pictures' files are NAME-SIZE.png)
NAMES = (*(f"viewer-{game.replace('_', '-')}" for game in GAMES), "hall-organiser", "hall-spectator",
         "tournament-export", f"player-{PLAYER}", "arbiter", *(f"seat-{game.replace('_', '-')}" for game in GAMES),
         *RUSSIAN)
#: the sizes each page is shown at (the spectators' projection also on a hall's screen)
SHOWN_AT = {name: ("phone", "desktop", "screen") if name == "hall-spectator" else ("phone", "desktop")
            for name in NAMES}


@dataclass(frozen=True)
class Page:
    """One page to open: a file:// or http:// address (a token in its fragment), when it is drawn (a
    script returning true once what the page fetches is shown; None: when it has loaded), and its file
    (a page written offline) for its size in bytes."""

    name: str
    url: str
    ready: str | None = None
    file: str | None = None


def _cli(db: str, *args: str) -> str:
    """``referee --db DB ARGS`` as a user types it (this tree first on the path); its output."""
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-m", "cli.main", "--db", db, *args], cwd=os.path.dirname(db), env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"referee {' '.join(args)} failed ({done.returncode}): {done.stderr or done.stdout}")
    return done.stdout


def viewers(referee: Any, work: str) -> list[Page]:
    """Each game's demo imported and exported as the viewer for its first seat."""
    from referee.export import export
    from referee.transcript import import_transcript

    out = []
    for game in GAMES:
        folder = os.path.join(ROOT, "replays", game)
        name = sorted(f for f in os.listdir(folder) if f.endswith(".txt"))[0]
        with open(os.path.join(folder, name), encoding="utf-8") as fh:
            mid = import_transcript(referee, fh.read(), os.path.join(folder, name), folder).match_id
        seat = referee.load(mid).config.players[0]
        path = os.path.join(work, f"viewer-{game}.html")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(export(referee, mid, "html", seat))
        out.append(Page(NAMES[GAMES.index(game)], "file://" + path, file=path))
    return out


def russian_viewer(referee: Any, work: str) -> Page:
    """The first game's demo exported as the viewer for its first seat, in Russian (as ``referee --lang ru
    export`` writes it)."""
    from referee.export import export
    from referee.i18n import speaking

    game = GAMES[0]
    mid = next(m.id for m in referee.store.list_matches() if m.game == game)
    path = os.path.join(work, f"viewer-{game}-ru.html")
    with speaking("ru"), open(path, "w", encoding="utf-8") as fh:
        fh.write(export(referee, mid, "html", referee.load(mid).config.players[0]))
    return Page(RUSSIAN[0], "file://" + path, file=path)


def play(referee: Any, mid: str, rng: random.Random, moves: int | None = None) -> None:
    """The match played by random legal moves (the referee fills in chance): to its end, or ``moves`` of them."""
    from referee.engine.notation import format_intent

    loaded = referee.load(mid)
    done = 0
    while moves is None or done < moves:
        _, state = referee.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            return
        picked = loaded.rules.random_intent(state, rng)
        if picked is None:
            raise RuntimeError(f"match {mid}: nobody can move")
        seat, intent = picked
        if not referee.submit(mid, seat, format_intent(intent)).accepted:
            raise RuntimeError(f"match {mid}: a legal move was refused: {seat}: {format_intent(intent)}")
        done += 1


def tournament(referee: Any) -> str:
    """A Swiss tournament of eight: rounds 1 to 3 played out; round 4 paired, its table 1 finished, table 2
    mid-game with its last move disputed by the other seat, table 3's seats reporting different results, table 4
    mid-game, and the round clock started :data:`CLOCK_RAN` seconds before now. Its id."""
    from datetime import UTC, datetime, timedelta

    from referee.tournament import clock
    from referee.tournament.reports import report
    from referee.tournament.service import Tournaments

    t = Tournaments(referee, clock=lambda: "2026-11-26T19:00:00Z")
    tid: str = t.create(EVENT, "by_all_means", rounds=4, seed=7, chance="digital", players=PLAYERS).id
    rng = random.Random(7)
    for number in (1, 2, 3):
        for table in t.pair(tid, tokens=False).tables:
            assert table.match_id is not None
            play(referee, table.match_id, rng)
    finished, disputed, reported, playing = t.pair(tid, tokens=False).tables
    assert finished.match_id and disputed.match_id and playing.match_id
    play(referee, finished.match_id, rng)
    play(referee, disputed.match_id, rng, 12)
    last = referee.log(disputed.match_id)[-1]  # disputed by the seat that did not play it
    referee.annotate(disputed.match_id, last.seq, "that move was entered before I had answered it: I want it looked at",
                     kind="disputed", by=next(seat for seat in disputed.seats if seat != last.actor))
    for seat in reported.seats:
        report(t, tid, 4, reported.table, seat, f"win:{seat}", by=seat)
    play(referee, playing.match_id, rng, 20)
    started = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=CLOCK_RAN)
    clock.start(Tournaments(referee, clock=lambda: started.strftime("%Y-%m-%dT%H:%M:%SZ")), tid, 50)
    return tid


def call(url: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    """One request to the served hall (a JSON body: a POST), with ``token``; the JSON answered."""
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(url + path, data=data, method="GET" if body is None else "POST", headers=headers)
    with urllib.request.urlopen(req, timeout=30) as answer:
        return json.loads(answer.read())


def seat_pages(url: str) -> list[Page]:
    """Each game's match made over the served hall, its :data:`SEAT_MOVES` moves played as the seats' pages play
    them (a seeded pick among the choices ``/matches/M/seat`` offers the seat to move; a held move confirmed
    by its confirmer), and the page of the seat to move next."""
    out = []
    for game in GAMES:
        made = call(url, "/matches", "", {"game": game, "players": list(SEATS[game]), "chance": "digital",
                                           "seed": 5, "title": f"{EVENT}: {game.replace('_', ' ')}"})
        mid, tokens = made["match"]["id"], made["tokens"]["seats"]
        rng = random.Random(5)
        moved = 0
        while moved < SEAT_MOVES[game]:
            answers = {seat: call(url, f"/matches/{mid}/seat", token) for seat, token in tokens.items()}
            seat = next((s for s, a in answers.items() if a["held"] and a["held"]["confirmer"] == s), None)
            if seat is not None:
                call(url, f"/matches/{mid}/confirmations", tokens[seat],
                     {"entry": answers[seat]["held"]["seq"], "expected_seq": answers[seat]["seq"]})
                continue
            seat = next((s for s, a in answers.items() if a["moves"] and not a["result"]), None)
            if seat is None:
                raise RuntimeError(f"{game}: nobody has a move after {moved} moves")
            group = rng.choice(answers[seat]["moves"])
            choice = rng.choice(group["choices"])
            done = call(url, f"/matches/{mid}/intents", tokens[seat],
                        {"intent": choice["intent"], "expected_seq": answers[seat]["seq"]})
            if done["verdict"] not in ("accepted", "held"):
                raise RuntimeError(f"{game}: an offered move was refused: {seat}: {choice['intent']}: {done}")
            moved += 1
        seat = next(s for s, token in tokens.items() if call(url, f"/matches/{mid}/seat", token)["moves"])
        out.append(Page(f"seat-{game.replace('_', '-')}", f"{url}/play/{mid}#token={tokens[seat]}", SEAT_READY))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(db: str) -> Iterator[str]:
    """``referee serve`` on the database, on a free port, in a subprocess; its address while it runs."""
    import urllib.request

    port = free_port()
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    log = os.path.join(os.path.dirname(db), "serve.log")
    with open(log, "wb") as said:  # a file, not a pipe: a pipe nobody reads would stall the server once full
        proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--db", db, "--port", str(port)],
                                cwd=os.path.dirname(db), env=env, stdout=said, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/games", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    with open(log, encoding="utf-8", errors="replace") as fh:
                        raise RuntimeError(f"referee serve did not start: {fh.read()[-2000:]}") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def pages(work: str) -> Iterator[list[Page]]:
    """Every page, built in ``work`` (a directory of the caller's), the served ones served while the
    context is open: the five viewers, the hall as organiser and as spectator, the tournament's HTML
    export, a player's page, the arbiter's console and each game's seat page."""
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore
    from referee.tournament.service import Tournaments

    db = os.path.join(work, "referee.db")
    referee = Referee(SqliteStore(db, durability="normal"))
    shown = viewers(referee, work)
    russian = russian_viewer(referee, work)
    tid = tournament(referee)
    export = os.path.join(work, "tournament.html")
    with open(export, "w", encoding="utf-8") as fh:
        fh.write(Tournaments(referee).export(tid, "html"))
    referee.store.close()
    with serving(db) as url:
        issued = json.loads(_cli(db, "tournament", "tokens", tid, "--json", "--base-url", url))
        token = {(t["role"], t["player"]): t["token"] for t in issued["tokens"]}
        yield [*shown,
               Page("hall-organiser", f"{url}/hall/{tid}#token={token[('organiser', None)]}", HALL_READY),
               Page("hall-spectator", f"{url}/hall/{tid}#token={token[('spectator', None)]}", HALL_READY),
               Page("tournament-export", "file://" + export, file=export),
               Page(f"player-{PLAYER}", f"{url}/hall/{tid}/players/{PLAYER}#token={token[('spectator', None)]}",
                    PLAYER_READY),
               Page("arbiter", f"{url}/hall/{tid}/arbiter#token={token[('organiser', None)]}", ARBITER_READY),
               *seat_pages(url),
               russian,
               Page(RUSSIAN[1], f"{url}/hall/{tid}?lang=ru#token={token[('organiser', None)]}", HALL_READY)]


#: the command-line flags of the pictures' Chromium (the page tests borrow one started with them)
FLAGS = ("--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--force-color-profile=srgb")


def browser() -> Any:
    """Headless Chromium with the page tests' flags (the caller quits it)."""
    from tests.support.browser import chromium

    return chromium(*FLAGS)


def visit(driver: Any, page: Page, size: str) -> float:
    """Open the page in a viewport of ``size`` (a key of :data:`SIZES`), wait until it is drawn; the
    seconds that took (from asking for the page to its last script's drawing)."""
    width, height, mobile = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.get("about:blank")  # a new document each time
    t0 = time.perf_counter()
    driver.get(page.url)
    if page.ready:
        deadline = time.monotonic() + 30
        while not driver.execute_script(page.ready):
            if time.monotonic() > deadline:
                shown = driver.execute_script("return document.body.innerText")
                raise RuntimeError(f"{page.name} was not drawn in 30 s: {shown}")
            time.sleep(0.02)
    return time.perf_counter() - t0


def page_bytes(driver: Any, page: Page) -> int:
    """The page's size: its file's, or what the browser fetched for it (the document and what its
    script fetched; the event streams not counted)."""
    if page.file:
        return os.path.getsize(page.file)
    got: int = driver.execute_script(
        "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
        ".reduce((n, e) => n + (e.decodedBodySize || 0), 0)")
    return got


def whole(driver: Any, most: int = TALLEST) -> None:
    """The phone's screen made as tall as the page (at most ``most`` px), so its picture shows the whole page."""
    width, _, mobile = SIZES["phone"]
    height = min(most, int(driver.execute_script("return document.documentElement.scrollHeight")))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    # two frames drawn at the new height before the picture is taken
    driver.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")


def shrink(path: str) -> None:
    """The picture reduced to 256 colours, where Pillow is installed (left as it is where not)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as img:
        small = img.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(HERE, "screenshots"), help="where the PNGs go")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    driver = browser()
    try:
        with tempfile.TemporaryDirectory() as work, pages(work) as shown:
            print(f"{'page':26s} {'bytes':>10s} {'phone ms':>9s} {'desktop ms':>11s}  pictures")
            for page in shown:
                rendered, wrote = {}, []
                for size in SHOWN_AT[page.name]:
                    rendered[size] = visit(driver, page, size)
                    if page.name.startswith("seat-") and size == "phone":
                        whole(driver)
                    out = os.path.join(args.out, f"{page.name}-{size}.png")
                    driver.save_screenshot(out)
                    shrink(out)
                    wrote.append(f"{os.path.relpath(out)} ({os.path.getsize(out):,})")
                print(f"{page.name:26s} {page_bytes(driver, page):>10,} {rendered['phone'] * 1000:>9.0f} "
                      f"{rendered['desktop'] * 1000:>11.0f}  {', '.join(wrote)}", flush=True)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
