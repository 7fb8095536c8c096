"""Each match's summary (:class:`referee.store.MatchSummary`): what listings, the hall, standings and
ratings read instead of binding every match's rules and folding its log.

A summary is a projection of the log. The service computes it from the state after each entry and the
store writes it in that entry's transaction (:func:`of_state`); a new match, a fork and an imported
transcript get theirs with the match. :func:`rebuild` computes it again from the log alone: the audit
compares the two (a difference is a finding), and a listing first builds the summaries a database lacks
(one written before summaries were kept, or a copy): :func:`listing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from schemas import MatchConfig, MatchInfo, Outcome

from .store import MatchSummary, StoredEntry, StoredMatch, StoreError
from .engine.codes import SummaryCode
from .i18n import N_
from .store.base import tree_order

if TYPE_CHECKING:
    from .config import Configuration, Loaded
    from .history import History
    from .store import Store


class Referee(Protocol):
    """What building summaries reads: the store, the matches' configurations and their histories
    (:class:`referee.service.Referee` is one; so is an audit's reading in a forked process)."""

    @property
    def store(self) -> Store: ...

    @property
    def configuration(self) -> Configuration: ...

    @property
    def history(self) -> History: ...

PLAYING, OVER = "playing", "over"

_outcome_decoder = msgspec.json.Decoder(Outcome)


@lru_cache(maxsize=1024)
def _commitment(root: str, seed: int) -> str:
    """The seed commitment a summary names (the same for every entry of a match: worked out once)."""
    from .engine import core

    return core.seed_commitment(root, seed)


def summary_of(match: StoredMatch, config: MatchConfig, root: str, *, head: int, head_hash: str,
               outcome: Outcome | None, last_activity: str) -> MatchSummary:
    """The summary of ``match`` (configured by ``config``, created as ``root``: itself or its fork tree's
    root) at entry ``head`` (hash ``head_hash``), its outcome there and when that entry was recorded."""
    commitment = _commitment(root, config.seed) if config.chance == "digital" and config.seed is not None else ""
    meta = config.meta
    return MatchSummary(
        match_id=match.id, game=match.game, rules_version=match.rules_version, created_at=match.created_at,
        seats=tuple(config.players), status=OVER if outcome is not None else PLAYING, head=head, head_hash=head_hash,
        last_activity=last_activity, outcome=msgspec.json.encode(outcome) if outcome is not None else b"",
        parent=match.parent, fork_seq=match.fork_seq, title=match.title, event=meta.get("event", ""),
        round=meta.get("round", ""), table=meta.get("table", ""), seed_commitment=commitment,
    )


class Kept:
    """Each match's summary as the last append of one service left it, so that the next append replaces
    only what an entry changes (its head, the head's hash, the status, the outcome, the last activity)
    instead of building the parts taken from the match's row and configuration again. Kept with the
    binding it was built from; 64 matches at most."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[Loaded, MatchSummary]] = {}

    def after(self, loaded: Loaded, *, head: int, head_hash: str, outcome: Outcome | None,
              last_activity: str) -> MatchSummary:
        """:func:`summary_of` the loaded match at entry ``head``."""
        kept = self._kept.get(loaded.match.id)
        if kept is None or kept[0] is not loaded:
            summary = summary_of(loaded.match, loaded.config, loaded.root or loaded.match.id, head=head,
                                 head_hash=head_hash, outcome=outcome, last_activity=last_activity)
        else:
            summary = msgspec.structs.replace(
                kept[1], head=head, head_hash=head_hash, last_activity=last_activity,
                status=OVER if outcome is not None else PLAYING,
                outcome=msgspec.json.encode(outcome) if outcome is not None else b"",
            )
        self._kept.pop(loaded.match.id, None)
        self._kept[loaded.match.id] = (loaded, summary)
        while len(self._kept) > 64:
            self._kept.pop(next(iter(self._kept)))
        return summary


def of_state(loaded: Loaded, *, head: int, head_hash: str, state: Any, last_activity: str) -> MatchSummary:
    """A loaded match's summary once ``state`` is its state after entry ``head``."""
    return summary_of(loaded.match, loaded.config, loaded.root or loaded.match.id, head=head, head_hash=head_hash,
                      outcome=loaded.rules.outcome(state), last_activity=last_activity)


def rebuild(referee: Referee, match_id: str) -> MatchSummary:
    """A match's summary computed from its log alone (folded to its head)."""
    loaded = referee.configuration.load(match_id)
    head, state = referee.history.state_at(loaded)
    m = loaded.match
    last = referee.history.entry_at(m, head) if head > (m.fork_seq or 0) else None
    if last is not None:
        head_hash = last.hash
    elif head == 0:
        head_hash = m.genesis_hash
    else:  # a fork with no entry of its own: it chains from its parent's entry ``head``
        before = referee.history.entry_at(m, head)
        if before is None:
            raise StoreError.said(N_("entry {seq} of match {match} is missing; run `referee audit`"), seq=head,
                                  match=m.id)
        head_hash = before.hash
    return of_state(loaded, head=head, head_hash=head_hash, state=state,
                    last_activity=last.recorded_at if last else m.created_at)


def rebuild_all(referee: Referee, batch: int = 500) -> tuple[int, list[str]]:
    """Every match's summary rebuilt from its log and written (``referee db summaries``), ``batch`` at a
    time; returns how many and the ids of those that were missing or differed."""
    kept = {s.match_id: s for s in referee.store.summaries()}
    ids = sorted({*kept, *referee.store.unsummarised()})
    changed: list[str] = []
    for start in range(0, len(ids), batch):
        built = [rebuild(referee, mid) for mid in ids[start:start + batch]]
        changed.extend(s.match_id for s in built if kept.get(s.match_id) != s)
        referee.store.put_summaries(built)
    return len(ids), changed


def summary_for(referee: Referee, match_id: str) -> MatchSummary:
    """A match's summary (its whole id): the store's, or built from its log and written if it has none."""
    found = referee.store.summary(match_id)
    if found is None:
        found = rebuild(referee, match_id)
        _keep(referee, [found])
    return found


def listing(referee: Referee, unreadable: list[str] | None = None) -> list[MatchSummary]:
    """Every match's summary, in creation order; those the store lacks are built from their logs and
    written first (once: the next listing reads them). A match whose summary cannot be built (a game
    this referee does not know, a log that does not fold) is left out, its id added to ``unreadable``
    (without that list, its error is raised)."""
    missing = referee.store.unsummarised()
    if not missing:
        return referee.store.summaries()
    built: dict[str, MatchSummary] = {}
    for mid in missing:
        try:
            built[mid] = rebuild(referee, mid)
        except Exception:  # noqa: BLE001 - whatever stops it, the caller says so (or raises it)
            if unreadable is None:
                raise
            unreadable.append(mid)
    if _keep(referee, list(built.values())):
        return referee.store.summaries()
    return sorted([*referee.store.summaries(), *built.values()], key=lambda s: (s.created_at, s.match_id))


def _keep(referee: Referee, built: list[MatchSummary]) -> bool:
    """Write summaries just built; whether they were (a store that refuses, e.g. to a role that may not
    write them, only costs the next reader the same work)."""
    try:
        referee.store.put_summaries(built)
    except StoreError:
        return False
    return True


def tree(summaries: Sequence[MatchSummary]) -> list[tuple[MatchSummary, int]]:
    """The summaries with their depth in the fork tree, parents before their forks (each level in the
    order given); a fork whose parent is not among them is listed at the top."""
    return tree_order(summaries)


def outcome(summary: MatchSummary) -> Outcome | None:
    """The outcome a summary records (None while the match is played); one that cannot be read is a
    :class:`~referee.errors.StorageError` naming the match and the way to rebuild it."""
    if not summary.outcome:
        return None
    try:
        return _outcome_decoder.decode(summary.outcome)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        from .errors import StorageError

        raise StorageError.said(SummaryCode.CORRUPT, N_("the summary of match {match} holds an outcome that cannot "
                                                        "be read ({problem}); `referee db summaries` rebuilds it from "
                                                        "the log"), match=summary.match_id, problem=str(exc)) from None


def info(summary: MatchSummary) -> MatchInfo:
    """The match table's row of a match, from its summary."""
    return MatchInfo(id=summary.match_id, game=summary.game, rules_version=summary.rules_version,
                     players=summary.seats, created_at=summary.created_at, head=summary.head, parent=summary.parent,
                     fork_seq=summary.fork_seq, title=summary.title, event=summary.event, round=summary.round,
                     table=summary.table, seed_commitment=summary.seed_commitment)
