"""The entries that act on the log rather than play: an undo, a redo, an arbiter's ruling that a rejected
intent stands, the answer to an intent held for a confirmation (:class:`Acts`, part of
:class:`referee.service.Referee`). Each is an entry of its own, so who did what stays in the log.
"""

from __future__ import annotations

from typing import Any

from schemas import ARBITER, TEXT_MAX

from .api import SubmitResult
from .appending import Appending, not_a_seat, plain
from .changes import event_words
from .config import Loaded
from .engine.codes import ConfirmCode, MatchCode, RedoCode, RulingCode, UndoCode
from .engine.entries import Act, Confirmation, Redo, Ruling, Undo
from .engine.protocol import Accepted, Rejected
from .errors import BadInput
from .i18n import N_
from .inputs import check_text
from .reopening import reopening_undo
from .store import StoredRequest


class Acts(Appending):
    """Undo, redo, rulings and confirmations: framework entries appended after the head."""

    def _check_actor(self, loaded: Loaded, actor: str) -> None:
        if actor != ARBITER and actor not in loaded.config.players:
            raise not_a_seat(actor, loaded.config.players, or_arbiter=True)

    def undo(
        self, match_id: str, *, by: str, to: int | None = None, reason: str = "", expected_seq: int | None = None,
        request: StoredRequest | None = None,
    ) -> SubmitResult:
        """Append an undo entry: the state folds back to entry ``to`` (default: before the last action:
        an accepted move, a ruling, or a held move, confirmed or still waiting); the undone entries stay
        in the log, marked. A refusal is logged too."""
        check_text(reason, "the reason", TEXT_MAX)
        loaded = self.load(match_id)
        self._check_actor(loaded, by)
        head, state = self.at_head(loaded, expected_seq)
        timeline = self.timeline(loaded)
        if to is None:
            last = timeline.last_action()
            if last is None:
                raise BadInput.said(UndoCode.NOTHING_TO_UNDO, N_("match {match} has no accepted or held move to undo"),
                                    match=loaded.match.id)
            to = last.seq - 1
        if not 0 <= to < head:
            raise BadInput.said(MatchCode.BAD_SEQ, N_("--to {to} is not an earlier entry: match {match} has entries 0..{head}"),
                                to=to, match=loaded.match.id, head=head)
        over = loaded.rules.outcome(state) is not None
        verdict = self.decide_undo(loaded, timeline, by, to, over)
        act = Undo(to=to, target=to, reason=reason)
        if over and isinstance(verdict, Accepted) and loaded.config.chance == "digital":
            # every role has read the seed: the arbiter's reopening draws every later outcome from a fresh one
            act = reopening_undo(self.fresh_secret(), loaded, head + 1, to, reason)
        return self._append_act(loaded, head, state, act, by, f"undo to={to}", verdict, request=request)

    def redo(
        self, match_id: str, *, by: str, undo: int | None = None, reason: str = "", expected_seq: int | None = None,
        request: StoredRequest | None = None,
    ) -> SubmitResult:
        """Append a redo entry reversing undo entry ``undo`` (default: the latest one in effect)."""
        check_text(reason, "the reason", TEXT_MAX)
        loaded = self.load(match_id)
        self._check_actor(loaded, by)
        head, state = self.at_head(loaded, expected_seq)
        timeline = self.timeline(loaded)
        if undo is None:
            undo = timeline.latest_undo()
            if undo is None:
                raise BadInput.said(RedoCode.NOTHING_TO_REDO, N_("match {match} has no undo in effect to redo"),
                                    match=loaded.match.id)
        if not 1 <= undo <= head:
            raise BadInput.said(MatchCode.BAD_SEQ, N_("entry {entry} does not exist: match {match} has entries 1..{head}"),
                                entry=undo, match=loaded.match.id, head=head)
        verdict = self.decide_redo(loaded, timeline, by, undo, loaded.rules.outcome(state) is not None)
        act = Redo(undo=undo, target=undo - 1, reason=reason)
        return self._append_act(loaded, head, state, act, by, f"redo undo={undo}", verdict, request=request)

    def _append_act(
        self, loaded: Loaded, head: int, state: Any, act: Act, actor: str, text: str,
        verdict: Accepted[Any] | Rejected, intent: Any = None, request: StoredRequest | None = None,
    ) -> SubmitResult:
        """Append a framework entry (undo, redo, ruling, confirmation) after ``head``; an accepted undo
        or redo jumps to its target."""
        prev = self.prev_hash_at(loaded, head)
        entry, new_state = self.make_entry(
            loaded, head + 1, state, prev, act=act, actor=actor, text=text, intent=intent, verdict=verdict
        )
        jump = act.target if isinstance(verdict, Accepted) and isinstance(act, (Undo, Redo)) else None
        self._append(loaded, entry, new_state, head, jump, request)
        events = verdict.events if isinstance(verdict, Accepted) else ()
        return SubmitResult(
            match_id=loaded.match.id, seq=entry.seq, actor=actor, notation=text, intent=intent, verdict=verdict,
            state_hash=entry.state_hash, outcome=loaded.rules.outcome(new_state),
            events=lambda: plain(events), words=lambda: event_words(loaded.rules, events), entry=entry,
            rule_english=loaded.game.rulebook.english(verdict.rule) if isinstance(verdict, Rejected) else "",
            game=loaded.game.id,
        )

    def rule_stands(self, match_id: str, entry: int, *, reason: str = "", expected_seq: int | None = None,
                    request: StoredRequest | None = None) -> SubmitResult:
        """An arbiter's ruling that a rejected intent stands as played: the intent is adjudicated
        again, now, with the check that rejected it waived. The ruling is an entry of its own (the
        rejected entry stays as it was); if the rules cannot apply the move even so, the ruling is
        recorded as rejected with the reason."""
        check_text(reason, "the reason", TEXT_MAX)
        loaded = self.load(match_id)
        head, state = self.at_head(loaded, expected_seq)
        if not 1 <= entry <= head:
            raise BadInput.said(MatchCode.BAD_SEQ, N_("entry {entry} does not exist: match {match} has entries 1..{head}"),
                                entry=entry, match=loaded.match.id, head=head)
        stored = self.entry_at(loaded.match, entry)
        assert stored is not None
        body = loaded.decoder.decode(stored.body)
        if body.kind != "intent" or not isinstance(body.verdict, Rejected) or body.intent is None:
            raise BadInput.said(RulingCode.NOT_REJECTED, N_(
                "entry {entry} is not a rejected intent; only a rejection can be ruled to stand"), entry=entry)
        last = self.entry_at(loaded.match, head) if entry < head else stored
        if last is not None and last.state_hash != stored.state_hash:
            # applied here, the move would be played on a state it was never made on
            err = BadInput.said(RulingCode.NOT_LAST, N_(
                "the state has changed since entry {entry} (entries up to {head} were played after it); nothing was "
                "written. A ruling on it replays what followed, on a fork or on the main line: `referee rule {match} "
                "{entry}` on the match's own database (see referee/rulings.py)"), entry=entry, head=head,
                match=loaded.match.id)
            err.detail = {"head": head}
            raise err
        assert body.actor is not None
        act = Ruling(entry=entry, seat=body.actor, waive=(body.verdict.code,), reason=reason)
        verdict = self.decide_ruling(loaded, state, body.intent, act, head + 1)
        text = f"ruling: entry {entry} stands as played" + (f" — {reason}" if reason else "")
        return self._append_act(loaded, head, state, act, ARBITER, text, verdict, body.intent, request)

    def confirm(self, match_id: str, entry: int | None, *, by: str, accept: bool = True, reason: str = "",
                expected_seq: int | None = None, request: StoredRequest | None = None) -> SubmitResult:
        """The answer to an intent held for a confirmation (entry ``entry``): its confirmer (or the
        arbiter) confirms it, and it is adjudicated now, as its actor's, with what only the confirmer
        could see; or declines it, and it has no effect. Either way an entry of its own, which lets play
        go on. Anyone else, or an entry that does not wait, is refused and nothing is written."""
        check_text(reason, "the reason", TEXT_MAX)
        loaded = self.load(match_id)
        self._check_actor(loaded, by)
        head, state = self.at_head(loaded, expected_seq)
        timeline = self.timeline(loaded)
        hold = timeline.open_hold()
        if entry is None and hold is not None:
            entry = hold[0]
        if hold is None or hold[0] != entry:
            raise BadInput.said(ConfirmCode.NOTHING_TO_CONFIRM, N_(
                "entry {entry} does not wait for a confirmation (entry {held} waits for {seat})") if hold else N_(
                "entry {entry} does not wait for a confirmation (nothing waits for a confirmation)"),
                entry=entry, held=hold[0] if hold else None, seat=hold[1] if hold else None)
        if by not in (hold[1], ARBITER):
            raise BadInput.said(ConfirmCode.NOT_YOURS, N_(
                "entry {entry} waits for {seat} (or the arbiter) to confirm it, not {by}"), entry=entry, seat=hold[1], by=by)
        stored = self.entry_at(loaded.match, entry)
        assert stored is not None
        held = loaded.decoder.decode(stored.body)
        assert held.actor is not None
        act = Confirmation(entry=entry, seat=held.actor, decision="confirm" if accept else "decline", reason=reason)
        verdict = self.decide_confirm(loaded, state, held.intent, act, head + 1)
        word = "confirms" if accept else "declines"
        text = f"{by} {word} entry {entry}" + (f" — {reason}" if reason else "")
        return self._append_act(loaded, head, state, act, by, text, verdict, held.intent, request)
