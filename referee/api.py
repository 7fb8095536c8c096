"""What a front end asks of a referee, wherever the referee is: :class:`RefereeApi`.

Two classes answer it: :class:`referee.service.Referee`, the service over a local store, and the
CLI's client of a referee server (``cli.client.RemoteReferee``), which decodes the server's answers
into the same Structs. The CLI talks to whichever the command line names through this protocol
alone, so the two cannot drift apart unnoticed: mypy checks that both implement it.

The answers are the Structs of :mod:`schemas` (what HTTP sends too), and :class:`SubmitResult` for
an appended entry: the verdict as a value, which a front end renders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from schemas import Annotation, EntryView, MatchInfo, Outcome
from schemas.http import AuditAnswer, DiffAnswer, LegalAnswer, ReplayStep, StateAnswer

from .engine.codes import MatchCode
from .engine.protocol import Accepted, Held, Rejected
from .errors import BadInput
from .i18n import N_


class SubmitResult:
    """The entry an intent (or an undo, redo, ruling or confirmation) appended, and its verdict.

    ``notation``, ``events`` and ``words`` may be given as functions that compute them: the local
    service does so, and each is computed when first read (an HTTP answer builds its own from the
    entry as the caller may see it, a transcript import reads none of them)."""

    def __init__(
        self, *, match_id: str, seq: int, actor: str, notation: str | Callable[[], str], intent: Any,
        verdict: Accepted[Any] | Rejected | Held, state_hash: str, outcome: Outcome | None,
        events: list[Any] | Callable[[], list[Any]] | None = None,
        words: list[str] | Callable[[], list[str]] | None = None, entry: Any = None, rule_english: str = "",
        game: str = "",
    ) -> None:
        self.match_id = match_id
        self.seq = seq
        self.actor = actor
        #: the intent as recorded (a game's Struct; None for a framework entry, or from a server)
        self.intent = intent
        self.verdict = verdict
        self.state_hash = state_hash
        self.outcome = outcome
        #: the stored entry itself (:class:`referee.store.StoredEntry`; the local service only, else None)
        self.entry = entry
        #: a rejection's rule as an English sentence cites it (the game's rulebook headings in English)
        self.rule_english = rule_english
        #: the match's game (its templates read a rejection in the reader's language); "" from a server
        self.game = game
        self._notation = notation
        self._events = [] if events is None else events
        self._words = [] if words is None else words

    @property
    def notation(self) -> str:
        """The intent in canonical notation (as recorded: chance outcomes filled in)."""
        if callable(self._notation):
            self._notation = self._notation()
        return self._notation

    @property
    def events(self) -> list[Any]:
        """The events as JSON builtins, as the caller may see them."""
        if callable(self._events):
            self._events = self._events()
        return self._events

    @property
    def words(self) -> list[str]:
        """The events in words (the game's describe_event), for people."""
        if callable(self._words):
            self._words = self._words()
        return self._words

    def __repr__(self) -> str:
        return (f"SubmitResult(match_id={self.match_id!r}, seq={self.seq}, actor={self.actor!r}, "
                f"verdict={self.verdict!r}, state_hash={self.state_hash!r})")

    @property
    def accepted(self) -> bool:
        return isinstance(self.verdict, Accepted)

    @property
    def held(self) -> bool:
        """The intent waits for a confirmation (see :meth:`RefereeApi.confirm`)."""
        return isinstance(self.verdict, Held)


def log_span(head: int, start: int = 1, stop: int | None = None, last: int | None = None) -> tuple[int, int]:
    """The entries ``(first, last)`` that a log of ``start..stop`` (or of its ``last`` entries) shows, of a
    log whose head is ``head``: ``stop`` defaults to the head and is cut to it; the span is empty (first >
    last) when it lies after the head. A range that does not start at entry 1 or later and count up is
    refused (:class:`BadInput`)."""
    if start < 1 or (stop is not None and stop < 0) or (last is not None and last < 0):
        raise BadInput.said(MatchCode.BAD_SEQ, N_("a log's range starts at entry 1 or later and counts up (from "
                                                  "{start}, to {stop}, last {last}): give --from N (1 or more), --to M, "
                                                  "--last K (0 or more)"), start=start, stop=stop, last=last)
    stop = head if stop is None else min(stop, head)
    if last is not None:
        start = max(start, stop - last + 1)
    return start, stop


class RefereeApi(Protocol):
    """The operations the ``referee`` command performs on a match, local or over HTTP. A match is
    named by its id or a unique prefix of 4+ characters; a seat of None is the caller's full view (the
    referee's locally; over HTTP, the token's)."""

    def match_info(self, match_id: str) -> MatchInfo:
        """The match's row: its full id, game, players, head."""
        ...

    def show(self, match_id: str, *, at: int | None = None, seat: str | None = None) -> StateAnswer:
        """The state after entry ``at`` (default: now) as ``seat`` sees it."""
        ...

    def log(self, match_id: str, *, seat: str | None = None, start: int = 1, stop: int | None = None,
            last: int | None = None) -> list[EntryView]:
        """Entries ``start..stop`` (default: every entry; ``last``: the last that many of the range; see
        :func:`log_span`), as ``seat`` sees them."""
        ...

    def log_stream(self, match_id: str, *, seat: str | None = None, start: int = 1, stop: int | None = None,
                   last: int | None = None) -> Iterator[EntryView]:
        """The same entries one at a time, read a page at a time (a long log streams). A bad match, seat
        or range is refused before the first entry."""
        ...

    def legal(self, match_id: str, seat: str | None = None, *, blind: bool = False) -> LegalAnswer:
        """The intents each seat (or ``seat``) could make now that would be accepted; ``blind``: as
        ``seat`` itself sees them (no chance outcome it cannot know; over HTTP a seat's token is)."""
        ...

    def replay(self, match_id: str, *, start: int = 1, stop: int | None = None,
               seat: str | None = None) -> list[ReplayStep]:
        """Entries ``start..stop`` with what each changed, as ``seat`` sees it."""
        ...

    def diff(self, a: str, b: str, *, at_a: int | None = None, at_b: int | None = None) -> DiffAnswer:
        """How two states differ, and where two lines of play part."""
        ...

    def audit_many(self, match_ids: Sequence[str], progress: Callable[[int, int], None] | None = None, *,
                   jobs: int = 1, accept_rules_change: bool = False) -> list[AuditAnswer]:
        """Each match's whole record checked (reports in the order given); ``progress(done, total)``
        counts entries where the checking is local."""
        ...

    def export(self, match_id: str, fmt: str, role: str) -> Iterable[str]:
        """The match in ``fmt`` (txt, md, html, json) as ``role`` (``arbiter``, a seat, ``spectator``)
        sees it, in pieces."""
        ...

    def submit(self, match_id: str, seat: str, text: str, *, expected_seq: int | None = None) -> SubmitResult:
        """Adjudicate one intent in notation for ``seat`` and append it, accepted or not."""
        ...

    def undo(self, match_id: str, *, by: str, to: int | None = None, reason: str = "",
             expected_seq: int | None = None) -> SubmitResult:
        ...

    def redo(self, match_id: str, *, by: str, undo: int | None = None, reason: str = "",
             expected_seq: int | None = None) -> SubmitResult:
        ...

    def rule_stands(self, match_id: str, entry: int, *, reason: str = "",
                    expected_seq: int | None = None) -> SubmitResult:
        """The arbiter's ruling that rejected entry ``entry`` stands as played."""
        ...

    def confirm(self, match_id: str, entry: int, *, by: str, accept: bool = True, reason: str = "",
                expected_seq: int | None = None) -> SubmitResult:
        """Confirm (or decline) the intent held at entry ``entry``."""
        ...

    def annotate(self, match_id: str, seq: int, text: str, *, kind: str = "comment", by: str = "",
                 audience: str = "all") -> Annotation:
        ...
