"""The application service: every operation a front end offers, over a :class:`Store`.

Front ends (the CLI, the HTTP app) parse their input, call one method here and render the result.
Domain errors are :mod:`referee.errors` exceptions; illegal moves are not errors but Rejected
verdicts, recorded in the log like any other entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from schemas import ARBITER, TITLE_MAX, EntryView, MatchConfig, MatchInfo, Outcome
from schemas.http import AuditAnswer, DiffAnswer, LegalAnswer, LogPage, ReplayStep, StateAnswer

from .acts import Acts
from .appending import not_a_seat
from .api import log_span
from .config import Loaded, new_match_id
from .engine import core, notation
from .engine.chance import left_out, with_chance
from .engine.codes import MatchCode, StoreCode
from .engine.present import board_strings, names_in
from .engine.protocol import Accepted, Game
from .errors import BadInput, StorageError
from .i18n import N_, gettext
from .inputs import check_text
from .moves import Moves
from .redaction import View, annotations_by_entry, seat_role
from . import changes, summaries
from .reopening import fork_reopen
from .store import MatchSummary, StoredEntry, StoredMatch, StoreError

#: entries a streamed log reads (and redacts) at a time
LOG_CHUNK = 500


class Referee(Moves, Acts):
    """The service layer. Holds a store, the match configurations (:class:`Configuration`, which binds
    matches to their rules) and the match histories (:class:`History`, which reads logs and folds
    states) (:class:`referee.appending.Appending`); stateless otherwise (they keep small caches of bound
    rules and current states). Its moves are :class:`referee.moves.Moves`'s, its undos, redos, rulings
    and confirmations :class:`referee.acts.Acts`'s; here: matches, reading, forks and the audit."""

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
        # in the reader's language (show --json and the HTTP state ask for it in English, as for their boards)
        waits = gettext("entry {entry} waits for {seat} to confirm it", entry=hold[0], seat=hold[1])
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
            raise not_a_seat(seat, loaded.config.players, loaded.game.capabilities.other_actors)
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
    def fork(self, match_id: str, *, at: int, name: str = "", match_id_new: str | None = None) -> MatchInfo:
        """A new match whose history is this one's up to entry ``at`` (shared, not copied)."""
        check_text(name, "the fork's name", TITLE_MAX)
        loaded = self.load(match_id)
        head = self.store.head(loaded.match.id)
        if not 0 <= at <= head:
            raise BadInput.said(MatchCode.BAD_SEQ, N_("--at {at} is not an entry of match {match} (0..{head})"),
                                at=at, match=loaded.match.id, head=head)
        parent = loaded.match
        recorded = f"fork of {loaded.match.id} at {at}"  # the match's title, recorded: English whatever the reader's
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
            parent=parent.id, fork_seq=at, title=name or recorded,
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
