"""Amending a line after import: a typo on the score sheet corrected, as entries appended to the log.

``referee amend MATCH LINE "corrected text" --reason … --by …`` corrects the line the scorekeeper got
wrong. Nothing in the log is edited: as ``rule --main`` does for a ruling, the correction is

1. an arbiter's undo back to the entry before the line (the original stays in the log, marked undone,
   and the undo's reason says which line was amended, why and by whom) — unless nothing has changed the
   state since that entry (the lines after it were all refused or unreadable): then the original and
   those lines simply stay as they are, and the correction follows them;
2. the corrected line, adjudicated where the original was played, as the seat's move: its source
   records the transcript line it stands for and the correction (``amends``: the entry it replaces,
   ``reason``, ``amended_by``), so the log, the exports and the viewer show it as the amended line;
3. every later entry of the line in effect played again on top of it (:func:`referee.rulings.replay`),
   each with its new verdict, keeping its transcript line.

The result is what the log now says. A finished match is amended all the same (the arbiter's undo
reopens it; the end of the game may move). If the match is a tournament table whose round is closed,
the table's result follows as a tournament record (``result_corrected``); an open round reads it from
the log as before.

Refused before anything is written: an unknown match or line, a line that made no entry (naming the
nearest that did), an entry that is not a move line or no longer in the line of play, a corrected text
the game's notation cannot read (its error), a text that is the line as recorded, a reason that reads
as a transcript line (so that no exported transcript reads it back as a move), no reason, no ``--by``.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from schemas import ARBITER, NAME_MAX, TEXT_MAX, Outcome

from .engine.codes import AmendCode, InputCode, MatchCode
from .engine.protocol import Held, Rejected
from .entryref import pick
from .errors import BadInput
from .history import expect_head
from .i18n import N_
from .inputs import check_text
from .redaction import verdict_name
from .rulings import Replayed, replay
from .service import Referee

#: ``[N.] seat: text`` — a corrected line that names its seat
_SEATED = re.compile(r"^\s*(?:\d+\s*[.)]\s*)?([A-Za-z0-9_-]+)\s*:\s*(.*?)\s*$")
#: a reason's length: the undo that begins a correction says it with the line and who amended
REASON_MAX = 2_000
#: the words that begin a transcript line that acts (besides a seat's name)
_ACTING = ("undo", "redo", "ruling", "disputed", "confirm", "decline", "amend", ARBITER)
_ENTRY = re.compile(r"^(?:#|entry:)\s*(\d{1,9})$")
_LINE = re.compile(r"^(?:line:)?\s*(\d{1,9})$")


class AmendRefused(BadInput):
    """An amendment that cannot apply: nothing was written (exit 1: the referee said no)."""

    exit_code = 1
    http_status = 422


class TableFollow(msgspec.Struct, frozen=True, kw_only=True):
    """What became of the tournament table the amended match is played at."""

    tournament: str
    round: int
    table: int
    #: ``corrected`` (a result_corrected record appended: ``record``), ``live`` (the round is open: its
    #: standings read the log), ``unchanged`` (the result was already this), ``unfinished`` (the match has
    #: no result now: the table keeps the one recorded), ``arbiter`` (the arbiter's result stands)
    status: str
    record: int | None = None
    outcome: Outcome | None = None


class Amendment(msgspec.Struct, frozen=True, kw_only=True):
    """A line amended: the correction and what became of every later entry."""

    match_id: str
    #: the entry corrected, and the transcript line it was read from (None: a match played entry by entry)
    entry: int
    line: int | None
    #: the line as it was (``seat: text``, the arbiter's view) and as it is now
    was: str
    now: str
    reason: str
    by: str
    #: the arbiter's undo back to the entry before (None: nothing had changed the state since it, so the
    #: correction follows at the head), and the corrected line's entry
    undo: int | None
    seq: int
    verdict: str
    rejection: str = ""
    replayed: list[Replayed] = []
    outcome_before: Outcome | None = None
    outcome: Outcome | None = None
    tables: list[TableFollow] = []

    @property
    def sentence(self) -> str:
        """``line 23 amended: was `…`, now `…` (reason, by)``."""
        where = f"line {self.line}" if self.line is not None else f"entry {self.entry}"
        return f"{where} amended: was `{self.was}`, now `{self.now}` ({self.reason}, {self.by})"


def check_reason(reason: str, actors: tuple[str, ...] = ()) -> str:
    """A correction's reason: one line of text that does not read as a transcript line (``alice: …``,
    ``ruling: …``, ``undo: …``), else BadInput."""
    check_text(reason, "the reason (--reason)", REASON_MAX, required=True)
    found = _SEATED.match(reason)
    word = found.group(1).lower() if found else ""
    if found and (word in _ACTING or word in {a.lower() for a in actors} or word.isdigit()):
        raise BadInput.said(AmendCode.REASON_READS_AS_LINE, N_(
            "the reason {reason!r} reads as a transcript line ({word}: …); say why in words (e.g. 'the sheet says "
            "T14, the scorekeeper typed T12')"), reason=reason[:60], word=word)
    if reason.lstrip()[:1] in ("!", "?"):
        raise BadInput.said(AmendCode.REASON_READS_AS_LINE, N_(
            "the reason {reason!r} begins with {mark!r}, which marks an annotation in a transcript; say why in words"),
            reason=reason[:60], mark=reason.lstrip()[0])
    return reason.strip()


def entry_of(referee: Referee, match_id: str, ref: str | int) -> int:
    """The entry ``ref`` names: a transcript line (``23``, ``"23"`` or ``"line:23"``) or an entry (``"entry:8"``,
    ``"#8"``)."""
    raw = str(ref).strip().lower()
    by_entry = _ENTRY.fullmatch(raw)
    if by_entry:
        return int(by_entry.group(1))
    by_line = _LINE.fullmatch(raw)
    if by_line is None:
        raise BadInput.said(InputCode.BAD_ENTRY, N_("the line amended: {raw!r} is not a line: give the transcript line "
                                                    "(23 or line:23) or an entry (entry:8 or #8)"), raw=raw[:40])
    return pick(referee.log_stream(match_id), int(by_line.group(1)), match_id, "the line amended")


def split_line(text: str, actors: tuple[str, ...], default: str | None) -> tuple[str, str]:
    """(seat, intent text) of a corrected line: ``alice: draw_main card=T14``, or the intent alone for the
    seat of the line it corrects."""
    found = _SEATED.match(text)
    if found and found.group(1) in actors:
        return found.group(1), found.group(2)
    if found:
        raise BadInput.said(MatchCode.UNKNOWN_SEAT, N_("the corrected line names {seat!r}, which is not a seat of this "
                                                       "match (seats: {seats})"), seat=found.group(1), seats=", ".join(actors))
    if default is None:
        raise BadInput.said(AmendCode.SEAT_NEEDED, N_("the line amended could not be read, so its seat is unknown: write "
                                                      "the corrected line with its seat ('alice: draw_main card=T14')"))
    return default, text.strip()


def amend(referee: Referee, match_id: str, ref: str | int, text: str, *, reason: str, by: str,
          expected_seq: int | None = None) -> Amendment:
    """Correct the line ``ref`` names (a transcript line or an entry) to ``text``, appending the arbiter's
    undo, the corrected line and every later entry played again. Refused, nothing written, if it cannot
    apply (see the module's docstring)."""
    check_text(by, "who amends (--by)", NAME_MAX, required=True)
    by = by.strip()
    loaded = referee.load(match_id)
    mid = loaded.match.id
    actors = (*loaded.config.players, *loaded.game.capabilities.other_actors)
    reason = check_reason(reason, actors)
    check_text(text, "the corrected line", TEXT_MAX, required=True)
    head = referee.store.head(mid)
    expect_head(mid, head, expected_seq)
    entry = entry_of(referee, mid, ref)
    if not 1 <= entry <= head:
        raise BadInput.said(MatchCode.BAD_SEQ, N_("entry {entry} does not exist: match {match} has entries 1..{head}"),
                            entry=entry, match=mid, head=head)
    stored = referee.entry_at(loaded.match, entry)
    assert stored is not None
    body = loaded.decoder.decode(stored.body)
    if body.kind not in ("intent", "unparsed"):
        raise AmendRefused.said(AmendCode.NOT_A_MOVE, N_(
            "entry {entry} is {article} {kind}, not a line of moves; only a move or an unreadable line is amended"),
            entry=entry, article="an" if body.kind[0] in "aeiou" else "a", kind=body.kind)
    timeline = referee.timeline(loaded)
    if not timeline.in_line(entry):
        at = body.source.line
        raise AmendRefused.said(AmendCode.UNDONE, N_(
            "entry {entry} is no longer in the line of play (undone by entry {undo}); nothing was written (line:{line} "
            "names the entry that holds that line now)") if at is not None else N_(
            "entry {entry} is no longer in the line of play (undone by entry {undo}); nothing was written"),
            entry=entry, undo=timeline.undone_by.get(entry), line=at)
    seat, intent_text = split_line(text, actors, body.actor)
    referee.parse(loaded, seat, intent_text)  # the notation's error, before anything is written
    was = f"{body.actor}: {body.notation}" if body.kind == "intent" else body.notation
    now = f"{seat}: {intent_text}"
    if body.kind == "intent" and (seat, " ".join(intent_text.split())) == (body.actor, " ".join(body.notation.split())):
        raise AmendRefused.said(AmendCode.UNCHANGED, N_("entry {entry} already reads {was!r}; nothing was written"),
                                entry=entry, was=was)
    head_state = referee.state_at(loaded)[1]
    outcome_before = loaded.rules.outcome(head_state)
    rewind = changed_since(referee, loaded, entry - 1, head)
    if rewind:
        undo_verdict = referee.decide_undo(loaded, timeline, ARBITER, entry - 1)
        if isinstance(undo_verdict, Rejected):
            raise AmendRefused.said(AmendCode.CANNOT_REWIND, N_(
                "the match cannot go back before entry {entry}: {reason}; nothing was written"),
                entry=entry, reason=undo_verdict.message)
    rest = [s for s in timeline.line if s > entry]  # (the timeline follows the appends below)
    line_no = body.source.line
    where = f"line {line_no} (entry {entry})" if line_no is not None else f"entry {entry}"
    undo_seq = None
    if rewind:  # (else nothing has changed the state since the entry before: the correction simply follows)
        undo_seq = referee.undo(mid, by=ARBITER, to=entry - 1, reason=f"amending {where}: {reason} — by {by}",
                                expected_seq=head).seq
    meta: dict[str, Any] = {k: v for k, v in (("line", line_no), ("number", body.source.number),
                                             ("comment", body.source.comment)) if v not in (None, "")}
    meta.update(amends=entry, reason=reason, amended_by=by)
    hold = isinstance(body.verdict, Held) or bool(body.source.blind)
    res = referee.submit(mid, seat, intent_text, meta=meta, hold=hold, expected_seq=undo_seq or head)
    name = verdict_name(res.verdict)
    replayed = replay(referee, loaded, rest, mid, {entry: res.seq}, {res.seq: name}, keep_source=True)
    outcome = referee.show(mid).outcome
    v = res.verdict
    done = Amendment(
        match_id=mid, entry=entry, line=line_no, was=was, now=now, reason=reason, by=by, undo=undo_seq,
        seq=res.seq, verdict=name, rejection=f"{v.code}: {v.message}" if isinstance(v, Rejected) else "",
        replayed=replayed, outcome_before=outcome_before, outcome=outcome,
    )
    return msgspec.structs.replace(done, tables=follow_tables(referee, mid, by=by, why=done.sentence))


def changed_since(referee: Referee, loaded: Any, entry: int, head: int) -> bool:
    """Whether anything changed the state after entry ``entry`` (0: the setup) up to ``head``."""
    if entry >= head:
        return False
    last = referee.entry_at(loaded.match, head)
    assert last is not None
    if entry == 0:
        from .engine.core import state_hash

        return state_hash(referee.state_at(loaded, 0)[1]) != last.state_hash
    at = referee.entry_at(loaded.match, entry)
    return at is None or at.state_hash != last.state_hash


def follow_tables(referee: Referee, match_id: str, *, by: str, why: str) -> list[TableFollow]:
    """The tournament tables ``match_id`` is played at, their results brought to what its log says now: a
    closed round takes a ``result_corrected`` record; an open round reads the log itself."""
    from .tournament.service import Tournaments

    tournaments = Tournaments(referee)
    loaded = referee.load(match_id)
    named = loaded.config.meta.get("tournament") if loaded.config.meta else None
    ids = [named] if isinstance(named, str) else [t.id for t in referee.store.list_tournaments()]
    outcome = referee.show(match_id).outcome
    out: list[TableFollow] = []
    for tid in ids:
        state = tournaments.load(tid)
        for rnd in state.rounds:
            for t in rnd.tables:
                if t.match_id != match_id or (rnd.number, t.table) in state.withdrawn:
                    continue
                out.append(_follow(tournaments, state, rnd.number, t.table, outcome, by, why))
                state = tournaments.load(tid)
    return out


def _follow(tournaments: Any, state: Any, round_: int, table: int, outcome: Outcome | None, by: str,
            why: str) -> TableFollow:
    from .tournament import events as ev

    key = (round_, table)
    base = {"tournament": state.id, "round": round_, "table": table, "outcome": outcome}
    result = state.results.get(key)
    if result is None:
        return TableFollow(status="live", **base)
    if result.source == "arbiter" and not result.replaced:
        return TableFollow(status="arbiter", **base)
    if outcome is None:
        return TableFollow(status="unfinished", **base)
    if result.outcome == outcome:
        return TableFollow(status="unchanged", **base)
    said = f"the log of match {state.table(round_, table).match_id} changed: {why}"
    after = tournaments._append(state, [ev.ResultCorrected(round=round_, table=table, outcome=outcome)], by,
                                said if len(said) <= TEXT_MAX else said[:TEXT_MAX - 1] + "…")
    return TableFollow(status="corrected", record=after.n, **base)
