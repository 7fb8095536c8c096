"""The HTTP service's writes (:class:`SafeWrites`, part of :class:`referee.access.Access`): each checks the
caller's role, runs one appending call of the :class:`~referee.service.Referee` with the request's
idempotency key (recorded in the entry's own transaction: a retried request is applied once and answered
like the first time), tries again against the new head if another writer got in first and no
``expected_seq`` was named, and answers with the entry as the caller may see it.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from schemas import ARBITER, Annotation, Outcome
from schemas.http import MatchCreated, SubmitAnswer

from .api import SubmitResult
from .appending import CONFLICT_RETRIES
from .auth import AuthCode, Forbidden, Principal
from .config import Loaded
from .engine import core, notation
from .engine.codes import InputCode, IntentCode, LogCode
from .engine.messages import fitting
from .errors import BadInput, ConflictError, RefereeError, StorageError
from .gate import Gate
from .httpcodes import RequestCode
from .i18n import N_, speaking
from .inputs import check_depth
from .redaction import View
from .store import StoredEntry, StoredRequest

if TYPE_CHECKING:
    from .amend import Amendment


class SafeWrites(Gate):
    """Submit, undo, redo, rulings, amendments, confirmations, annotations and forks over HTTP."""

    def submit(self, p: Principal, intent: str | Mapping[str, Any], *, seat: str | None = None,
               expected_seq: int | None = None, key: str | None = None) -> tuple[SubmitAnswer, bool]:
        """Adjudicate one intent for ``seat`` (default: the caller's). Returns (answer, replayed):
        ``replayed`` is True when ``key`` named a request already applied (nothing new was written)."""
        self._require(p, ("seat", "arbiter", "actor"), N_("may not submit intents"))
        loaded = self._load(p.match_id)
        if p.role in ("seat", "actor"):
            if seat is not None and seat != p.seat:
                raise Forbidden.said(AuthCode.OTHER_SEAT, N_("{own}'s token cannot act for {seat}"), own=p.seat, seat=seat)
            seat = p.seat
        elif seat is None:
            raise BadInput.said(IntentCode.SEAT_REQUIRED, N_(
                "the arbiter acts for a seat (or another actor of the game): name it in 'seat'"))
        assert seat is not None
        text = intent if isinstance(intent, str) else self._notation(loaded, intent)
        meta = {"by": ARBITER} if p.role == "arbiter" else None
        op = {"op": "intent", "by": p.name, "seat": seat, "intent": text, "expected_seq": expected_seq}
        return self._write(
            p, loaded, key, op, expected_seq is None, "intent",
            lambda request: self.referee.submit(loaded.match.id, seat, text, expected_seq=expected_seq, meta=meta,
                                                blind=p.role != "arbiter", request=request),
        )

    def _notation(self, loaded: Loaded, obj: Mapping[str, Any]) -> str:
        check_depth(dict(obj), "the intent object")
        try:
            intent = msgspec.convert(obj, loaded.game.intent_type)
        except msgspec.ValidationError as exc:
            verbs = ", ".join(notation.describe(loaded.game.intent_type))
            raise BadInput.said(InputCode.INVALID, N_("not an intent of {game}: {problem} (verbs: {verbs})"),
                                game=loaded.game.id, problem=fitting(str(exc)), verbs=verbs) from None
        return notation.format_intent(intent)

    def undo(self, p: Principal, *, to: int | str | None = None, reason: str = "", expected_seq: int | None = None,
             key: str | None = None) -> tuple[SubmitAnswer, bool]:
        self._require(p, ("seat", "arbiter"), N_("may not undo"))
        loaded = self._load(p.match_id)
        to = None if to is None else self.entry(p, to, "to")
        op = {"op": "undo", "by": p.name, "to": to, "reason": reason, "expected_seq": expected_seq}
        return self._write(
            p, loaded, key, op, expected_seq is None, "undo",
            lambda request: self.referee.undo(loaded.match.id, by=p.name, to=to, reason=reason,
                                              expected_seq=expected_seq, request=request),
        )

    def redo(self, p: Principal, *, undo: int | str | None = None, reason: str = "", expected_seq: int | None = None,
             key: str | None = None) -> tuple[SubmitAnswer, bool]:
        self._require(p, ("seat", "arbiter"), N_("may not redo"))
        loaded = self._load(p.match_id)
        undo = None if undo is None else self.entry(p, undo, "undo")
        op = {"op": "redo", "by": p.name, "undo": undo, "reason": reason, "expected_seq": expected_seq}
        return self._write(
            p, loaded, key, op, expected_seq is None, "redo",
            lambda request: self.referee.redo(loaded.match.id, by=p.name, undo=undo, reason=reason,
                                              expected_seq=expected_seq, request=request),
        )

    def rule_stands(self, p: Principal, ref: int | str, *, reason: str = "", expected_seq: int | None = None,
                    key: str | None = None) -> tuple[SubmitAnswer, bool]:
        self._require(p, ("arbiter",), N_("may not rule on an entry"))
        loaded = self._load(p.match_id)
        entry = self.entry(p, ref, "entry")
        op = {"op": "ruling", "entry": entry, "reason": reason, "expected_seq": expected_seq}
        return self._write(
            p, loaded, key, op, expected_seq is None, "ruling",
            lambda request: self.referee.rule_stands(loaded.match.id, entry, reason=reason, expected_seq=expected_seq,
                                                     request=request),
        )

    def amend(self, p: Principal, line: str, text: str, *, reason: str, by: str,
              expected_seq: int | None = None) -> Amendment:
        """A line corrected after import (:func:`referee.amend.amend`): the arbiter's."""
        self._require(p, ("arbiter",), N_("may not amend a line"))
        from .amend import amend

        loaded = self._load(p.match_id)
        done = amend(self.referee, loaded.match.id, line, text, reason=reason, by=by, expected_seq=expected_seq)
        if self._on_append is not None:
            self._on_append(loaded.match.id)
        return done

    def confirm(self, p: Principal, ref: int | str, *, accept: bool = True, reason: str = "",
                expected_seq: int | None = None, key: str | None = None) -> tuple[SubmitAnswer, bool]:
        """The answer to an entry held for a confirmation: by the seat it waits for, or the arbiter."""
        self._require(p, ("seat", "arbiter"), N_("may not confirm"))
        loaded = self._load(p.match_id)
        entry = self.entry(p, ref, "entry")
        op = {"op": "confirm", "by": p.name, "entry": entry, "accept": accept, "reason": reason,
              "expected_seq": expected_seq}
        return self._write(
            p, loaded, key, op, expected_seq is None, "confirm",
            lambda request: self.referee.confirm(loaded.match.id, entry, by=p.name, accept=accept, reason=reason,
                                                 expected_seq=expected_seq, request=request),
        )

    def annotate(self, p: Principal, ref: int | str, text: str, *, kind: str = "comment",
                 audience: str = "all") -> Annotation:
        self._require(p, ("seat", "arbiter"), N_("may not annotate"))
        if kind == "ruling":
            self._require(p, ("arbiter",), N_("may not write a ruling"))
        if p.role == "seat" and audience not in ("all", p.seat):
            raise Forbidden.said(AuthCode.FORBIDDEN, N_("{seat} may write for all or for {seat}, not for {audience}"),
                                 seat=p.seat, audience=audience)
        return self.referee.annotate(p.match_id, self.entry(p, ref, "seq"), text, kind=kind, by=p.name, audience=audience)

    def fork(self, p: Principal, *, at: int | str, name: str = "") -> MatchCreated:
        self._require(p, ("arbiter",), N_("may not fork the match"))
        info = self.referee.fork(p.match_id, at=self.entry(p, at, "at"), name=name)
        return MatchCreated(match=info, tokens=self._mint(info))

    def _write(self, p: Principal, loaded: Loaded, key: str | None, op: dict[str, Any], retry: bool, kind: str,
               call: Callable[[StoredRequest | None], SubmitResult]) -> tuple[SubmitAnswer, bool]:
        """Run one appending call, handing it the idempotency key to record in the entry's own transaction;
        without ``expected_seq``, re-adjudicated against the new head if another writer got in first."""
        mid = loaded.match.id
        fingerprint = core.sha256_hex(core.canonical(op))
        if key is not None and (not 1 <= len(key) <= 200 or not key.isprintable()):
            raise BadInput.said(RequestCode.BAD_KEY, N_("an Idempotency-Key is 1 to 200 printable characters (e.g. a UUID)"))
        # The key is recorded by the append itself (same transaction); it is looked up only when the
        # request does not go through as new — a retry then meets its first answer again, whatever
        # moved since (a stale expected_seq, nothing left to undo, the key already recorded).
        attempts = CONFLICT_RETRIES if retry else 1
        request = StoredRequest(match_id=mid, key=key, fingerprint=fingerprint, seq=0) if key else None
        for attempt in range(attempts):
            try:
                res = call(request)
            except RefereeError as exc:
                found = self.store.find_request(mid, key) if key is not None else None
                if found is not None:
                    return self._replayed(p, loaded, found, fingerprint), True
                if isinstance(exc, ConflictError) and attempt + 1 < attempts:
                    continue  # another writer got in first: adjudicate against the new head
                raise
            if self._on_append is not None:
                self._on_append(mid)
            return self._answer(p, loaded, res.seq, kind, res.actor, lambda: res.notation, res.verdict, res.state_hash,
                                res.outcome, res.intent, res.entry), False
        raise AssertionError("unreachable")

    def _replayed(self, p: Principal, loaded: Loaded, found: StoredRequest, fingerprint: str) -> SubmitAnswer:
        if not hmac.compare_digest(found.fingerprint, fingerprint):
            err = BadInput.said(RequestCode.KEY_REUSED, N_(
                "Idempotency-Key was already used for a different request (entry {entry}); use a new key"), entry=found.seq)
            err.detail = {"seq": found.seq}
            raise err
        entry = self.referee.entry_at(loaded.match, found.seq)
        if entry is None:
            raise StorageError.said(LogCode.CORRUPT, N_("entry {entry} of match {match} is missing; run an audit"),
                                    entry=found.seq, match=loaded.match.id)
        body = loaded.decoder.decode(entry.body)
        text = notation.format_intent(body.intent) if body.kind == "intent" and body.intent is not None else body.notation
        _, state = self.referee.state_at(loaded, found.seq)
        return self._answer(p, loaded, found.seq, body.kind, body.actor, text, body.verdict, entry.state_hash,
                            loaded.rules.outcome(state), body.intent)

    def _answer(self, p: Principal, loaded: Loaded, seq: int, kind: str, actor: str | None, text: str | Callable[[], str],
                verdict: Any,
                state_hash: str, outcome: Outcome | None, intent: Any = None,
                written: StoredEntry | None = None) -> SubmitAnswer:
        """The answer to a write: the entry it appended, as the caller may see it (the same as that
        entry in the caller's log). ``written``: that entry as the write made it (else it is read back).
        ``text``: the line as recorded, or what makes it (only the arbiter's answer and a framework entry's
        show it: a seat's intent is shown as that seat sees it)."""
        stored = written if written is not None and written.seq == seq else self.referee.entry_at(loaded.match, seq)
        if stored is None:
            raise StorageError.said(LogCode.CORRUPT, N_("entry {entry} of match {match} is missing; run an audit"),
                                    entry=seq, match=loaded.match.id)
        body = loaded.decoder.decode(stored.body)
        view = View(loaded, self._seat(p.view) if p.role != "arbiter" else None)
        shown, events = view.entry(stored, body)
        with speaking("en"):  # a JSON answer: its words in English, whatever the server's language
            words = view.words(events)
        return SubmitAnswer(
            match_id=loaded.match.id, seq=seq, kind=kind, actor=actor, by=p.name,
            intent=(text() if callable(text) else text) if p.role == "arbiter" or shown.kind != "intent" else shown.notation,
            verdict=shown.verdict, rejection=shown.rejection, events=shown.events,
            state_hash=state_hash if p.role == "arbiter" else "", outcome=outcome, words=words,
            confirmer=str(shown.meta.get("confirmer", "")),
        )
