"""The moves of a match: a line of notation parsed and checked, adjudicated and appended (accepted,
rejected or held), a line that could not be read kept as such, and annotations (:class:`Moves`, part
of :class:`referee.service.Referee`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

import msgspec

from schemas import ARBITER, NAME_MAX, TEXT_MAX, Annotation

from .api import SubmitResult
from .appending import CONFLICT_RETRIES, Appending, not_a_seat, plain
from .changes import event_words
from .config import Loaded
from .engine import core, notation
from .engine.chance import typed_chance
from .engine.codes import AnnotationCode, InputCode, MatchCode, StoreCode
from .engine.entries import Move, Source, Unreadable, source_of
from .engine.messages import fitting
from .engine.protocol import Accepted, InputError, Rejected
from .errors import BadInput, ConflictError, StorageError
from .history import seal_annotations
from .i18n import N_
from .inputs import check_text
from .store import Conflict, StoredAnnotation, StoredRequest, StoreError

#: how many parsed lines a service keeps (:meth:`Moves.parse`)
PARSED_MAX = 512
#: what an annotation may say of an entry
ANNOTATION_KINDS = ("comment", "disputed", "ruling", "good", "mistake")
#: what every move's entry records of itself when nothing more is said (frozen: one of each serves all)
_MOVE = Move()
_NO_SOURCE = Source()
_BLIND = Source(blind=True)


class Moves(Appending):
    """Parsing, adjudicating and appending the players' lines, and annotating entries."""

    def parse(self, loaded: Loaded, seat: str, text: str) -> Any:
        """The intent a line of notation types, checked against the match's card data. A line this service
        parsed for the same rules lately is not parsed again: the parse and the check are pure functions of
        the rules and the text, and intents are frozen (a match's players type the same lines over and over)."""
        if seat not in loaded.config.players and seat not in loaded.game.capabilities.other_actors:
            check_text(text, "an intent", TEXT_MAX)
            raise not_a_seat(seat, loaded.config.players, loaded.game.capabilities.other_actors)
        known = self._parsed.get(text)
        if known is not None and known[0] is loaded.rules:
            return known[1]
        check_text(text, "an intent", TEXT_MAX)
        try:
            intent = notation.parse_intent(loaded.game.intent_type, text)
        except InputError as exc:
            raise BadInput(exc.code, exc.message, {"intent": text}) from None
        problem = loaded.rules.check_input(intent)
        if problem:
            raise BadInput(InputCode.UNKNOWN_REFERENCE, problem, {"intent": text})
        self._parsed[text] = (loaded.rules, intent)
        if len(self._parsed) > PARSED_MAX:
            self._parsed.pop(next(iter(self._parsed)))
        return intent

    def submit(
        self, match_id: str, seat: str, text: str, *, expected_seq: int | None = None,
        meta: Mapping[str, Any] | None = None, blind: bool = False, hold: bool | None = None,
        request: StoredRequest | None = None,
    ) -> SubmitResult:
        """Adjudicate one intent and append it (accepted, rejected or held) in one transaction.

        ``blind``: the seat itself typed it (over HTTP with its own token), seeing only its own view. So
        the verdict must not depend on what is hidden from it: in a digital match it may not type a
        chance outcome (refused whatever it says, before adjudication: a verdict on a guess would tell it
        the hidden order), and an intent whose legality depends on another seat's hidden cards is
        held for that seat's confirmation (:meth:`confirm`). The CLI, transcripts and the arbiter see
        everything: their intents are adjudicated at once. ``hold`` alone (a transcript whose next line
        confirms or declines this move) asks for the holding without the rest. ``request`` (the HTTP access
        layer's idempotency key) is recorded with the one entry this call appends, in its transaction; the
        other writes below take it too."""
        loaded = self.load(match_id)
        intent = self.parse(loaded, seat, text)
        if blind and loaded.config.chance == "digital":
            typed = typed_chance(loaded.rules.chance_fields(intent), intent)
            if typed:  # refused before adjudication; kept in the log as a line that changes nothing
                refused = BadInput.said(InputCode.CHANCE_TYPED, N_(
                    "in a digital match the referee draws {drawn}: leave {first} out (a guess is never checked "
                    "against the hidden order)"), drawn=", ".join(typed), first=typed[0])
                refused.detail = {"intent": text}
                if expected_seq is not None:  # a stale writer hears of its conflict first, as before
                    self.at_head(loaded, expected_seq, reload=True)
                self.record_unparsed(loaded.match.id, seat, text.strip(), InputCode.CHANCE_TYPED, refused.message,
                                     meta, request=request)  # recorded in English, as every refusal
                raise refused
        hold = blind if hold is None else hold
        source = self._source(meta)
        if hold:  # recorded, so that an audit adjudicates it as it was: by a seat that sees its own view
            source = _BLIND if source is _NO_SOURCE else msgspec.structs.replace(source, blind=True)
        kept = self.history.kept_head(loaded.match.id)
        if kept is not None and (expected_seq is None or expected_seq == kept[0]):
            # The head this service knows (most often the entry it appended last) is taken as the match's
            # head without reading the store's: the append checks it in its transaction. If another writer
            # got in first, nothing was written: the head is read and the intent adjudicated again there.
            with contextlib.suppress(ConflictError):
                return self._move(loaded, seat, text, intent, *kept, source, hold, request)
        head, state = self.at_head(loaded, expected_seq, reload=True)
        return self._move(loaded, seat, text, intent, head, state, source, hold, request)

    def _move(self, loaded: Loaded, seat: str, text: str, intent: Any, head: int, state: Any, source: Source,
              hold: bool, request: StoredRequest | None) -> SubmitResult:
        """:meth:`submit`'s intent adjudicated at entry ``head`` (the match's state ``state``) and appended after
        it: a :class:`ConflictError` (nothing written) if ``head`` is not the store's head by then."""
        chance = core.play_chance(loaded.config, self.seed_in_force(loaded, head + 1))
        awaiting = self.open_hold(loaded, head)
        recorded, verdict = core.adjudicate(loaded.rules, state, seat, intent, chance, awaiting=awaiting,
                                            confirmed=not hold)
        prev = self.prev_hash_at(loaded, head)
        entry, new_state = self.make_entry(
            loaded, head + 1, state, prev, act=_MOVE, actor=seat,
            text=text.strip(), intent=recorded, verdict=verdict, source=source,
        )
        outcome = loaded.rules.outcome(new_state)
        self._append(loaded, entry, new_state, head, request=request, outcome=outcome)
        events = verdict.events if isinstance(verdict, Accepted) else ()
        return SubmitResult(
            match_id=loaded.match.id,
            seq=entry.seq,
            actor=seat,
            notation=lambda: notation.format_intent(recorded),
            intent=recorded,
            verdict=verdict,
            state_hash=entry.state_hash,
            outcome=outcome,
            events=lambda: plain(events),
            words=lambda: event_words(loaded.rules, events),
            rule_english=loaded.game.rulebook.english(verdict.rule) if isinstance(verdict, Rejected) else "",
            game=loaded.game.id,
            entry=entry,
        )

    @staticmethod
    def _source(meta: Mapping[str, Any] | None) -> Source:
        if not meta:
            return _NO_SOURCE
        try:
            return source_of(dict(meta or {}))
        except (ValueError, msgspec.ValidationError) as exc:
            raise BadInput.said(InputCode.BAD_SOURCE, N_("cannot record where the entry came from: {problem}"),
                                problem=fitting(str(exc))) from None

    def record_unparsed(self, match_id: str, actor: str | None, text: str, code: str, message: str,
                        meta: Mapping[str, Any] | None = None, *, request: StoredRequest | None = None) -> int:
        """Keep a line that could not be read as an intent (a transcript's syntax error, an unknown
        seat or card): an ``unparsed`` entry with no verdict, which changes nothing."""
        loaded = self.load(match_id)
        head, state = self.state_at(loaded)
        prev = self.prev_hash_at(loaded, head)
        entry, _ = self.make_entry(
            loaded, head + 1, state, prev, act=Unreadable(code=code, message=message), actor=actor, text=text,
            intent=None, verdict=None, source=self._source(meta),
        )
        self._append(loaded, entry, state, head, request=request)
        return entry.seq

    def annotate(self, match_id: str, seq: int, text: str, *, kind: str = "comment", by: str = "",
                 audience: str = "all") -> Annotation:
        check_text(text, "the annotation", TEXT_MAX, required=True,
                   hint="write several annotations for several lines")
        check_text(by, "who annotates (--by)", NAME_MAX)
        if kind not in ANNOTATION_KINDS:
            raise BadInput.said(AnnotationCode.BAD_KIND, N_("an annotation's kind is one of {kinds}, not {kind!r}"),
                                kinds=", ".join(ANNOTATION_KINDS), kind=kind)
        loaded = self.load(match_id)
        head = self.store.head(loaded.match.id)
        if not 1 <= seq <= head:
            raise BadInput.said(MatchCode.BAD_SEQ, N_("entry {entry} does not exist: match {match} has entries 1..{head}"),
                                entry=seq, match=loaded.match.id, head=head)
        if audience != "all" and audience != ARBITER and audience not in loaded.config.players:
            raise BadInput.said(AnnotationCode.BAD_AUDIENCE, N_(
                "an annotation is for all, the arbiter or one seat ({seats}), not {audience!r}"),
                seats=", ".join(loaded.config.players), audience=audience)
        stored = self.add_annotation(loaded.match.id, seq, kind, text, by, audience)
        return Annotation(seq=seq, kind=kind, text=text, by=by, recorded_at=stored.recorded_at)

    def add_annotation(self, match_id: str, seq: int, kind: str, text: str, by: str,
                       audience: str = "all") -> StoredAnnotation:
        """Append one annotation to the match's chain (no checks of the text: :meth:`annotate` makes
        them), retrying if another writer added one first."""
        for _attempt in range(CONFLICT_RETRIES):
            notes = self.store.annotations(match_id)
            stored = seal_annotations(match_id, [StoredAnnotation(
                match_id=match_id, seq=seq, kind=kind, text=text, by=by, recorded_at=self.clock(), audience=audience,
            )], after=notes[-1] if notes else None)[0]
            try:
                self.store.add_annotation(stored)
            except Conflict:
                continue
            except StoreError as exc:
                raise StorageError(StoreCode.FAILED, str(exc)) from None
            return stored
        raise ConflictError.said(AnnotationCode.BUSY, N_("match {match} is being annotated by others; try again"),
                                 match=match_id)
