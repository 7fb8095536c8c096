"""A ruling after the fact: an arbiter lets a rejected entry stand when the match has gone on since.

:meth:`referee.service.Referee.rule_stands` applies a ruling at the head of the log, which is right only
while nothing has changed the state since the rejected entry (the state at the head is the state right
after it). Once play went on — later moves, the end of the match — the move must be put back where it
was made and everything after it judged again on top of it. That is what :func:`rule` does, with
appended entries only (nothing is edited):

* **as a fork** (the default): a new match sharing the history up to entry N, in which the ruling is
  entry N+1 and the entries in effect after N in the original are played again, each adjudicated anew;
* **on the main line** (``main=True``): in the match itself, an arbiter's undo back to entry N, the
  ruling, then the same entries played again.

Played again are the entries of the line in effect after N, in order: moves (as typed, held again if
they were held), rulings on entries that are rejected again, and confirmations of entries held again.
Undos and redos are not (the line in effect already reflects them), nor unreadable lines, rulings that
no longer apply and rulings or confirmations that did not take effect: each is listed as skipped, with
why. A ruling that cannot apply is refused before anything is written: an entry that is not a rejected
move, one no longer in the line of play, a move that is illegal even with its check waived, or a check
no ruling waives (turn order, the end of the match).
"""

from __future__ import annotations

from typing import Any

import msgspec

from schemas import ARBITER, Outcome

from .api import SubmitResult
from .engine.codes import MatchCode, RulingCode
from .engine.entries import Confirmation, Ruling, Unreadable
from .engine.protocol import Held, Rejected
from .errors import BadInput
from .i18n import N_, Quoted
from .redaction import verdict_name
from .history import expect_head
from .service import Referee


class RulingRefused(BadInput):
    """A ruling that cannot apply: nothing was written (exit 1: the referee said no)."""

    exit_code = 1
    http_status = 422


class Replayed(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the original line after the ruled entry, played again on the corrected line."""

    #: the entry in the original match
    old: int
    #: its new entry on the corrected line (None: skipped)
    seq: int | None
    actor: str | None
    text: str
    #: the verdict it had: accepted, rejected, held or none
    was: str
    #: the verdict it has now, or ``skipped``
    verdict: str
    #: a rejection (``code: message``) or why it was skipped
    why: str = ""

    @property
    def changed(self) -> bool:
        return self.verdict not in (self.was, "skipped")


class RulingReport(msgspec.Struct, frozen=True, kw_only=True):
    """A ruling on an old entry: where the corrected line was written and what became of every entry
    replayed on it."""

    match_id: str
    entry: int
    reason: str
    #: the corrected line is a fork (else the match's own line)
    fork: bool
    #: the match holding the corrected line (the fork's id, or ``match_id``)
    target: str
    #: on the main line: the arbiter's undo back to ``entry``
    undo: int | None
    ruling: SubmitResult
    replayed: list[Replayed]
    outcome: Outcome | None


def needs_replay(referee: Referee, match_id: str, entry: int) -> bool:
    """Whether the state has changed since entry ``entry`` (so a ruling on it must replay what followed)."""
    loaded = referee.load(match_id)
    head = referee.store.head(loaded.match.id)
    if not 1 <= entry < head:
        return False
    at, last = referee.entry_at(loaded.match, entry), referee.entry_at(loaded.match, head)
    return at is not None and last is not None and at.state_hash != last.state_hash


def rule(referee: Referee, match_id: str, entry: int, *, reason: str = "", main: bool = False, name: str = "",
         expected_seq: int | None = None) -> RulingReport:
    """Let rejected entry ``entry`` stand where it was played, and play the line after it again: as a
    fork (default) or on the match's own line (``main``). Refused, with nothing written, if it cannot apply."""
    loaded = referee.load(match_id)
    mid = loaded.match.id
    head = referee.store.head(mid)
    expect_head(mid, head, expected_seq)
    if not 1 <= entry <= head:
        raise BadInput.said(MatchCode.BAD_SEQ, N_("entry {entry} does not exist: match {match} has entries 1..{head}"),
                            entry=entry, match=mid, head=head)
    stored = referee.entry_at(loaded.match, entry)
    assert stored is not None
    body = loaded.decoder.decode(stored.body)
    if body.kind != "intent" or not isinstance(body.verdict, Rejected) or body.intent is None:
        raise BadInput.said(RulingCode.NOT_REJECTED, N_(
            "entry {entry} is not a rejected intent; only a rejection can be ruled to stand"), entry=entry)
    timeline = referee.timeline(loaded)
    if not timeline.in_line(entry):
        by = timeline.undone_by.get(entry)
        raise RulingRefused.said(RulingCode.UNDONE, N_(
            "entry {entry} is no longer in the line of play (undone by entry {undo}); nothing was written. Fork the "
            "match before that undo (referee fork {match} --at {at}) and rule on entry {entry} there"),
            entry=entry, undo=by, match=mid, at=(by or 1) - 1)
    for seq in timeline.line:
        h = timeline.headers[seq]
        if seq > entry and h.kind == "ruling" and h.accepted:
            earlier = loaded.decoder.decode(referee.entry_at(loaded.match, seq).body).act  # type: ignore[union-attr]
            if isinstance(earlier, Ruling) and earlier.entry == entry:
                raise RulingRefused.said(RulingCode.ALREADY_STANDS, N_(
                    "entry {entry} already stands on this line (ruling entry {ruling}); nothing was written"),
                    entry=entry, ruling=seq)
    undo_seq = None
    if main:
        undo_verdict = referee.decide_undo(loaded, timeline, ARBITER, entry)
        if isinstance(undo_verdict, Rejected):
            raise RulingRefused.said(RulingCode.CANNOT_REWIND, N_(
                "the main line cannot go back to entry {entry}: {reason}; nothing was written. Rule it as a fork instead "
                "(without --main)"), entry=entry,
                reason=Quoted(loaded.game.id, undo_verdict.code, undo_verdict.message))
    _, state = referee.state_at(loaded, entry)
    assert body.actor is not None
    act = Ruling(entry=entry, seat=body.actor, waive=(body.verdict.code,), reason=reason)
    ruling_seq = head + 2 if main else entry + 1
    verdict = referee.decide_ruling(loaded, state, body.intent, act, ruling_seq)
    if isinstance(verdict, Rejected):
        raise RulingRefused.said(verdict.code, N_(
            "entry {entry} cannot stand where it was played: {reason}; nothing was written. Annotate the entry "
            "(referee annotate {match} {entry} ... --kind ruling), or undo to entry {before} and record what was "
            "played instead"), entry=entry, reason=Quoted(loaded.game.id, verdict.code, verdict.message), match=mid,
            before=entry - 1)  # the game's reason in the reader's language, through its templates
    line = [s for s in timeline.line if s > entry]
    if main:
        why = f"ruling on entry {entry}" + (f": {reason}" if reason else "") + f"; entries {entry + 1}..{head} are played again after it"
        undone = referee.undo(mid, by=ARBITER, to=entry, reason=why, expected_seq=head)
        undo_seq = undone.seq
        target = mid
    else:
        target = referee.fork(mid, at=entry, name=name or f"entry {entry} of {mid} stands").id
    ruling = referee.rule_stands(target, entry, reason=reason)
    referee.add_annotation(target, ruling.seq, "comment",
                           f"entries {entry + 1}..{head} of match {mid} (the line in effect) are played again after "
                           f"this ruling, each adjudicated anew", ARBITER)
    replayed = _replay(referee, loaded, line, entry, ruling.seq, target)
    return RulingReport(match_id=mid, entry=entry, reason=reason, fork=not main, target=target, undo=undo_seq,
                        ruling=ruling, replayed=replayed, outcome=referee.show(target).outcome)


def _replay(referee: Referee, loaded: Any, line: list[int], entry: int, ruling_seq: int, target: str) -> list[Replayed]:
    """Play the entries ``line`` of the original match again on ``target``, in order."""
    return replay(referee, loaded, line, target, {entry: ruling_seq}, {}, skip_rulings_on=entry)


def replay(referee: Referee, loaded: Any, line: list[int], target: str, mapping: dict[int, int],
           verdicts: dict[int, str], *, skip_rulings_on: int | None = None, keep_source: bool = False) -> list[Replayed]:
    """Play the entries ``line`` of ``loaded``'s match again on ``target``, in order. ``mapping`` names, for
    entries already played again (old entry -> new), where a later ruling or confirmation of them now
    points, and ``verdicts`` their new verdicts (both grow as entries are played); a ruling on
    ``skip_rulings_on`` is skipped. ``keep_source``: each move keeps its recorded source (the transcript
    line it was read from, its number and comment), so ``line:N`` still names it."""
    out: list[Replayed] = []
    for seq in line:
        stored = referee.entry_at(loaded.match, seq)
        assert stored is not None
        body = loaded.decoder.decode(stored.body)
        was = verdict_name(body.verdict)
        text = body.notation
        kind = body.kind

        def skipped(why: str) -> None:
            out.append(Replayed(old=seq, seq=None, actor=body.actor, text=text, was=was, verdict="skipped", why=why))

        if kind in ("undo", "redo"):
            skipped(f"an {kind}: the line replayed is the one in effect, what it undid left out")
            continue
        if kind == "unparsed" and keep_source:  # kept in the line, as the transcript has it: read as before
            act = body.act
            assert isinstance(act, Unreadable)
            new_seq = referee.record_unparsed(target, body.actor, text, act.code, act.message, _kept_source(body.source))
            mapping[seq] = new_seq
            out.append(Replayed(old=seq, seq=new_seq, actor=body.actor, text=text, was=was, verdict=was,
                                why=f"{act.code}: {act.message}"))
            continue
        if kind == "unparsed":
            skipped("an unreadable line changes nothing")
            continue
        try:
            if kind == "intent":
                hold = isinstance(body.verdict, Held) or bool(body.source.blind)
                meta = _kept_source(body.source) if keep_source else None
                res = referee.submit(target, str(body.actor), text, hold=hold, meta=meta)
            elif kind == "ruling":
                act = body.act
                assert isinstance(act, Ruling)
                new = mapping.get(act.entry)
                if isinstance(body.verdict, Rejected):
                    skipped("this ruling did not take effect")
                    continue
                if new is None or act.entry == skip_rulings_on:
                    skipped(f"it ruled on entry {act.entry}, which is not on this line")
                    continue
                if verdicts.get(new) != "rejected":
                    skipped(f"entry {act.entry} (now {new}) is not rejected on this line: the ruling is not needed")
                    continue
                res = referee.rule_stands(target, new, reason=act.reason)
                text = res.notation
            elif kind == "confirm":
                act = body.act
                assert isinstance(act, Confirmation)
                new = mapping.get(act.entry)
                if new is None or verdicts.get(new) != "held":
                    skipped(f"entry {act.entry} does not wait for a confirmation on this line")
                    continue
                res = referee.confirm(target, new, by=str(body.actor), accept=act.decision == "confirm", reason=act.reason)
                text = res.notation
            else:
                skipped(f"a {kind} entry is not played again")
                continue
        except BadInput as exc:
            skipped(f"{exc.code}: {exc.message}")
            continue
        v = res.verdict
        name = verdict_name(v)
        mapping[seq] = res.seq
        verdicts[res.seq] = name
        why = f"{v.code}: {v.message}" if isinstance(v, Rejected) else ""
        out.append(Replayed(old=seq, seq=res.seq, actor=res.actor, text=text, was=was, verdict=name, why=why))
    return out


def _kept_source(source: Any) -> dict[str, Any]:
    """What a move played again keeps of its recorded source: its transcript line, number, comment and
    who typed it (a correction's own fields stay with the correction)."""
    kept = {"line": source.line, "number": source.number, "comment": source.comment, "by": source.by}
    return {k: v for k, v in kept.items() if v not in (None, "")}
