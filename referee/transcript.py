"""Transcripts: a match as a person types it at the table, and importing one into the log.

Format (one rule set for every game; the README has an example per game)::

    # free comments anywhere
    game: by_all_means
    players: alice, bob
    cards: demo                      # a bundled set, or a path relative to the transcript
    deck: alice=demo_south, bob=demo_north
    option: reaction_window=true     # repeatable; or options: a=b, c=d
    chance: physical                 # the default; "seed: N" makes the match digital
    undo: any                        # who may undo: any, own_last, arbiter
    title: / event: / date: / round: / table:   (kept as metadata)

    1. alice: draw_opening_hand cards=TR1,TR2,AG1,PL2
    ! a strong opening                 # annotations attach to the move above them:
    ? too greedy                       #   ! good move, ? mistake,
    disputed: bob says TR2 was never drawn
    ruling: stands as played — the arbiter allowed it   # on a rejected move: it takes effect
    ruling: rewind to 12 — misdealt    # the arbiter rewinds: the state goes back to entry 12
    undo: to=12 by=alice reason="misread the card"      # an undo by a seat (or by=arbiter)
    redo: by=alice                     # reverse the latest undo
    confirm: entry=14 by=bob           # a move held for bob's confirmation takes effect (decline: it does not)
    bob: draw_opening_hand cards=TR3,TR3,GA1,GF1   # a trailing comment stays with the entry

The header ends at the first move. A move is ``[N.] seat: <intent notation>``. Each move, each undo
and redo line, and each ruling that acts (stands, rewind) becomes one log entry, numbered from 1 in
the order of the file — the numbers ``undo: to=`` and ``rewind to`` name. Every move is kept: accepted,
rejected (with code, reason and rule), or — when it cannot even be read (syntax error, unknown seat,
unknown card) — an ``unparsed`` entry that changes nothing. Comments and annotations are kept as
annotations of the entry above them (comments before the first move belong to the match).
Nothing stops the import but a bad header; the summary lists every problem with its line number.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from schemas import ARBITER, SEED_MAX, TEXT_MAX, TITLE_MAX, EntryLine, ImportProblem, ImportSummary, MatchConfig

from .engine.codes import GameCode, MatchCode, StoreCode, TranscriptCode
from .engine.notation import split_words
from .engine.protocol import Game, InputError, Rejected
from .engine.speech import again
from .errors import BadInput, RefereeError, StorageError
from .engine.datafile import bad_char, char_name
from .freetext import unescape_text
from .inputs import check_text
from .outcome import words as outcome_words
from .config import new_match_id
from .history import seal_annotations
from .i18n import N_
from .service import Referee
from .store import MatchSummary, StoredAnnotation, StoredEntry, StoredMatch, StoreError
from .store.memory import MemoryStore

HEADER_KEYS = ("game", "players", "cards", "deck", "decks", "option", "options", "seed", "chance", "result",
               "undo", "title", "event", "date", "round", "table")
META_KEYS = ("title", "event", "date", "round", "table")
#: words that begin a non-move line in the body, so no seat may be called this
RESERVED = ("undo", "redo", "ruling", "disputed", "confirm", "decline", ARBITER)

#: a value is ``(?:.*\S)?`` rather than a lazy ``.*?`` before ``\s*$``: the lazy form retries the trailing
#: ``\s*$`` at every position, quadratic in a line of spaces
_HEADER = re.compile(r"^\s*([a-z_]+)\s*:\s*((?:.*\S)?)\s*$")
_MOVE = re.compile(r"^\s*(?:(\d+)\s*[.)]\s*)?([A-Za-z0-9_-]+)\s*:\s*((?:.*\S)?)\s*$")
_STANDS = re.compile(r"^(?:entry\s+(\d+)\s+)?stands(?:\s+as\s+played)?\b\s*[-—:,]*\s*(.*)$", re.IGNORECASE)
_REWIND = re.compile(r"^rewind\s+to\s+(?:entry\s+)?(\d+)\b\s*[-—:,]*\s*(.*)$", re.IGNORECASE)
#: the comment a txt export begins with (``# By All Means — exported by referee (as arbiter)``)
_EXPORTED = re.compile(r"^.{1,200} — exported by referee \(as [^)]{1,80}\)$")
ANNOTATION_KINDS = {"!": "good", "?": "mistake", "disputed": "disputed", "ruling": "ruling"}


def strip_comment(line: str) -> tuple[str, str]:
    """Split ``text  # comment``: a ``#`` at the start or after a space, outside double quotes (a
    backslash escapes the next character inside quotes, and an escaped ``\\#`` is never a comment)."""
    in_quote = False
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch == "\\" and in_quote:
            i += 2
            continue
        if ch == '"':
            in_quote = not in_quote
        elif ch == "#" and not in_quote and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
        i += 1
    return line.rstrip(), ""


@dataclass
class Header:
    values: dict[str, str] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)
    decks: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    preamble: list[str] = field(default_factory=list)
    #: the first move, when it is an unnumbered ``word: ...`` line: a header key mistyped looks like it
    first_move: Line | None = None


@dataclass
class Line:
    """One body line: ``kind`` is move, undo, redo, annotation, comment or junk."""

    line: int
    kind: str
    raw: str
    seat: str = ""
    text: str = ""
    comment: str = ""
    number: int | None = None
    note_kind: str = ""


def _pairs(value: str, what: str, where: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in filter(None, (x.strip() for x in value.split(","))):
        key, sep, val = item.partition("=")
        if not sep or not key.strip():
            raise BadInput.said(TranscriptCode.BAD_HEADER, N_("{where}: {what} item {item!r} is not name=value"),
                                where=where, what=what, item=item)
        out[key.strip()] = val.strip()
    return out


def _classify(number: int, raw: str, body: str, comment: str) -> Line:
    stripped = body.strip()
    if stripped.startswith(("!", "?")) and not _MOVE.match(stripped):
        mark = stripped[0]
        return Line(number, "annotation", raw, text=stripped.lstrip("!?").strip() or mark, comment=comment,
                    note_kind=ANNOTATION_KINDS[mark])
    m = _MOVE.match(body)
    if m is None:
        return Line(number, "junk", raw, text=stripped, comment=comment)
    word = m.group(2)
    if word in ("disputed", "ruling") and m.group(1) is None:
        # a ruling that acts is read from the raw text (an escaped one is only an annotation)
        return Line(number, "annotation", raw, text=m.group(3), comment=comment, note_kind=word)
    if word in ("undo", "redo", "confirm", "decline") and m.group(1) is None:
        return Line(number, word, raw, text=m.group(3), comment=comment)
    return Line(number, "move", raw, seat=word, text=m.group(3), comment=comment,
                number=int(m.group(1)) if m.group(1) else None)


def _check_line(raw: str, where: str) -> None:
    """A transcript line is plain text of at most :data:`schemas.TEXT_MAX` characters (as long as an
    intent may be anywhere): a longer line, or one holding a control character, refuses the file."""
    if len(raw) > TEXT_MAX:
        raise BadInput.said(TranscriptCode.LINE_TOO_LONG, N_(
            "{where}: the line is {length:,} characters long; a transcript line may be at most {limit:,}"),
            where=where, length=len(raw), limit=TEXT_MAX)
    found = bad_char(raw)
    if found is not None:
        i, ch = found
        name = char_name(ch)
        raise BadInput.said(TranscriptCode.BAD_TEXT, N_("{where}: column {column} holds {name} (U+{code:04X}); a "
                                                        "transcript is plain text"),
                            where=where, column=i + 1, name=name, code=ord(ch))


#: what a game's other actors may do: ``{actor: its verbs}`` for a game id (empty when unknown)
ActorVerbs = Callable[[str], Mapping[str, frozenset[str]]]


def parse(text: str, source: str = "<transcript>", actor_verbs: ActorVerbs | None = None) -> tuple[Header, list[Line]]:
    """Read a transcript's header and body lines. A game may have an actor named like a header key
    (Copycat's ``table``): once ``game:`` has named it, a header line ``table: <verb> ...`` whose first
    word is one of the game's intents is that actor's move and ends the header, while ``table: 3``
    stays the table number (``actor_verbs`` says which actors and verbs a game has)."""
    header = Header()
    lines: list[Line] = []
    in_body = False
    for number, raw in enumerate(text.splitlines(), start=1):
        _check_line(raw, f"{source}:{number}")
        body, comment = strip_comment(raw)
        comment = unescape_text(comment)
        if not body.strip():
            if comment:
                if in_body:
                    lines.append(Line(number, "comment", raw, text=comment))
                elif not _EXPORTED.match(comment):  # the line an export starts with says nothing new
                    header.preamble.append(comment)
            continue
        where = f"{source}:{number}"
        m = _HEADER.match(body)
        if not in_body and m and m.group(1) in HEADER_KEYS and not _actor_move(header, m, actor_verbs):
            key, value = m.group(1), m.group(2)
            if key == "option":  # one option, whose value may be a list (a,b,c) or a map (alice:2,bob:0)
                name, sep, raw_value = value.partition("=")
                if not sep or not name.strip():
                    raise BadInput.said(TranscriptCode.BAD_HEADER, N_("{where}: option {value!r} is not name=value"),
                                        where=where, value=value)
                header.options[name.strip()] = raw_value.strip()
            elif key == "options":
                header.options.update(_pairs(value, "option", where))
            elif key in ("deck", "decks"):
                header.decks.update(_pairs(value, "deck", where))
            else:
                if key in header.values:
                    raise BadInput.said(TranscriptCode.BAD_HEADER, N_("{where}: {key} is given twice"), where=where, key=key)
                header.values[key] = value
            header.lines[key] = number
            continue
        in_body = True
        lines.append(_classify(number, raw, body, comment))
    first = next((x for x in lines if x.kind == "move"), None)
    if first is not None and first.number is None and first.seat not in RESERVED and not any(
            x.kind != "move" and x.kind not in ("comment", "annotation") and x.line < first.line for x in lines):
        header.first_move = first
    for key in ("game", "players"):
        if key not in header.values:
            if header.first_move is not None and _HEADER.match(header.first_move.raw.split("#")[0]):
                unknown_key(header, source, ())
            raise BadInput.said(TranscriptCode.BAD_HEADER, N_(
                "{source}: the header must name the {key} (a line '{key}: ...' before the first move)"),
                source=source, key=key)
    return header, lines


def _actor_move(header: Header, m: re.Match[str], actor_verbs: ActorVerbs | None) -> bool:
    """Whether a header-shaped line is an other actor's move (see :func:`parse`)."""
    if actor_verbs is None or "game" not in header.values:
        return False
    verbs = actor_verbs(header.values["game"]).get(m.group(1))
    first = m.group(2).split(maxsplit=1)[0] if m.group(2).strip() else ""
    return verbs is not None and first in verbs


def unknown_key(header: Header, source: str, actors: tuple[str, ...]) -> None:
    """Refuse a header whose first "move" is a mistyped header key (``titel: ...``): before the first move
    a ``word: ...`` line whose word is no header key, no seat and no other actor of the game is a header
    error, naming the nearest key or seat. (Read as a move, it would turn the header lines after it into
    moves too.)"""
    first = header.first_move
    if first is None or first.seat in actors:
        return
    import difflib

    word = first.seat
    close = difflib.get_close_matches(word.lower(), [*HEADER_KEYS, *actors], n=1, cutoff=0.6)
    said = {(True, True): N_("{where}: {word!r} is neither a header key nor a seat (did you mean {close!r}?): the "
                             "header keys are {keys}; a move is 'seat: intent' with a seat of {seats}; nothing was written"),
            (True, False): N_("{where}: {word!r} is neither a header key nor a seat: the header keys are {keys}; a "
                              "move is 'seat: intent' with a seat of {seats}; nothing was written"),
            (False, True): N_("{where}: {word!r} is not a header key (did you mean {close!r}?): the header keys are "
                              "{keys}; nothing was written"),
            (False, False): N_("{where}: {word!r} is not a header key: the header keys are {keys}; nothing was written")}
    raise BadInput.said(TranscriptCode.BAD_HEADER, said[bool(actors), bool(close)], where=f"{source}:{first.line}",
                        word=word, close=close[0] if close else "", keys=", ".join(HEADER_KEYS), seats=", ".join(actors))


def _kv(text: str, allowed: tuple[str, ...], what: str) -> dict[str, str]:
    try:
        words = split_words(text)
    except InputError as exc:
        # the notation's refusal read through its own template (in the reader's language, with the line's)
        raise BadInput.said(TranscriptCode.BAD_LINE, N_("{what}: {problem}"), what=what,
                            problem=again(exc.message, exc.template)) from None
    out = {}
    for w in words:
        k, sep, v = w.partition("=")
        if not sep or k not in allowed:
            raise BadInput.said(TranscriptCode.BAD_LINE, N_("{what}: expected {allowed}, got {word!r}"),
                                what=what, allowed=" ".join(a + "=..." for a in allowed), word=w)
        out[k] = v
    return out


def _int(value: str | None, what: str) -> int | None:
    if value is None:
        return None
    if not value.isdigit():
        raise BadInput.said(TranscriptCode.BAD_LINE, N_("{what} must be an entry number, not {value!r}"),
                            what=what, value=value)
    return int(value)


def import_transcript(referee: Referee, text: str, source: str = "<transcript>",
                      base_dir: str | None = None, *, again: bool = True) -> ImportSummary:
    """Adjudicate every line of a transcript and write the match and all its entries at once. A
    transcript the database already holds (:func:`digest`) is written again only with ``again``;
    otherwise nothing is written and the summary names the match that holds it (``stored`` false)."""
    done = adjudicate(referee, text, source, base_dir)
    return done.summary if done.summary.already and not again else store(referee, done)


@dataclass
class Adjudicated:
    """A transcript adjudicated on a scratch store, not yet written: the match, its entries and
    annotations, and the summary (``stored`` false until :func:`store` writes it)."""

    match: StoredMatch
    entries: list[StoredEntry]
    notes: list[tuple[int, str, str]]
    summary: ImportSummary
    #: the match's summary as the scratch store kept it (written with the match)
    listed: MatchSummary | None = None


def normalised(text: str) -> str:
    """A transcript's text as its digest reads it: no byte-order mark, ``\n`` line ends, no white space
    at the end of a line, no blank lines at either end. (Anything else — a comment, a move, the header —
    makes another transcript.)"""
    rows = [line.rstrip() for line in text.lstrip("\ufeff").splitlines()]
    return "\n".join(rows).strip("\n")


def digest(text: str, config: MatchConfig) -> str:
    """What recognises a transcript already imported: sha256 over its normalised text and the match
    configuration read from it (so the same text read with other card data is another transcript)."""
    return hashlib.sha256(b"referee-transcript/1\n" + normalised(text).encode("utf-8", "surrogatepass")
                          + b"\n\x00" + msgspec.json.encode(config)).hexdigest()


def follow_ons(moves: list[tuple[int, str, str]]) -> dict[int, int]:
    """Which rejected lines follow from an earlier one: ``{line: the line it follows}``. ``moves`` are
    ``(line, seat, outcome)`` in file order, outcome ``accepted``, ``rejected`` or anything else (passed
    over). A seat's first rejected line is a cause; every later line of that seat rejected before one of
    its lines is accepted again follows from it (what a seat writes after a refused move usually builds
    on that move: the card it never drew, the action it never had)."""
    cause: dict[str, int] = {}
    after: dict[int, int] = {}
    for line, seat, outcome in moves:
        if outcome == "accepted":
            cause.pop(seat, None)
        elif outcome == "rejected":
            if seat in cause:
                after[line] = cause[seat]
            else:
                cause[seat] = line
    return after


def sealed_notes(referee: Referee, done: Adjudicated) -> list[StoredAnnotation]:
    """An adjudicated transcript's annotations as the match keeps them (chained)."""
    match_id = done.match.id
    return seal_annotations(match_id, [
        StoredAnnotation(match_id=match_id, seq=seq, kind=kind, text=note, by="transcript", recorded_at=referee.clock())
        for seq, kind, note in done.notes
    ])


def store(referee: Referee, done: Adjudicated) -> ImportSummary:
    """Write an adjudicated transcript: the match, every entry and every annotation, at once."""
    match_id = done.match.id
    annotations = sealed_notes(referee, done)
    try:
        referee.store.create_match(done.match, done.entries, annotations, transcript=done.summary.digest,
                                   summary=done.listed)
    except StoreError as exc:
        raise StorageError.said(StoreCode.FAILED, N_("could not write the imported match: {reason}"),
                                reason=str(exc)) from None
    return msgspec.structs.replace(done.summary, match_id=match_id, stored=True)


def _actor_verbs(referee: Referee, name: str) -> Mapping[str, frozenset[str]]:
    """The verbs each of a game's other actors may write (every verb of the game), or nothing for a
    game the referee does not know (the header's own check names that)."""
    try:
        game = referee.game(name.strip())
    except RefereeError:
        return {}
    if not game.capabilities.other_actors:
        return {}
    from .engine.notation import verbs_of

    verbs = frozenset(verbs_of(game.intent_type))
    return {actor: verbs for actor in game.capabilities.other_actors}


def _configure(referee: Referee, header: Header, source: str, base_dir: str | None,
               meta_given: Mapping[str, str] | None = None) -> tuple[Game, MatchConfig]:
    """The match a transcript's header describes, checked (a fault names its header line); its free-text
    values are unescaped in ``header.values``. ``meta_given`` replaces the header's metadata of the same
    keys (a tournament's table names its tournament, event, round and table)."""
    values = header.values
    seed: int | None = None
    if "seed" in values:
        raw_seed = values["seed"]
        if not (raw_seed.isascii() and raw_seed.isdigit()) or int(raw_seed) > SEED_MAX:
            raise BadInput.said(TranscriptCode.BAD_HEADER, N_(
                "{where}: seed must be a whole number from 0 to {limit:,}, not {seed!r}"),
                where=f"{source}:{header.lines['seed']}", limit=SEED_MAX, seed=raw_seed[:40])
        seed = int(raw_seed)
    for key in META_KEYS:
        if key in values:
            try:
                check_text(values[key], key, TITLE_MAX)
            except BadInput as exc:
                raise BadInput(TranscriptCode.BAD_HEADER, f"{source}:{header.lines[key]}: {exc.message}") from None
    players = [p.strip() for p in values["players"].split(",") if p.strip()]
    if header.first_move is not None and header.first_move.seat not in players:
        try:
            others: tuple[str, ...] = tuple(referee.game(values["game"]).capabilities.other_actors)
        except RefereeError:
            others = ()
        unknown_key(header, source, (*players, *others))
    for p in players:
        if p in RESERVED:
            raise BadInput.said(TranscriptCode.BAD_HEADER, N_(
                "{where}: {seat!r} cannot be a seat name in a transcript (reserved: {reserved})"),
                where=f"{source}:{header.lines['players']}", seat=p, reserved=", ".join(RESERVED))
    values.update({k: unescape_text(values[k]) for k in (*META_KEYS, "cards") if k in values})
    meta = {k: values[k] for k in META_KEYS if k in values}
    meta.update(meta_given or {})
    meta.setdefault("title", "")  # an untitled match has an empty title in its configuration: the audit compares it
    try:
        game, config = referee.build_config(
            values["game"], players,
            options=header.options, cards=values.get("cards"), decks=header.decks, seed=seed,
            chance=values.get("chance"), meta=meta, base_dir=base_dir, undo=values.get("undo", "any"),
        )
    except RefereeError as exc:
        fields: dict[str, str] = {
            GameCode.UNKNOWN: "game", MatchCode.BAD_PLAYERS: "players", MatchCode.BAD_OPTION: "option",
            MatchCode.BAD_CHANCE: "chance", MatchCode.BAD_UNDO_POLICY: "undo", MatchCode.BAD_SEED: "seed"}
        key = fields.get(exc.code, "cards" if exc.code.startswith("cards") else "")
        line = header.lines.get(key) or header.lines.get(key + "s")
        where = f"{source}:{line}" if line else source
        raise type(exc)(exc.code, f"{where}: {exc.message}", exc.detail) from None
    return game, config


def _answered(lines: list[Line]) -> dict[int, bool]:
    """The moves (by line) answered by a ``confirm:`` or ``decline:`` line after them (comments and
    annotations between): they were made by a seat that could not see what they read."""
    answered: dict[int, bool] = {}
    last_move: Line | None = None
    for item in lines:
        if item.kind == "move":
            last_move = item
        elif item.kind in ("confirm", "decline") and last_move is not None:
            answered[last_move.line] = True
            last_move = None
        elif item.kind not in ("comment", "annotation"):
            last_move = None
    return answered


def read(referee: Referee, text: str, source: str = "<transcript>") -> tuple[Header, list[Line]]:
    """A transcript's header and body lines (:func:`parse`, knowing the games' other actors)."""
    return parse(text, source, lambda name: _actor_verbs(referee, name))


def _problem(game: Game, item: Line, code: str, message: str, rule: str, entry: int | None) -> ImportProblem:
    """A line's problem, its rule also as an English sentence cites it (the game's rulebook in English)."""
    return ImportProblem(line=item.line, text=item.raw.strip(), code=code, message=message, rule=rule,
                         rule_english=game.rulebook.english(rule), entry=entry)


def adjudicate(referee: Referee, text: str, source: str = "<transcript>", base_dir: str | None = None, *,
               meta: Mapping[str, str] | None = None, parsed: tuple[Header, list[Line]] | None = None) -> Adjudicated:
    """Adjudicate every line of a transcript on a scratch store; nothing is written. The summary's
    ``already`` names the matches of ``referee``'s store imported from the same transcript. ``meta``
    replaces the header's metadata of the same keys; ``parsed``: :func:`read`'s answer for this text."""
    header, lines = parsed if parsed is not None else read(referee, text, source)
    game, config = _configure(referee, header, source, base_dir, meta)
    # adjudicate on a scratch in-memory store (the same code path as `referee play`), then copy the
    # match, every entry and every annotation to the real store: all or nothing.
    scratch = Referee(MemoryStore(), games=referee.given_games, clock=referee.clock, snapshot_every=referee.snapshot_every)
    match_id = new_match_id()
    scratch.create_match(game, config, title=config.meta.get("title", ""), match_id=match_id)
    problems: list[ImportProblem] = []
    notes: list[tuple[int, str, str]] = [(0, "comment", c) for c in header.preamble]
    accepted = rejected = 0
    last_seq = 0

    moves: list[tuple[int, str, str]] = []
    read_from: list[EntryLine] = []  # the entries that record their line (meta_e), as the log does

    def problem(item: Line, code: str, message: str, rule: str = "", entry: int | None = None) -> None:
        problems.append(_problem(game, item, code, message, rule, entry))

    answered = _answered(lines)
    for item in lines:
        meta_e: dict[str, Any] = {"line": item.line}
        if item.comment:
            meta_e["comment"] = item.comment
        if item.number is not None:
            meta_e["number"] = item.number
        if item.kind == "comment":
            notes.append((last_seq, "comment", item.text))
            continue
        if item.kind == "annotation":
            target = last_seq
            if target == 0:
                problem(item, TranscriptCode.ANNOTATION_BEFORE_MOVES, "an annotation must follow the move it is about")
                notes.append((0, item.note_kind, unescape_text(item.text)))
                continue
            stands = _STANDS.match(item.text.strip()) if item.note_kind == "ruling" else None
            rewind = _REWIND.match(item.text.strip()) if item.note_kind == "ruling" else None
            if not (stands or rewind):  # an annotation; a ruling that acts is an entry of its own
                notes.append((target, item.note_kind, unescape_text(item.text)))
                continue
            try:
                if stands:
                    entry = int(stands.group(1)) if stands.group(1) else target
                    res = scratch.rule_stands(match_id, entry, reason=unescape_text(stands.group(2)))
                else:
                    assert rewind is not None
                    res = scratch.undo(match_id, by=ARBITER, to=int(rewind.group(1)),
                                       reason=unescape_text(rewind.group(2) or item.text))
            except BadInput as exc:
                problem(item, exc.code, exc.message)
                notes.append((target, item.note_kind, unescape_text(item.text)))
                continue
            last_seq = res.seq
            if isinstance(res.verdict, Rejected):
                v = res.verdict
                problem(item, v.code, v.message, v.rule, res.seq)
            elif stands and res.actor == ARBITER and res.intent is not None:
                moves.append((item.line, _ruled_seat(scratch, match_id, entry), "accepted"))
            continue
        try:
            if item.kind == "undo":
                kv = _kv(item.text, ("to", "by", "reason"), "undo")
                res = scratch.undo(match_id, by=kv.get("by", ARBITER), to=_int(kv.get("to"), "undo to"),
                                   reason=unescape_text(kv.get("reason", "")))
            elif item.kind == "redo":
                kv = _kv(item.text, ("undo", "by", "reason"), "redo")
                res = scratch.redo(match_id, by=kv.get("by", ARBITER), undo=_int(kv.get("undo"), "redo undo"),
                                   reason=unescape_text(kv.get("reason", "")))
            elif item.kind in ("confirm", "decline"):
                kv = _kv(item.text, ("entry", "by", "reason"), item.kind)
                res = scratch.confirm(match_id, _int(kv.get("entry"), f"{item.kind} entry"), by=kv.get("by", ARBITER),
                                      accept=item.kind == "confirm", reason=unescape_text(kv.get("reason", "")))
            elif item.kind == "junk":
                raise BadInput.said(TranscriptCode.BAD_LINE, N_(
                    "expected '<seat>: <intent>' (e.g. 'alice: draw_main card=TR6'), an annotation ('! …', '? …', "
                    "'disputed: …', 'ruling: …'), 'undo: …' or 'redo: …'"))
            else:
                # a move answered by a `confirm:` or `decline:` line was made by a seat that could not
                # see what it reads: it waits for that answer, as it did at the table
                res = scratch.submit(match_id, item.seat, item.text, meta=meta_e, hold=answered.get(item.line, False))
                read_from.append(EntryLine(entry=res.seq, line=item.line))
        except BadInput as exc:
            last_seq = scratch.record_unparsed(match_id, item.seat or None, item.raw.strip(), exc.code,
                                               exc.message, meta_e)
            read_from.append(EntryLine(entry=last_seq, line=item.line))
            problem(item, exc.code, exc.message, entry=last_seq)
            continue
        last_seq = res.seq
        if res.accepted:
            accepted += 1
            if item.kind == "move":
                moves.append((item.line, item.seat, "accepted"))
        elif isinstance(res.verdict, Rejected):  # (a held move's verdict is its confirmation's)
            rejected += 1
            v = res.verdict
            problem(item, v.code, v.message, v.rule, res.seq)
            if item.kind == "move":
                moves.append((item.line, item.seat, "rejected"))
    stored = scratch.store.get_match(match_id)
    assert stored is not None
    entries = list(scratch.store.entries(match_id))
    after = follow_ons(moves)
    if after:
        problems = [msgspec.structs.replace(p, after=after.get(p.line)) for p in problems]
    final = scratch.show(match_id)
    outcome = final.outcome
    problems.extend(_result_differs(header, outcome))
    key = digest(text, config)
    already = referee.store.find_transcript(key)
    summary = ImportSummary(  # (until it is written, the match id is the one that holds it already, if any)
        match_id=already[-1] if already else match_id, game=game.id,
        lines=sum(1 for x in lines if x.kind in ("move", "undo", "redo", "confirm", "decline", "junk")),
        entries=len(entries), accepted=accepted, rejected=rejected, problems=problems, outcome=outcome,
        state_hash=final.state_hash, stored=False, already=already, digest=key, entry_lines=read_from,
    )
    return Adjudicated(stored, entries, notes, summary, scratch.store.summary(match_id))


def _result_differs(header: Header, outcome: Any) -> list[ImportProblem]:
    """The result as written (as an export writes it) is checked, never trusted: the log decides it."""
    values = header.values
    if "result" not in values:
        return []
    said, found = unescape_text(values["result"]), outcome_words(outcome)
    if said == found:
        return []
    return [ImportProblem(line=header.lines["result"], text=f"result: {values['result']}",
                          code=TranscriptCode.RESULT_DIFFERS,
                          message=f"the transcript says the result is {said!r}; the referee finds {found!r}")]


def _ruled_seat(scratch: Referee, match_id: str, entry: int) -> str:
    """The seat whose rejected move entry ``entry`` is (a ruling let it stand)."""
    loaded = scratch.load(match_id)
    found = scratch.entry_at(loaded.match, entry)
    return (found.actor or "") if found is not None else ""


def source_name(path: str) -> str:
    return os.path.basename(path)
