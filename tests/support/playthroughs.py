"""Whole games pinned as playthroughs: for every bundled replay, one seeded random game of every
registered game and every match of the stored fixture (a database an older referee wrote), one line
per log entry (seq, actor, kind, verdict, rejection code, a hash of its events, the state hash after
it, the move), then the outcome and a head line (for the fixture, then what its audit says). The
files are checked in under ``tests/playthroughs/`` and ``tests/test_playthroughs.py`` recomputes
them, so a change of any verdict, code, event or state shows in review as a diff of those files.

Regenerate them all (from the repository's root)::

    python -m tests.support.playthroughs --write

(or ``python tests/support/playthroughs.py --write`` from anywhere). ``--check`` compares instead and
exits 1 on a difference; names after the flag limit either to those playthroughs: a file stem
(``copycat.thursday-club``), a game id (``copycat``) or a kind (``replay``, ``random``, ``fixture``).
Stale files are removed by ``--write`` when it writes them all.

A replay is imported through the service into a memory store as ``referee import`` does. A random game
is a digital match (fixed seed) played through the service by the game's ``random_intent`` for at most
:data:`MOVES` moves; before every :data:`PROBE_EVERY`-th move an earlier move (picked by the same
generator) is submitted again by its seat, so the file pins refusals too, and the arbiter undoes and
redoes once and undoes three entries once (then play goes on from there), which pins undo lines. A
fixture match is read from a scratch copy of the database as stored, and audited with rules changes
accepted, so a verdict the referee now derives otherwise shows as the audit's first finding. Nothing
here reads a clock or an unseeded generator: the same code and rules give the same files anywhere.

The head line holds the last seq, the state hash there and a digest of the whole log: sha256 chained
over every entry's stored body (intent as adjudicated, verdict, events, source) from a fixed root. The
match's own hash chain starts from its genesis, which holds its random id, so it differs per import.
"""

from __future__ import annotations

import contextlib
import difflib
import glob
import hashlib
import os
import random
import shutil
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "playthroughs")
COMMAND = "python -m tests.support.playthroughs --write"

#: a random game's seed, its move cap and how often an earlier move is tried again first
SEED = 2811
MOVES = 120
PROBE_EVERY = 9
#: before these moves the arbiter undoes: the last action then redoes it / three entries, and play goes on
UNDO_REDO, UNDO_ON = 40, 80

#: the stored fixture: a database written by an older referee (see tests/test_legacy_db.py)
FIXTURE = "tests/fixtures/legacy-2026-11-25.db"

COLUMNS = ("seq", "actor", "kind", "verdict", "code", "events", "state_hash", "move")


@dataclass(frozen=True)
class Source:
    """One playthrough: ``name`` is its file's stem; ``kind`` is ``replay`` (``ref``: the transcript,
    relative to the repository's root), ``random`` (the game's seeded random game) or ``fixture``
    (``ref``: a match id in :data:`FIXTURE`)."""

    name: str
    game: str
    kind: str
    ref: str = ""

    @property
    def replay(self) -> str | None:
        return self.ref if self.kind == "replay" else None


def sources() -> list[Source]:
    """Every playthrough, in a fixed order: the replays (sorted by path), one random game a game, the
    stored fixture's matches (sorted by id)."""
    from referee.games import GAMES

    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "replays", "*", "*.txt"))):
        rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
        game = rel.split("/")[1]
        found.append(Source(f"{game}.{os.path.splitext(os.path.basename(rel))[0]}", game, "replay", rel))
    found += [Source(f"{g.id}.random", g.id, "random") for g in GAMES]
    with _fixture() as referee:
        matches = sorted(referee.store.list_matches(), key=lambda m: m.id)
        found += [Source(f"fixture.{m.id}", m.game, "fixture", m.id) for m in matches]
    return found


@contextlib.contextmanager
def _fixture() -> Iterator[Any]:
    """A referee on a scratch copy of :data:`FIXTURE` (opening the database may write beside it)."""
    from referee.service import Referee
    from referee.store.sqlite import SqliteStore

    with tempfile.TemporaryDirectory(prefix="playthrough-") as scratch:
        path = os.path.join(scratch, "fixture.db")
        shutil.copyfile(os.path.join(ROOT, FIXTURE), path)
        referee = Referee(SqliteStore(path))
        try:
            yield referee
        finally:
            referee.store.close()


def path_of(source: Source) -> str:
    return os.path.join(OUT, source.name + ".txt")


def _cell(text: str | None) -> str:
    """A column's text on one line: no tabs or line breaks inside it, ``-`` for nothing."""
    if not text:
        return "-"
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _memory() -> Any:
    from referee.store.memory import MemoryStore

    return MemoryStore()


def _import(source: Source, store: Callable[[], Any]) -> tuple[Any, str, str]:
    from referee.service import Referee
    from referee.transcript import import_transcript

    assert source.replay is not None
    referee = Referee(store())
    path = os.path.join(ROOT, source.replay)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    summary = import_transcript(referee, text, source.replay, os.path.dirname(path))
    return referee, summary.match_id, f"replay {source.replay}"


def _random_game(source: Source, store: Callable[[], Any]) -> tuple[Any, str, str]:
    from referee.engine.notation import format_intent
    from referee.engine.protocol import Rejected
    from referee.games import GAMES
    from referee.service import Referee

    game = next(g for g in GAMES if g.id == source.game)
    players = max(game.min_players, min(2, game.max_players))
    seats = [f"p{i}" for i in range(players)]
    referee = Referee(store())
    match_id = referee.new_match(game.id, seats, seed=SEED).id
    rng = random.Random(SEED)
    loaded = referee.load(match_id)
    played: list[tuple[str, str]] = []
    for move in range(1, MOVES + 1):
        _, state = referee.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            break
        pick = loaded.rules.random_intent(state, rng)
        if pick is None:
            break
        seat, intent = pick
        text = format_intent(intent)
        if move == UNDO_REDO:
            if referee.undo(match_id, by="arbiter", reason="playthrough").accepted:
                referee.redo(match_id, by="arbiter", reason="playthrough")
        elif move == UNDO_ON:
            if referee.undo(match_id, by="arbiter", to=referee.store.head(match_id) - 3, reason="playthrough").accepted:
                continue  # the position moved back: pick again
        if move % PROBE_EVERY == 0 and played:
            # a move made earlier, tried again by its seat (mostly refused: out of turn, card gone...)
            old_seat, old_text = played[rng.randrange(len(played))]
            if not isinstance(referee.submit(match_id, old_seat, old_text).verdict, Rejected):
                continue  # still legal, and made: the position moved on, pick again
        referee.submit(match_id, seat, text)
        played.append((seat, text))
    how = (f"random digital game: seed {SEED}, seats {','.join(seats)}, at most {MOVES} moves by random_intent, "
           f"before every {PROBE_EVERY}th an earlier move tried again, before the {UNDO_REDO}th an undo and a "
           f"redo, before the {UNDO_ON}th an undo of three entries")
    return referee, match_id, how


def compute(source: Source, store: Callable[[], Any] = _memory) -> str:
    """The playthrough's text: a header, one line per entry, the outcome (JSON, ``-`` while the game
    is not over) and the head line. ``store`` makes the (empty) store it is played in: a memory store
    unless a test asks for another."""
    if source.kind == "fixture":
        with _fixture() as referee:
            report = referee.audit(source.ref, accept_rules_change=True)
            found = report.findings[0] if report.findings else None
            audit = f"entry {found.seq}: {found.what}" if found else "clean"
            return _text(source, referee, source.ref, f"{FIXTURE}, match {source.ref}",
                         f"audit (rules changes accepted)\t{audit}\n")
    referee, match_id, how = (_import if source.kind == "replay" else _random_game)(source, store)
    return _text(source, referee, match_id, how)


def _text(source: Source, referee: Any, match_id: str, how: str, tail: str = "") -> str:
    import msgspec

    match = referee.store.get_match(match_id)
    lines = [
        f"# playthrough {source.name}: game {match.game}, rules version {match.rules_version}",
        f"# source: {how}",
        f"# regenerate: {COMMAND} (after a rules change that legitimately changes verdicts)",
        "\t".join(COLUMNS),
    ]
    digest = hashlib.sha256(b"referee:playthrough").hexdigest()
    stored = {e.seq: e for e in referee.entries(match)}  # a fork's first entries are its parent's
    seq, state_hash = 0, ""
    for entry in referee.log(match_id):
        code = entry.rejection.code if entry.rejection is not None else None
        events = hashlib.sha256(msgspec.json.encode(entry.events, order="sorted")).hexdigest()[:16]
        lines.append("\t".join((str(entry.seq), _cell(entry.actor), entry.kind, entry.verdict, _cell(code),
                                events if entry.events else "-", entry.state_hash, _cell(entry.notation))))
        digest = hashlib.sha256((digest + "\n").encode() + stored[entry.seq].body).hexdigest()
        seq, state_hash = entry.seq, entry.state_hash
    outcome = referee.show(match_id).outcome
    lines.append("outcome\t" + (msgspec.json.encode(outcome, order="sorted").decode() if outcome else "-"))
    lines.append(f"head\t{seq}\t{state_hash or '-'}\t{digest}")
    return "\n".join(lines) + "\n" + tail


def first_difference(name: str, recorded: str, now: str) -> str:
    """A short account of how ``now`` differs from the file: the first differing line (an entry
    named by its seq), both versions of it, and how many lines differ in all."""
    old, new = recorded.splitlines(), now.splitlines()
    for i, (a, b) in enumerate(zip(old, new)):
        if a != b:
            break
    else:
        i = min(len(old), len(new))
    a = old[i] if i < len(old) else "(the file ends here)"
    b = new[i] if i < len(new) else "(the playthrough ends here)"
    # the entry the line belongs to (recorded or now), else what the line is
    first = (a if a[:1].isdigit() or (not b[:1].isdigit() and b[:1] == "(") else b).split("\t", 1)[0]
    what = {"head": "the head line", "outcome": "the outcome"}.get(first, f"line {i + 1} (the header)")
    what = "the audit" if first.startswith("audit") else what
    what = f"entry {first}" if first.isdigit() else what
    changed = sum(1 for tag in difflib.ndiff(old, new) if tag[:1] in "+-")
    return (f"{name}: first difference at {what}\n  recorded: {a}\n  now:      {b}\n"
            f"  (in all {changed} line{'' if changed == 1 else 's'} removed or added; if the change is meant, "
            f"run {COMMAND}, bump the game's rules version and say why in the commit)")


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    modes = [a for a in args if a in ("--write", "--check")]
    names = [a for a in args if not a.startswith("--")]
    if len(modes) != 1 or len(modes) + len(names) != len(args):
        out("usage: python -m tests.support.playthroughs (--write | --check) [NAME...]"
            "  (NAME: a playthrough's file stem, a game id, replay, random or fixture)")
        return 2
    every = sources()
    chosen = [s for s in every if not names or {s.name, s.game, s.kind} & set(names)]
    unknown = [n for n in names if not any(n in (s.name, s.game, s.kind) for s in every)]
    if unknown:
        out(f"no playthrough named {', '.join(unknown)}; known: {', '.join(s.name for s in every)}")
        return 2
    failed = 0
    for source in chosen:
        try:
            text = compute(source)
        except Exception as exc:  # one broken game must not hide what the others say
            out(f"{source.name}: could not be played through: {type(exc).__name__}: {exc}")
            failed += 1
            continue
        path = path_of(source)
        recorded = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                recorded = fh.read()
        if modes[0] == "--write":
            if recorded != text:
                os.makedirs(OUT, exist_ok=True)
                with open(path, "w", encoding="utf-8", newline="\n") as fh:
                    fh.write(text)
                out(f"wrote {os.path.relpath(path, ROOT)}")
        elif recorded is None:
            out(f"{source.name}: no file {os.path.relpath(path, ROOT)}")
            failed += 1
        elif recorded != text:
            out(first_difference(source.name, recorded, text))
            failed += 1
    if not names:
        known = {path_of(s) for s in every}
        for stale in sorted(set(glob.glob(os.path.join(OUT, "*.txt"))) - known):
            if modes[0] == "--write":
                os.remove(stale)
                out(f"removed {os.path.relpath(stale, ROOT)} (no playthrough of that name)")
            else:
                out(f"{os.path.relpath(stale, ROOT)}: no playthrough of that name")
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    if ROOT not in sys.path:  # run as a script: the referee of this checkout, not an installed one
        sys.path.insert(0, ROOT)
    raise SystemExit(main())
