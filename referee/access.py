"""Seats, secrets and safe writes: the service operations of the HTTP front end, over a :class:`Referee`.

Three things the local CLI does not need and a tournament hall does:

* **Tokens.** Creating (or forking) a match mints one secret per seat, one for the arbiter and one
  for spectators (``secrets.token_urlsafe``). Only their sha256 hashes are stored. A token names a
  :class:`Principal`: a seat acts only as itself and sees only its own view; the arbiter may act for
  any seat (the entry's meta records ``by: arbiter``) and sees everything; a spectator only reads,
  and sees the public view.
* **Views for every role.** Every answer is what :mod:`referee.redaction` gives the role asking,
  through the same service calls as the CLI's, so a role gets the same answer over HTTP as locally.
* **Safe writes.** A write may name ``expected_seq`` (a stale writer gets a conflict with the current
  head, never a silent fork of the log) and an idempotency key (recorded in the same transaction as
  the entry it appended: a retried request is applied once and answered like the first time).

An :class:`Access` hands the idempotency key of each write to the :class:`Referee` call that appends
(recorded in the entry's own transaction). Each thread of a server uses its own ``Access`` over its own
``Referee`` (and, for SQLite, its own connection).
"""


from __future__ import annotations

from collections.abc import Iterator

import msgspec

from schemas import EntryView, MatchInfo
from schemas.http import (
    AuditAnswer,
    CreateMatch,
    DiffAnswer,
    Finding,
    GameInfo,
    LegalAnswer,
    LogPage,
    MatchAccess,
    MatchCreated,
    ReplayStep,
    StateAnswer,
)

from .auth import AuthCode, Forbidden, Principal, Unauthorized
from .engine.codes import CardsCode, InputCode, LegalCode, MatchCode, ReplayCode
from .errors import BadInput, NotFound, RefereeError
from .i18n import N_, speaking
from .safewrites import SafeWrites

LOG_PAGE_MAX = 1000
#: entries a live stream reads at a time from its backlog
EVENTS_PAGE = 500
#: entries one replay request answers
REPLAY_MAX = 1000


class Access(SafeWrites):
    """The HTTP service's operations. Every method takes the caller's :class:`Principal`, checks
    what that role may do, calls the :class:`Referee` and returns an answer already redacted for it:
    here the games, the matches and what a role may see; the writes are
    :class:`referee.safewrites.SafeWrites`', the tokens and roles :class:`referee.gate.Gate`'s."""

    # -- matches -------------------------------------------------------------------------------------

    def games(self) -> list[GameInfo]:
        return [self.referee.describe_game(g.id) for g in self.referee.games]

    def game(self, name: str) -> GameInfo:
        return self.referee.describe_game(name)

    def create_match(self, req: CreateMatch, previous: Principal | None = None) -> MatchCreated:
        """A new match and its tokens. One that continues a finished match (``req.continue_from``) needs
        that match's arbiter (``previous``: who the request's token speaks for there)."""
        if req.continue_from is not None:
            if previous is None:
                raise Unauthorized.said(AuthCode.MISSING, N_("continuing a match needs its arbiter token: send it as "
                                                             "'Authorization: Bearer <token>'"))
            self._require(previous, ("arbiter",), N_("may not continue this match"))
        game = self.referee.game(req.game)
        cards, cards_text = req.cards, req.cards_text
        if cards_text is None and cards is not None and cards not in game.card_sets:
            raise BadInput.said(CardsCode.NOT_BUNDLED, N_(
                "card set {cards!r} is not bundled with {game} ({known}); send a card file's text as cards_text")
                if game.card_sets else N_(
                "card set {cards!r} is not bundled with {game} (none); send a card file's text as cards_text"),
                cards=cards, game=game.id, known=", ".join(sorted(game.card_sets)))
        if cards_text is not None and cards is None:
            cards = "inline"
        try:
            info = self.referee.new_match(
                game.id, req.players, options=req.options, cards=cards, cards_text=cards_text, decks=req.decks,
                seed=req.seed, chance=req.chance, position=req.position, meta=req.meta, title=req.title,
                undo=req.undo, continue_from=previous.match_id if previous is not None else None,
            )
        except RefereeError:
            raise
        except (ValueError, TypeError, LookupError) as exc:
            # a position or card text the game cannot take: the game's own code said no
            raise BadInput.said(MatchCode.BAD_CONFIG, N_("{game} cannot set up this match: {problem}"), game=game.id,
                                problem=str(exc)) from None
        return MatchCreated(match=info, tokens=self._mint(info))

    def matches(self, *, limit: int | None = None, offset: int = 0) -> list[MatchInfo]:
        """Every match's row in creation order (read from the summaries), or the page of ``limit`` rows
        after the first ``offset``."""
        if (limit is not None and limit < 0) or offset < 0:
            raise BadInput.said(InputCode.BAD_PAGE, N_("limit and offset are counts of matches (0 or more), not {count}"),
                                count=limit if limit is not None and limit < 0 else offset)
        listed = self.referee.matches()
        return listed[offset:] if limit is None else listed[offset:offset + limit]

    def info(self, p: Principal) -> MatchAccess:
        stored = self.referee.resolve(p.match_id)
        return MatchAccess(match=self.referee.info(stored), role=p.role, seat=p.seat)  # type: ignore[arg-type]

    # -- what a role may see (decided by referee.redaction, through the service) -------------------------

    def state(self, p: Principal, *, at: int | None = None, as_: str | None = None) -> StateAnswer:
        loaded = self._load(p.match_id)
        view = self._view_of(loaded, p, as_)
        with speaking("en"):  # a JSON answer: its boards' titles in English, whatever the server's language
            return self.referee.show(loaded.match.id, at=at, seat=self._seat(view))

    def log(self, p: Principal, *, offset: int = 0, limit: int = 100, as_: str | None = None) -> LogPage:
        """A page of the log: entries ``offset + 1 .. offset + limit``, read and redacted alone (no state is
        folded; see :meth:`Referee.log_stream`)."""
        loaded = self._load(p.match_id)
        view = self._view_of(loaded, p, as_)
        limit = max(1, min(limit, LOG_PAGE_MAX))
        return self.referee.log_page(loaded.match.id, seat=self._seat(view), offset=offset, limit=limit)

    def entries_after(self, p: Principal, after: int, *, as_: str | None = None,
                      limit: int = EVENTS_PAGE) -> tuple[int, list[EntryView]]:
        """(head, up to ``limit`` entries after seq ``after``) as the caller sees them: what a live stream
        sends next (a long backlog a page at a time)."""
        loaded = self._load(p.match_id)
        view = self._view_of(loaded, p, as_)
        head = self.store.head(loaded.match.id)
        if head <= after:
            return head, []
        return head, self.referee.log(loaded.match.id, seat=self._seat(view), start=after + 1, stop=after + limit)

    def head(self, p: Principal) -> int:
        return int(self.store.head(p.match_id))

    def replay(self, p: Principal, *, start: int = 1, stop: int | None = None, as_: str | None = None) -> list[ReplayStep]:
        """Entries ``start..stop`` with what each changed, at most :data:`REPLAY_MAX` a request (without
        ``stop``: the page of that many from ``start``)."""
        loaded = self._load(p.match_id)
        view = self._view_of(loaded, p, as_)
        if stop is None:
            stop = min(self.store.head(loaded.match.id), start + REPLAY_MAX - 1)
        elif stop - start + 1 > REPLAY_MAX:
            raise BadInput.said(ReplayCode.TOO_MANY, N_("a replay answers at most {most} entries a request; ask for "
                                                        "from={start}&to={stop}, then the next page"),
                                most=REPLAY_MAX, start=start, stop=start + REPLAY_MAX - 1)
        with speaking("en"):  # a JSON answer: its words in English, whatever the server's language
            return self.referee.replay(loaded.match.id, start=start, stop=stop, seat=self._seat(view))

    def audit(self, p: Principal, *, accept_rules_change: bool = False) -> AuditAnswer:
        report = self.referee.audit(p.match_id, accept_rules_change=accept_rules_change)
        if p.role == "arbiter":
            return report
        # the recorded and derived values and the hashes cover hidden cards and private annotations
        # (whose count is left out too): the arbiter's answer only
        return msgspec.structs.replace(
            report, findings=[Finding(seq=f.seq, what=f.what) for f in report.findings],
            head_hash="", entries_hash="", annotations=0, annotations_hash="",
        )

    def diff(self, p: Principal, other: str, *, at: int | None = None, other_at: int | str | None = None) -> DiffAnswer:
        """How this match's state differs from ``other``'s: the arbiter's, against this match itself or
        one of its forks (the tokens of this match do not open unrelated matches). ``other_at`` may name an
        entry of the other match by its transcript line (``line:N``)."""
        self._require(p, ("arbiter",), N_("may not diff full states"))
        # ``other`` is looked up among this match and its forks only: a prefix of some unrelated
        # match's id gets the same answer as a prefix of nothing (no full id, no count, no 403)
        family = self._family(p.match_id)
        found = [mid for mid in family if mid == other] or (
            [mid for mid in family if mid.startswith(other)] if len(other) >= 4 else [])
        if len(found) != 1:
            raise NotFound.said(MatchCode.UNKNOWN, N_(
                "{other!r} is ambiguous among this match and its forks; give more of a fork's id") if len(found) > 1
                else N_("{other!r} names neither this match and its forks; give more of a fork's id"), other=other)
        if isinstance(other_at, str):
            from . import entryref

            other_at = entryref.resolve(self.referee, found[0], other_at, "other_at")
        return self.referee.diff(p.match_id, found[0], at_a=at, at_b=other_at)

    def _family(self, match_id: str) -> list[str]:
        """This match's id and the ids of its forks, their forks and so on."""
        children: dict[str | None, list[str]] = {}
        for m in self.store.list_matches():
            children.setdefault(m.parent, []).append(m.id)
        out, todo = [], [match_id]
        while todo:
            mid = todo.pop()
            out.append(mid)
            todo.extend(children.get(mid, []))
        return out

    def legal(self, p: Principal, seat: str | None = None) -> LegalAnswer:
        """Intents each seat could make now that would be accepted (hints; the benchmark's random play).
        A seat is shown the chance outcomes in them as ``?`` (a physical match's examples come from what
        only the referee knows) and a digital match's not at all (the referee draws them)."""
        self._require(p, ("arbiter", "seat", "actor"), N_("may not ask for legal intents"))
        loaded = self._load(p.match_id)
        if p.role in ("seat", "actor"):
            if seat is not None and seat != p.seat:
                raise Forbidden.said(AuthCode.OTHER_SEAT, N_("{own}'s token cannot ask for {seat}'s intents"),
                                     own=p.seat, seat=seat)
            seat = p.seat
        try:
            return self.referee.legal(p.match_id, seat, blind=p.role != "arbiter")
        except NotImplementedError:
            raise BadInput.said(LegalCode.NOT_ENUMERABLE, N_("{game} cannot list its legal intents here"),
                                game=loaded.game.name) from None

    def export(self, p: Principal, fmt: str, *, as_: str | None = None) -> str:
        return "".join(self.export_chunks(p, fmt, as_=as_))

    def export_chunks(self, p: Principal, fmt: str, *, as_: str | None = None) -> Iterator[str]:
        """The export as the caller may see it, a piece at a time (see :func:`referee.export.export_chunks`)."""
        from .export import export_chunks

        loaded = self._load(p.match_id)
        view = self._view_of(loaded, p, as_)
        return export_chunks(self.referee, loaded.match.id, fmt, view)
