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

import hmac
import secrets
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from schemas import ARBITER, SPECTATOR, Annotation, EntryView, MatchInfo, Outcome
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
    SubmitAnswer,
    Tokens,
)

from .engine import core, notation
from .engine.codes import CardsCode, InputCode, IntentCode, LegalCode, LogCode, MatchCode, ReplayCode, StoreCode
from .errors import BadInput, ConflictError, NotFound, RefereeError, StorageError
from .inputs import check_depth
from .memo import HeadMemo
from .redaction import View
from .config import Loaded
from .api import SubmitResult
from .auth import AuthCode, Forbidden, Principal, Unauthorized, bearer, hash_token
from .service import CONFLICT_RETRIES, Referee
from .store import AccessTokens, MatchLog, StoredEntry, StoredRequest, StoredToken, StoreError
from .httpcodes import RequestCode
from .i18n import speaking

if TYPE_CHECKING:
    from .amend import Amendment

LOG_PAGE_MAX = 1000
#: entries a live stream reads at a time from its backlog
EVENTS_PAGE = 500
#: entries one replay request answers
REPLAY_MAX = 1000


class AccessRecords(MatchLog, AccessTokens, Protocol):
    """What the access layer reads and writes itself: match heads, listings and idempotency keys (the
    match log) and the matches' tokens; everything else goes through the :class:`Referee`."""


# -- views ----------------------------------------------------------------------------------------------


class Access:
    """The HTTP service's operations. Every method takes the caller's :class:`Principal`, checks
    what that role may do, calls the :class:`Referee` and returns an answer already redacted for it."""

    def __init__(
        self,
        referee: Referee,
        *,
        tokens: dict[str, StoredToken] | None = None,
        on_append: Callable[[str], None] | None = None,
        memo: HeadMemo | None = None,
    ) -> None:
        self.referee = referee
        #: the latest seat pages computed, by match and seat (:mod:`referee.memo`; a server's threads share one)
        self.memo = memo if memo is not None else HeadMemo()
        self.store: AccessRecords = referee.store
        self._tokens = tokens if tokens is not None else {}
        self._on_append = on_append
        self._loaded: dict[str, Loaded] = {}

    def _load(self, match_id: str) -> Loaded:
        """The match bound to its rules. A principal's match id is a full id (from its token) and a
        match row never changes, so the binding is kept (the referee's own load asks the store first)."""
        loaded = self._loaded.get(match_id)
        if loaded is None:
            loaded = self.referee.load(match_id)
            if len(self._loaded) > 256:
                self._loaded.clear()
            self._loaded[loaded.match.id] = loaded
        return loaded

    # -- tokens ----------------------------------------------------------------------------------

    def _mint(self, info: MatchInfo) -> Tokens:
        """One token a seat, the arbiter's, the spectators' and one for each actor the game declares besides
        the seats and the arbiter (an actor named ``arbiter`` is the arbiter's token's)."""
        seats = {seat: secrets.token_urlsafe(24) for seat in info.players}
        others = self.referee.game(info.game).capabilities.other_actors
        actors = {a: secrets.token_urlsafe(24) for a in others if a != ARBITER and a not in seats}
        arbiter, spectator = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        rows = [StoredToken(token_hash=hash_token(t), match_id=info.id, role="seat", seat=s) for s, t in seats.items()]
        rows.append(StoredToken(token_hash=hash_token(arbiter), match_id=info.id, role="arbiter"))
        rows.append(StoredToken(token_hash=hash_token(spectator), match_id=info.id, role="spectator"))
        rows += [StoredToken(token_hash=hash_token(t), match_id=info.id, role="actor", seat=a) for a, t in actors.items()]
        try:
            self.store.add_tokens(rows)
        except StoreError as exc:
            raise StorageError(StoreCode.FAILED, f"could not record the match's tokens: {exc}") from None
        return Tokens(seats=seats, arbiter=arbiter, spectator=spectator, actors=actors)

    def authenticate(self, authorization: str | None, match_id: str) -> Principal:
        """The principal of an ``Authorization: Bearer <token>`` header for match ``match_id`` (its
        full id, or a prefix of 4+ characters of it)."""
        token = bearer(authorization, "send the match's token as 'Authorization: Bearer <token>' "
                              "(tokens are given when the match is created)")
        digest = hash_token(token)
        row = self._tokens.get(digest)
        if row is None:
            row = self.store.find_token(digest)
            if row is None:
                raise Unauthorized(AuthCode.UNKNOWN_TOKEN, "this token is not a token of any match on this server")
            if len(self._tokens) > 100_000:
                self._tokens.clear()
            self._tokens[digest] = row
        if match_id != row.match_id and not (len(match_id) >= 4 and row.match_id.startswith(match_id)):
            raise Forbidden(AuthCode.OTHER_MATCH, "this token belongs to another match")
        return Principal(match_id=row.match_id, role=row.role, seat=row.seat)

    @staticmethod
    def _require(p: Principal, roles: tuple[str, ...], what: str) -> None:
        if p.role not in roles:
            who = {"spectator": "a spectator", "seat": "a seat", "actor": f"the {p.seat}"}.get(p.role, "the arbiter")
            raise Forbidden(AuthCode.FORBIDDEN, f"{who} may not {what} (allowed: {', '.join(roles)})")

    def _view_of(self, loaded: Loaded, p: Principal, as_: str | None) -> str:
        """The view a caller asks for (``as``): the arbiter may look as anyone; a seat as itself or as a
        spectator; a spectator as a spectator."""
        own = p.view
        if as_ is None or as_ == own:
            return own
        if p.role == "arbiter" or as_ == SPECTATOR:
            if as_ != ARBITER:
                self.referee.role(loaded, as_)  # an unknown seat is bad input
            return as_
        raise Forbidden(AuthCode.OTHER_VIEW, f"{own} may see only its own view (or the spectators'), not {as_}'s")

    def entry(self, p: Principal, ref: int | str, what: str) -> int:
        """The entry ``ref`` names in the caller's match: a number as it is, ``line:N`` the entry read from line N
        of the imported transcript, looked up in the log the caller sees (:func:`referee.entryref.resolve`: a
        line that produced no entry is refused naming the nearest that did)."""
        if isinstance(ref, int):
            return ref
        if ref.isdigit():
            return int(ref)
        from . import entryref

        loaded = self._load(p.match_id)
        return entryref.resolve(self.referee, loaded.match.id, ref, what, seat=self._seat(p.view))

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
                raise Unauthorized(AuthCode.MISSING, "continuing a match needs its arbiter token: send it as "
                                   "'Authorization: Bearer <token>'")
            self._require(previous, ("arbiter",), "continue this match")
        game = self.referee.game(req.game)
        cards, cards_text = req.cards, req.cards_text
        if cards_text is None and cards is not None and cards not in game.card_sets:
            known = ", ".join(sorted(game.card_sets)) or "none"
            raise BadInput(
                CardsCode.NOT_BUNDLED,
                f"card set {cards!r} is not bundled with {game.id} ({known}); send a card file's text as cards_text",
            )
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
            raise BadInput(MatchCode.BAD_CONFIG, f"{game.id} cannot set up this match: {exc}") from None
        return MatchCreated(match=info, tokens=self._mint(info))

    def matches(self, *, limit: int | None = None, offset: int = 0) -> list[MatchInfo]:
        """Every match's row in creation order (read from the summaries), or the page of ``limit`` rows
        after the first ``offset``."""
        if (limit is not None and limit < 0) or offset < 0:
            raise BadInput(InputCode.BAD_PAGE, f"limit and offset are counts of matches (0 or more), not "
                           f"{limit if limit is not None and limit < 0 else offset}")
        listed = self.referee.matches()
        return listed[offset:] if limit is None else listed[offset:offset + limit]

    def info(self, p: Principal) -> MatchAccess:
        stored = self.referee.resolve(p.match_id)
        return MatchAccess(match=self.referee.info(stored), role=p.role, seat=p.seat)  # type: ignore[arg-type]

    # -- what a role may see (decided by referee.redaction, through the service) -------------------------

    @staticmethod
    def _seat(view: str) -> str | None:
        """The service's name for a view: None for the arbiter's full view."""
        return None if view == ARBITER else view

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
            raise BadInput(ReplayCode.TOO_MANY, f"a replay answers at most {REPLAY_MAX} entries a request; "
                           f"ask for from={start}&to={start + REPLAY_MAX - 1}, then the next page")
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
        self._require(p, ("arbiter",), "diff full states")
        # ``other`` is looked up among this match and its forks only: a prefix of some unrelated
        # match's id gets the same answer as a prefix of nothing (no full id, no count, no 403)
        family = self._family(p.match_id)
        found = [mid for mid in family if mid == other] or (
            [mid for mid in family if mid.startswith(other)] if len(other) >= 4 else [])
        if len(found) != 1:
            why = "is ambiguous among" if len(found) > 1 else "names neither"
            raise NotFound(MatchCode.UNKNOWN, f"{other!r} {why} this match and its forks; give more of a fork's id")
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
        self._require(p, ("arbiter", "seat", "actor"), "ask for legal intents")
        loaded = self._load(p.match_id)
        if p.role in ("seat", "actor"):
            if seat is not None and seat != p.seat:
                raise Forbidden(AuthCode.OTHER_SEAT, f"{p.seat}'s token cannot ask for {seat}'s intents")
            seat = p.seat
        try:
            return self.referee.legal(p.match_id, seat, blind=p.role != "arbiter")
        except NotImplementedError:
            raise BadInput(LegalCode.NOT_ENUMERABLE, f"{loaded.game.name} cannot list its legal intents here") from None

    def export(self, p: Principal, fmt: str, *, as_: str | None = None) -> str:
        return "".join(self.export_chunks(p, fmt, as_=as_))

    def export_chunks(self, p: Principal, fmt: str, *, as_: str | None = None) -> Iterator[str]:
        """The export as the caller may see it, a piece at a time (see :func:`referee.export.export_chunks`)."""
        from .export import export_chunks

        loaded = self._load(p.match_id)
        view = self._view_of(loaded, p, as_)
        return export_chunks(self.referee, loaded.match.id, fmt, view)

    # -- writes -----------------------------------------------------------------------------------------

    def submit(self, p: Principal, intent: str | Mapping[str, Any], *, seat: str | None = None,
               expected_seq: int | None = None, key: str | None = None) -> tuple[SubmitAnswer, bool]:
        """Adjudicate one intent for ``seat`` (default: the caller's). Returns (answer, replayed):
        ``replayed`` is True when ``key`` named a request already applied (nothing new was written)."""
        self._require(p, ("seat", "arbiter", "actor"), "submit intents")
        loaded = self._load(p.match_id)
        if p.role in ("seat", "actor"):
            if seat is not None and seat != p.seat:
                raise Forbidden(AuthCode.OTHER_SEAT, f"{p.seat}'s token cannot act for {seat}")
            seat = p.seat
        elif seat is None:
            raise BadInput(IntentCode.SEAT_REQUIRED, "the arbiter acts for a seat (or another actor of the game): name it in 'seat'")
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
            raise BadInput(InputCode.INVALID, f"not an intent of {loaded.game.id}: {exc} (verbs: {verbs})") from None
        return notation.format_intent(intent)

    def undo(self, p: Principal, *, to: int | str | None = None, reason: str = "", expected_seq: int | None = None,
             key: str | None = None) -> tuple[SubmitAnswer, bool]:
        self._require(p, ("seat", "arbiter"), "undo")
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
        self._require(p, ("seat", "arbiter"), "redo")
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
        self._require(p, ("arbiter",), "rule on an entry")
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
        self._require(p, ("arbiter",), "amend a line")
        from .amend import amend

        loaded = self._load(p.match_id)
        done = amend(self.referee, loaded.match.id, line, text, reason=reason, by=by, expected_seq=expected_seq)
        if self._on_append is not None:
            self._on_append(loaded.match.id)
        return done

    def confirm(self, p: Principal, ref: int | str, *, accept: bool = True, reason: str = "",
                expected_seq: int | None = None, key: str | None = None) -> tuple[SubmitAnswer, bool]:
        """The answer to an entry held for a confirmation: by the seat it waits for, or the arbiter."""
        self._require(p, ("seat", "arbiter"), "confirm")
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
        self._require(p, ("seat", "arbiter"), "annotate")
        if kind == "ruling":
            self._require(p, ("arbiter",), "write a ruling")
        if p.role == "seat" and audience not in ("all", p.seat):
            raise Forbidden(AuthCode.FORBIDDEN, f"{p.seat} may write for all or for {p.seat}, not for {audience}")
        return self.referee.annotate(p.match_id, self.entry(p, ref, "seq"), text, kind=kind, by=p.name, audience=audience)

    def fork(self, p: Principal, *, at: int | str, name: str = "") -> MatchCreated:
        self._require(p, ("arbiter",), "fork the match")
        info = self.referee.fork(p.match_id, at=self.entry(p, at, "at"), name=name)
        return MatchCreated(match=info, tokens=self._mint(info))

    def _write(self, p: Principal, loaded: Loaded, key: str | None, op: dict[str, Any], retry: bool, kind: str,
               call: Callable[[StoredRequest | None], SubmitResult]) -> tuple[SubmitAnswer, bool]:
        """Run one appending call, handing it the idempotency key to record in the entry's own transaction;
        without ``expected_seq``, re-adjudicated against the new head if another writer got in first."""
        mid = loaded.match.id
        fingerprint = core.sha256_hex(core.canonical(op))
        if key is not None and (not 1 <= len(key) <= 200 or not key.isprintable()):
            raise BadInput(RequestCode.BAD_KEY, "an Idempotency-Key is 1 to 200 printable characters (e.g. a UUID)")
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
            raise BadInput(
                RequestCode.KEY_REUSED,
                f"Idempotency-Key was already used for a different request (entry {found.seq}); use a new key",
                {"seq": found.seq},
            )
        entry = self.referee.entry_at(loaded.match, found.seq)
        if entry is None:
            raise StorageError(LogCode.CORRUPT, f"entry {found.seq} of match {loaded.match.id} is missing; run an audit")
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
            raise StorageError(LogCode.CORRUPT, f"entry {seq} of match {loaded.match.id} is missing; run an audit")
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
