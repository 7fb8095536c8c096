"""The application service: every operation a front end offers, over a :class:`Store`.

Front ends (the CLI, the HTTP app) parse their input, call one method here and render the result.
Domain errors are :mod:`referee.errors` exceptions; illegal moves are not errors but Rejected
verdicts, recorded in the log like any other entry.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from schemas import (
    ARBITER,
    NAME_MAX,
    TEXT_MAX,
    TITLE_MAX,
    Annotation,
    EntryView,
    MatchConfig,
    MatchInfo,
    Outcome,
)
from schemas.http import (
    AuditAnswer,
    DiffAnswer,
    LegalAnswer,
    LogPage,
    ReplayStep,
    StateAnswer,
)

from .api import SubmitResult, log_span
from .engine import core, notation
from .engine.chance import left_out, typed_chance, with_chance
from .engine.codes import (AnnotationCode, ConfirmCode, InputCode, LogCode, MatchCode, RedoCode, RulingCode, StoreCode,
                           UndoCode)
from .engine.entries import (
    Act,
    Confirmation,
    EntryBody,
    Move,
    Redo,
    Ruling,
    Source,
    Undo,
    Unreadable,
    source_of,
)
from .engine.present import board_strings, names_in
from .engine.protocol import Accepted, Game, InputError, Rejected
from .engine.suggest import did_you_mean
from .errors import BadInput, ConflictError, StorageError
from .inputs import check_text
from .redaction import View, annotations_by_entry, seat_role, verdict_name
from . import summaries
from .store import (
    Conflict,
    MatchSummary,
    Store,
    StoredAnnotation,
    StoredEntry,
    StoredMatch,
    StoredRequest,
    StoredSnapshot,
    StoreError,
)
from .config import Configuration, Loaded, new_match_id, utc_now
from . import changes
from .changes import event_words
from .history import SNAPSHOT_EVERY, History, expect_head, seal_annotations
from .reopening import fork_reopen, reopening_undo
from .reopening import fresh_secret as default_secret

#: how often an append that lost a race (another writer got in first) is tried again
CONFLICT_RETRIES = 8
#: entries a streamed log reads (and redacts) at a time
LOG_CHUNK = 500
#: how many parsed lines a service keeps (:meth:`Referee.parse`)
PARSED_MAX = 512
#: what an annotation may say of an entry
ANNOTATION_KINDS = ("comment", "disputed", "ruling", "good", "mistake")


#: ``accepted``, ``rejected``, ``held`` or ``none``: an entry's verdict column
entry_verdict_name = verdict_name


class _Unset:
    """An argument left out (where None is a value: a match with no outcome)."""


_UNSET = _Unset()
#: what every move's entry records of itself when nothing more is said (frozen: one of each serves all)
_MOVE = Move()
_NO_SOURCE = Source()
_BLIND = Source(blind=True)


class Referee:
    """The service layer. Holds a store, the match configurations (:class:`Configuration`, which binds
    matches to their rules) and the match histories (:class:`History`, which reads logs and folds
    states); stateless otherwise (they keep small caches of bound rules and current states)."""

    def __init__(
        self,
        store: Store,
        *,
        games: Sequence[Game] | None = None,
        clock: Callable[[], str] = utc_now,
        snapshot_every: int = SNAPSHOT_EVERY,
        use_snapshots: bool = True,
        fresh_secret: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        self.configuration = Configuration(store, games)
        self.history = History(store, use_snapshots=use_snapshots)
        #: where a reopening's fresh secret comes from (os randomness; a test may fix it). Called when an
        #: entry is written, never by a fold: the secret is recorded in the entry
        self.fresh_secret: Callable[[], int] = fresh_secret or default_secret
        self.clock = clock
        self.snapshot_every = snapshot_every
        #: lines parsed lately: text -> (the rules they were checked against, the intent), oldest first
        self._parsed: dict[str, tuple[Any, Any]] = {}
        #: each match's summary as its last append here left it (an append replaces what its entry changes)
        self._summaries = summaries.Kept()
        # what callers read of the games, the configurations and the histories: theirs, as they were
        c, h = self.configuration, self.history
        self.game, self.describe_game, self.read_card_set = c.game, c.describe_game, c.read_card_set
        self.build_config, self._bind, self.info, self.resolve = c.build_config, c._bind, c.info, c.resolve
        self.load = c.load
        self.entries, self.index, self.audit_rows, self.entry_at = h.entries, h.index, h.audit_rows, h.entry_at
        self.snapshot, self.snapshots_of, self.bodies, self.folded = h.snapshot, h.snapshots_of, h.bodies, h.folded
        self.decode, self.state_at, self.advance, self.walk, self.over = h.decode, h.state_at, h.advance, h.walk, h.over
        self.snapshot_checks_out, self.checked_snapshot = h.snapshot_checks_out, h.checked_snapshot
        self.timeline, self.open_hold, self.marks, self.jumps = h.timeline, h.open_hold, h.marks, h.jumps
        self.seed_in_force, self.reseeds, self.holder, self.act_of = h.seed_in_force, h.reseeds, h.holder, h.act_of
        self.reopening_problem, self.annotations_on = h.reopening_problem, h.annotations_on
        self.decide_undo, self.decide_redo = h.decide_undo, h.decide_redo
        self.decide_confirm, self.decide_ruling = h.decide_confirm, h.decide_ruling

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game this service knows (imports every registered game's package)."""
        return self.configuration.games

    @property
    def given_games(self) -> tuple[Game, ...] | None:
        """The games this service was given (None: the registry's)."""
        return self.configuration.given_games

    # -- matches -----------------------------------------------------------------------------

    def create_match(self, game: Game, config: MatchConfig, *, title: str = "", match_id: str | None = None,
                     entries: Sequence[StoredEntry] = ()) -> MatchInfo:
        stored, summary = self.new_row(game, config, title=title, match_id=match_id)
        try:  # (with entries, its summary is built from them when a listing first finds it missing)
            self.store.create_match(stored, entries, summary=None if entries else summary)
        except StoreError as exc:
            raise StorageError(StoreCode.FAILED, str(exc)) from None
        return self.info(stored)

    def match_row(self, game: Game, config: MatchConfig, *, title: str = "", match_id: str | None = None) -> StoredMatch:
        """The row of a new match (checked, not stored)."""
        return self.new_row(game, config, title=title, match_id=match_id)[0]

    def new_row(self, game: Game, config: MatchConfig, *, title: str = "",
                match_id: str | None = None) -> tuple[StoredMatch, MatchSummary]:
        """The row of a new match and its summary (checked, not stored): :meth:`create_match` stores one,
        a tournament's pairing stores a round's at once."""
        check_text(title, "the title", TITLE_MAX)
        rules, state = self._bind(game, config)
        mid = match_id or new_match_id()
        row = StoredMatch(id=mid, game=game.id, rules_version=game.rules_version, config=msgspec.json.encode(config),
                          genesis_hash=core.genesis_hash(mid, game.rules_version, config), created_at=self.clock(),
                          title=title)
        return row, summaries.summary_of(row, config, mid, head=0, head_hash=row.genesis_hash,
                                         outcome=rules.outcome(state), last_activity=row.created_at)

    def new_match(self, game_name: str, players: Sequence[str], *, title: str = "", continue_from: str | None = None,
                  **kwargs: Any) -> MatchInfo:
        if continue_from is not None:
            from .continuation import continuation

            previous = self.load(continue_from)
            kwargs = continuation(self.history, previous, self.game(game_name), game_name, kwargs)
        return self.create_match(*self.new_config(game_name, players, title=title, **kwargs), title=title)

    def new_config(self, game_name: str, players: Sequence[str], *, title: str = "",
                   **kwargs: Any) -> tuple[Game, MatchConfig]:
        """A new match's game and configuration; ``title`` goes into the configuration, even an empty one,
        so the genesis hash covers it and the audit compares the match's title with it."""
        kwargs["meta"] = {**(kwargs.get("meta") or {}), "title": title}
        return self.build_config(game_name, players, **kwargs)

    # -- reading the log ---------------------------------------------------------------------

    def show(self, match_id: str, *, at: int | None = None, seat: str | None = None) -> StateAnswer:
        """The state after entry ``at`` (default: now) as ``seat`` sees it, with the outcome, the
        seed's commitment and, once the match is over, the seed (:mod:`referee.redaction`)."""
        loaded = self.load(match_id)
        seat = self.role(loaded, seat)
        view = View(loaded, seat)
        seq, state = self.state_at(loaded, at)
        shown = view.state(state)
        boards, headline = loaded.rules.boards(shown), self._headline(loaded, shown, at)
        sections = loaded.rules.sections(shown, boards)  # worded from the boards just drawn, not drawn again
        return StateAnswer(
            match_id=loaded.match.id,
            game=loaded.game.id,
            seq=seq,
            as_=seat or "referee",
            # the hash covers hidden cards (a guess could be confirmed by hashing): referee view only
            state_hash=core.state_hash(state) if seat is None else "",
            outcome=loaded.rules.outcome(state),
            state=shown,
            boards=boards,
            headline=headline,
            sections=sections,
            names=names_in((*board_strings(boards), *board_strings(sections), headline), loaded.rules.name_of),
            seed_commitment=view.commitment(),
            seed=view.seed(lambda: self.over(loaded)),
            secrets=view.secrets(lambda: self.reseeds(loaded, self.store.head(loaded.match.id)),
                                 lambda: self.over(loaded)),
        )

    def _headline(self, loaded: Loaded, shown: dict[str, Any], at: int | None) -> str:
        """The game's headline of a view and, at the head, the entry that waits for a confirmation (a
        held entry is public: every role's log shows it waiting, and nothing is played meanwhile)."""
        line = loaded.rules.headline(shown)
        hold = self.open_hold(loaded) if at is None else None
        if hold is None:
            return line
        waits = f"entry {hold[0]} waits for {hold[1]} to confirm it"
        return f"{line} · {waits}" if line else waits

    def result(self, match_id: str) -> Outcome | None:
        """How the match ended, or None while it is being played (public to every role): the state at
        its head folded from the nearest snapshot."""
        loaded = self.load(match_id)
        return loaded.rules.outcome(self.state_at(loaded)[1])

    def role(self, loaded: Loaded, seat: str | None) -> str | None:
        """The view to use for ``seat`` (:func:`referee.redaction.seat_role`)."""
        return seat_role(loaded, seat)

    def log(self, match_id: str, *, seat: str | None = None, start: int = 1, stop: int | None = None,
            last: int | None = None) -> list[EntryView]:
        """Entries ``start..stop`` (default: all; see :meth:`log_stream`) as ``seat`` sees them (None:
        the referee's full log; :mod:`referee.redaction` decides what a role sees)."""
        return list(self.log_stream(match_id, seat=seat, start=start, stop=stop, last=last))

    def log_stream(self, match_id: str, *, seat: str | None = None, start: int = 1, stop: int | None = None,
                   last: int | None = None) -> Iterator[EntryView]:
        """Entries ``start..stop`` as ``seat`` sees them, one at a time: :data:`LOG_CHUNK` entries are read
        and redacted at a time, so a long range streams. ``stop`` defaults to the head and is cut to it;
        ``last`` keeps the last that many of the range; a range after the head is empty. A bad match,
        seat or range is refused here, before the first entry.

        A page costs what it shows, whatever the length of the log: its entries, their annotations and
        the accepted undos and redos after its first entry (for the undone-by marks) are read, and no
        state is folded."""
        loaded = self.load(match_id)
        view = View(loaded, self.role(loaded, seat))
        head = self.store.head(loaded.match.id)
        start, stop = self.log_span(head, start, stop, last)
        return self._log_stream(loaded, view, start, stop, head)

    def _log_stream(self, loaded: Loaded, view: View, start: int, stop: int, head: int) -> Iterator[EntryView]:
        marks = self.marks(loaded, start, stop, head)
        for low in range(start, stop + 1, LOG_CHUNK):
            high = min(stop, low + LOG_CHUNK - 1)
            notes = annotations_by_entry(self.annotations_on(loaded, low, high))
            for entry, body in self.bodies(loaded, low, high):
                yield view.entry(entry, body, undone_by=marks.get(entry.seq), annotations=notes.get(entry.seq, ()))[0]

    log_span = staticmethod(log_span)

    def log_page(self, match_id: str, *, seat: str | None = None, offset: int = 0, limit: int = 100) -> LogPage:
        """Entries ``offset + 1 .. offset + limit`` as ``seat`` sees them, with the head."""
        loaded = self.load(match_id)
        view = View(loaded, self.role(loaded, seat))
        head = self.store.head(loaded.match.id)
        start, stop = self.log_span(head, offset + 1, offset + limit)
        entries = list(self._log_stream(loaded, view, start, stop, head))
        return LogPage(match_id=loaded.match.id, head=head, total=head, offset=offset, limit=limit, entries=entries)

    def legal(self, match_id: str, seat: str | None = None, *, blind: bool = False) -> LegalAnswer:
        """The intents of each seat (or of ``seat``), in notation, that the referee would accept now
        (hints, fuzzing), after entry ``seq`` (the head). In a physical match the chance values shown
        (cards drawn) are consistent examples only. With ``blind`` (a seat asking for itself) the
        chance outcomes the seat cannot know are ``?`` in a physical match and left out in a digital
        one: an example drawn from what only the referee knows would tell the seat what it may not
        know."""
        loaded = self.load(match_id)
        actors = (*loaded.config.players, *loaded.game.capabilities.other_actors)  # Copycat's table, Android's arbiter
        if seat is not None and seat not in actors:
            others = loaded.game.capabilities.other_actors
            raise BadInput(MatchCode.UNKNOWN_SEAT, f"{seat!r} is not a seat of this match{did_you_mean(seat, actors)}; "
                           f"seats: {', '.join(loaded.config.players)}"
                           + (f" (and {', '.join(others)})" if others else ""))
        seq, state = self.state_at(loaded)
        over = loaded.rules.outcome(state) is not None
        out: dict[str, list[str]] = {}
        for s in ([seat] if seat is not None else actors):
            intents = [] if over else loaded.rules.legal_intents(state, s)
            if blind:
                intents = [_blind(loaded, i) for i in intents]
            out[s] = list(dict.fromkeys(notation.format_intent(i) for i in intents))
        return LegalAnswer(match_id=loaded.match.id, seq=seq, legal=out)

    # -- writing -----------------------------------------------------------------------------

    def parse(self, loaded: Loaded, seat: str, text: str) -> Any:
        """The intent a line of notation types, checked against the match's card data. A line this service
        parsed for the same rules lately is not parsed again: the parse and the check are pure functions of
        the rules and the text, and intents are frozen (a match's players type the same lines over and over)."""
        if seat not in loaded.config.players and seat not in loaded.game.capabilities.other_actors:
            check_text(text, "an intent", TEXT_MAX)
            others = f" (and {', '.join(loaded.game.capabilities.other_actors)})" if loaded.game.capabilities.other_actors else ""
            raise BadInput(
                MatchCode.UNKNOWN_SEAT,
                f"{seat!r} is not a seat of this match"
                f"{did_you_mean(seat, (*loaded.config.players, *loaded.game.capabilities.other_actors))}; "
                f"seats: {', '.join(loaded.config.players)}{others}",
            )
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

    def at_head(self, loaded: Loaded, expected_seq: int | None, hint: str = "") -> tuple[int, Any]:
        """(head, state) of a match a writer appends to, refused as a conflict (nothing written) if the
        writer named another head: every write that takes an expected head checks it here, through
        :func:`referee.history.expect_head`."""
        head, state = self.state_at(loaded)
        expect_head(loaded.match.id, head, expected_seq, hint)
        return head, state

    def _append(self, loaded: Loaded, entry: StoredEntry, new_state: Any, head: int, jump: int | None = None,
                request: StoredRequest | None = None, *, outcome: Outcome | None | _Unset = _UNSET) -> None:
        """Append one entry (with a snapshot every K entries, and ``request``'s idempotency key) in one
        transaction. An undo or redo that jumps back past the last of those snapshots (to ``jump``) gets a
        snapshot of its own: a later fold through it then reads the state instead of folding the jump's
        target again. ``outcome``: the match's outcome after the entry, if the caller has worked it out."""
        snapshot = None
        every = self.snapshot_every
        if every and (entry.seq % every == 0 or (jump is not None and jump < entry.seq - entry.seq % every)):
            snapshot = StoredSnapshot(
                match_id=loaded.match.id, seq=entry.seq, state=core.state_bytes(new_state), state_hash=entry.state_hash
            )
        try:
            if isinstance(outcome, _Unset):
                outcome = loaded.rules.outcome(new_state)
            summary = self._summaries.after(loaded, head=entry.seq, head_hash=entry.hash, outcome=outcome,
                                            last_activity=entry.recorded_at)
            self.store.append(entry, expected_seq=head, snapshot=snapshot, request=request, summary=summary)
        except Conflict as exc:
            self.history.forget_head(loaded.match.id)
            raise ConflictError(MatchCode.STALE_SEQ, str(exc), {"head": exc.head}) from None
        except StoreError as exc:
            raise StorageError(StoreCode.FAILED, str(exc)) from None
        self.history.remember_head(loaded.match.id, entry.seq, new_state, entry)

    def prev_hash_at(self, loaded: Loaded, head: int) -> str:
        """The hash the entry after ``head`` chains from (the genesis hash before the first entry)."""
        if head == 0:
            return loaded.match.genesis_hash
        kept = self.history.head_hash(loaded.match.id, head)  # the entry this service just appended
        if kept is not None:
            return kept
        last = self.entry_at(loaded.match, head)
        if last is None:
            raise StorageError(LogCode.CORRUPT, f"entry {head} of match {loaded.match.id} is missing; run `referee audit`")
        return last.hash

    def make_entry(
        self, loaded: Loaded, seq: int, state: Any, prev_hash: str, *, act: Act, actor: str | None,
        text: str, intent: Any, verdict: Any, source: Source | None = None,
    ) -> tuple[StoredEntry, Any]:
        body: EntryBody[Any, Any] = EntryBody(
            seq=seq, act=act, actor=actor, notation=text, intent=intent, verdict=verdict, source=source or Source()
        )
        new_state = self.advance(loaded, state, body)
        raw = core.canonical(body)
        entry = StoredEntry(
            match_id=loaded.match.id,
            seq=seq,
            kind=body.kind,
            actor=actor,
            verdict=entry_verdict_name(verdict),
            code=verdict.code if isinstance(verdict, Rejected) else None,
            body=raw,
            prev_hash=prev_hash,
            hash=core.entry_hash(prev_hash, raw),
            state_hash=core.state_hash(new_state),
            recorded_at=self.clock(),
        )
        return entry, new_state

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
                message = (f"in a digital match the referee draws {', '.join(typed)}: leave {typed[0]} out (a guess "
                           "is never checked against the hidden order)")
                if expected_seq is not None:  # a stale writer hears of its conflict first, as before
                    self.at_head(loaded, expected_seq, "; reload and submit again")
                self.record_unparsed(loaded.match.id, seat, text.strip(), InputCode.CHANCE_TYPED, message, meta,
                                     request=request)
                raise BadInput(InputCode.CHANCE_TYPED, message, {"intent": text})
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
        head, state = self.at_head(loaded, expected_seq, "; reload and submit again")
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
            events=lambda: _plain(events),
            words=lambda: event_words(loaded.rules, events),
            rule_english=loaded.game.rulebook.english(verdict.rule) if isinstance(verdict, Rejected) else "",
            entry=entry,
        )

    @staticmethod
    def _source(meta: Mapping[str, Any] | None) -> Source:
        if not meta:
            return _NO_SOURCE
        try:
            return source_of(dict(meta or {}))
        except (ValueError, msgspec.ValidationError) as exc:
            raise BadInput(InputCode.BAD_SOURCE, f"cannot record where the entry came from: {exc}") from None

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
            raise BadInput(AnnotationCode.BAD_KIND, f"an annotation's kind is one of {', '.join(ANNOTATION_KINDS)}, not {kind!r}")
        loaded = self.load(match_id)
        head = self.store.head(loaded.match.id)
        if not 1 <= seq <= head:
            raise BadInput(MatchCode.BAD_SEQ, f"entry {seq} does not exist: match {loaded.match.id} has entries 1..{head}")
        if audience != "all" and audience != ARBITER and audience not in loaded.config.players:
            raise BadInput(AnnotationCode.BAD_AUDIENCE,
                           f"an annotation is for all, the arbiter or one seat ({', '.join(loaded.config.players)}), not {audience!r}")
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
        raise ConflictError(AnnotationCode.BUSY, f"match {match_id} is being annotated by others; try again")

    # -- time travel ---------------------------------------------------------------------------

    def _check_actor(self, loaded: Loaded, actor: str) -> None:
        if actor != ARBITER and actor not in loaded.config.players:
            raise BadInput(
                MatchCode.UNKNOWN_SEAT,
                f"{actor!r} is not a seat of this match{did_you_mean(actor, (*loaded.config.players, ARBITER))}; "
                f"seats: {', '.join(loaded.config.players)} (or {ARBITER})",
            )

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
                raise BadInput(UndoCode.NOTHING_TO_UNDO, f"match {loaded.match.id} has no accepted or held move to undo")
            to = last.seq - 1
        if not 0 <= to < head:
            raise BadInput(MatchCode.BAD_SEQ, f"--to {to} is not an earlier entry: match {loaded.match.id} has entries 0..{head}")
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
                raise BadInput(RedoCode.NOTHING_TO_REDO, f"match {loaded.match.id} has no undo in effect to redo")
        if not 1 <= undo <= head:
            raise BadInput(MatchCode.BAD_SEQ, f"entry {undo} does not exist: match {loaded.match.id} has entries 1..{head}")
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
            events=lambda: _plain(events), words=lambda: event_words(loaded.rules, events), entry=entry,
            rule_english=loaded.game.rulebook.english(verdict.rule) if isinstance(verdict, Rejected) else "",
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
            raise BadInput(MatchCode.BAD_SEQ, f"entry {entry} does not exist: match {loaded.match.id} has entries 1..{head}")
        stored = self.entry_at(loaded.match, entry)
        assert stored is not None
        body = loaded.decoder.decode(stored.body)
        if body.kind != "intent" or not isinstance(body.verdict, Rejected) or body.intent is None:
            raise BadInput(RulingCode.NOT_REJECTED, f"entry {entry} is not a rejected intent; only a rejection can be ruled to stand")
        last = self.entry_at(loaded.match, head) if entry < head else stored
        if last is not None and last.state_hash != stored.state_hash:
            # applied here, the move would be played on a state it was never made on
            raise BadInput(
                RulingCode.NOT_LAST,
                f"the state has changed since entry {entry} (entries up to {head} were played after it); nothing was "
                f"written. A ruling on it replays what followed, on a fork or on the main line: "
                f"`referee rule {loaded.match.id} {entry}` on the match's own database (see referee/rulings.py)",
                {"head": head},
            )
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
            what = f"entry {hold[0]} waits for {hold[1]}" if hold else "nothing waits for a confirmation"
            raise BadInput(ConfirmCode.NOTHING_TO_CONFIRM, f"entry {entry} does not wait for a confirmation ({what})")
        if by not in (hold[1], ARBITER):
            raise BadInput(ConfirmCode.NOT_YOURS, f"entry {entry} waits for {hold[1]} (or the arbiter) to confirm it, not {by}")
        stored = self.entry_at(loaded.match, entry)
        assert stored is not None
        held = loaded.decoder.decode(stored.body)
        assert held.actor is not None
        act = Confirmation(entry=entry, seat=held.actor, decision="confirm" if accept else "decline", reason=reason)
        verdict = self.decide_confirm(loaded, state, held.intent, act, head + 1)
        word = "confirms" if accept else "declines"
        text = f"{by} {word} entry {entry}" + (f" — {reason}" if reason else "")
        return self._append_act(loaded, head, state, act, by, text, verdict, held.intent, request)

    def fork(self, match_id: str, *, at: int, name: str = "", match_id_new: str | None = None) -> MatchInfo:
        """A new match whose history is this one's up to entry ``at`` (shared, not copied)."""
        check_text(name, "the fork's name", TITLE_MAX)
        loaded = self.load(match_id)
        head = self.store.head(loaded.match.id)
        if not 0 <= at <= head:
            raise BadInput(MatchCode.BAD_SEQ, f"--at {at} is not an entry of match {loaded.match.id} (0..{head})")
        parent = loaded.match
        # a fork at or before the parent's own fork point forks the grandparent instead: history is
        # never shared through a match that does not hold it
        while parent.parent is not None and at <= (parent.fork_seq or 0):
            grand = self.store.get_match(parent.parent)
            if grand is None:
                break
            parent = grand
        fork = StoredMatch(
            id=match_id_new or new_match_id(), game=parent.game, rules_version=parent.rules_version,
            config=parent.config, genesis_hash=parent.genesis_hash, created_at=self.clock(),
            parent=parent.id, fork_seq=at, title=name or f"fork of {loaded.match.id} at {at}",
        )
        first = []
        reopen = fork_reopen(self.history, loaded, fork.id, at, head, self.fresh_secret)
        if reopen is not None:
            entry, _ = self.make_entry(loaded, at + 1, reopen[1], self.prev_hash_at(loaded, at), act=reopen[0],
                                       actor=ARBITER, text="reopen: fresh secret", intent=None, verdict=Accepted(()))
            first.append(msgspec.structs.replace(entry, match_id=fork.id))
        last = first[-1] if first else None
        summary = summaries.summary_of(
            fork, loaded.config, loaded.root or loaded.match.id, head=at + len(first),
            head_hash=last.hash if last else self.prev_hash_at(loaded, at),
            outcome=loaded.rules.outcome(self.state_at(loaded, at)[1]),
            last_activity=last.recorded_at if last else fork.created_at)
        try:
            self.store.create_match(fork, first, summary=summary)
        except StoreError as exc:
            raise StorageError(StoreCode.FAILED, str(exc)) from None
        return self.info(fork)

    def matches(self) -> list[MatchInfo]:
        """Every match's row, in creation order, read from the summaries (:mod:`referee.summaries`)."""
        return [summaries.info(s) for s in summaries.listing(self)]

    def forks(self) -> list[tuple[MatchInfo, int]]:
        """Every match with its depth in the fork tree, parents before their forks (a tree walk)."""
        return [(summaries.info(s), depth) for s, depth in summaries.tree(summaries.listing(self))]

    def diff(self, a: str, b: str, *, at_a: int | None = None, at_b: int | None = None) -> DiffAnswer:
        """How two states differ (by dotted path), and the first entry where two lines diverge
        (:func:`referee.changes.diff`)."""
        return changes.diff(self, a, b, at_a=at_a, at_b=at_b)

    def replay(
        self, match_id: str, *, start: int = 1, stop: int | None = None, seat: str | None = None
    ) -> list[ReplayStep]:
        """Entry by entry: the intent, its verdict, and what changed in the state (as ``seat`` sees
        it; None = the referee's full view; :func:`referee.changes.replay`)."""
        return changes.replay(self, match_id, start=start, stop=stop, seat=seat)

    def export(self, match_id: str, fmt: str, role: str = ARBITER) -> Iterator[str]:
        """The match as ``role`` sees it (``arbiter``, a seat or ``spectator``) in ``fmt`` (txt, md, html
        or json), a piece at a time as the log is walked (:func:`referee.export.export_chunks`)."""
        from .export import export_chunks

        return export_chunks(self, match_id, fmt, role)

    def match_info(self, match_id: str) -> MatchInfo:
        """The match table's row of a match (its id, or a unique prefix of 4+ characters)."""
        return self.info(self.resolve(match_id))

    # -- checking ----------------------------------------------------------------------------

    def audit(self, match_id: str, progress: Callable[[int, int], None] | None = None, *, jobs: int = 1,
              accept_rules_change: bool = False) -> AuditAnswer:
        """Check the whole record: the configuration against the genesis hash, the rules version, then
        re-adjudicate every entry from setup and check every verdict, entry hash, the chain, every state
        hash and every snapshot, then the annotations' chain. Reports the first divergence exactly.
        ``jobs`` > 1 checks stretches of a long log in parallel processes, with the same report (see
        :mod:`referee.audit`)."""
        from . import audit

        return audit.run(self, match_id, progress, jobs, accept_rules_change=accept_rules_change)

    def audit_many(self, match_ids: Sequence[str], progress: Callable[[int, int], None] | None = None, *,
                   jobs: int = 1, accept_rules_change: bool = False) -> list[AuditAnswer]:
        """:meth:`audit` of several matches (in that order); with ``jobs`` > 1 short matches are
        audited side by side in processes, long ones in stretches."""
        from . import audit

        return audit.run_many(self, list(match_ids), progress, jobs, accept_rules_change=accept_rules_change)

    def verify(self, match_id: str) -> list[str]:
        """The audit's findings as sentences (empty = clean)."""
        report = self.audit(match_id)
        return [f"entry {f.seq}: {f.what}: recorded {f.recorded}, derived {f.derived}" for f in report.findings]


def _blind(loaded: Loaded, intent: Any) -> Any:
    """``intent`` without the chance outcomes its seat cannot know (``?`` in a physical match, left out
    for the referee to draw in a digital one)."""
    from .engine.secrecy import blank

    digital = loaded.config.chance == "digital"
    for path in loaded.rules.chance_fields(intent):
        intent = with_chance(intent, path, left_out if digital else lambda value, _field: blank(value))
    return intent


def _plain(value: Any) -> Any:
    """JSON-shaped builtins (lists, dicts, str, int, bool, None) of any msgspec value."""
    return msgspec.json.decode(msgspec.json.encode(value))
