"""The CLI as a client of a referee server (``referee --server URL --token T play|show|log ...``).

:class:`RemoteReferee` implements :class:`referee.api.RefereeApi`, the protocol the local
:class:`referee.service.Referee` implements too, by calling the HTTP service and decoding its answers
into the same Structs, so a table's laptop needs no local database and the commands render exactly
as they do locally. The token decides who acts and what is seen: a seat's token plays as that seat
and sees that seat's view; the arbiter's may play for any seat.

The transport is the standard library's (urllib) and the decoding msgspec's: client mode starts as
fast as local mode. HTTP errors become the same :mod:`referee.errors` exceptions (and so the same
exit codes) as local errors. A write carries an ``Idempotency-Key``, so a request retried after a
dropped connection is applied once.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from referee.api import SubmitResult, log_span
from referee.engine.protocol import Accepted, Held, Rejected
from referee.engine.speech import Said
from referee.errors import BadInput, ConflictError, NotFound, RefereeError, StorageError
from referee.i18n import N_
from schemas import Annotation, EntryView, ErrorBody, MatchInfo
from schemas.http import (
    AuditAnswer,
    ConfirmRequest,
    DiffAnswer,
    LegalAnswer,
    LogPage,
    MatchAccess,
    MatchCreated,
    RedoRequest,
    ReplayStep,
    RulingRequest,
    StateAnswer,
    SubmitAnswer,
    SubmitIntent,
    UndoRequest,
)
from referee.httpcodes import HttpCode
from cli.codes import ClientCode

_BY_STATUS: dict[int, type[RefereeError]] = {404: NotFound, 409: ConflictError, 503: StorageError}
RETRIES = 3
#: entries asked for a page at a time when the whole log is read
LOG_PAGE = 1000

T = TypeVar("T")


class RemoteReferee:
    """A referee server, answering the CLI as the local service does (:class:`referee.api.RefereeApi`)."""

    def __init__(self, server: str, token: str | None, *, timeout: float = 30.0, need_token: bool = True) -> None:
        if not server.startswith(("http://", "https://")):
            raise BadInput.said(ClientCode.BAD_SERVER, N_("--server must be an http:// or https:// URL, not {server!r}"), server=server)
        if not token and need_token:
            raise BadInput.said(ClientCode.NO_TOKEN, N_("client mode needs a token: --token T or REFEREE_TOKEN (given when the match was created)"))
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout

    # -- transport -------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, *, query: Mapping[str, Any] | None = None,
             headers: Mapping[str, str] | None = None, retry: bool = False) -> bytes:
        """One request; the answer's body, or a :class:`RefereeError` for an error answer. With
        ``retry`` (idempotent requests only), a dropped connection is retried."""
        q = {k: ("true" if v is True else "false" if v is False else v) for k, v in (query or {}).items() if v is not None}
        url = self.server + path + ("?" + urllib.parse.urlencode(q) if q else "")
        data = None if body is None else msgspec.json.encode(body)
        hdrs = {"Authorization": f"Bearer {self.token}", "Accept": "application/json", **(headers or {})}
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        attempts = RETRIES if retry else 1
        for attempt in range(attempts):
            request = urllib.request.Request(url, data=data, method=method, headers=hdrs)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                    content: bytes = answer.read()
                    return content
            except urllib.error.HTTPError as exc:
                raise _error(exc) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if attempt + 1 < attempts:
                    time.sleep(0.2 * (attempt + 1))
                    continue
                reason = getattr(exc, "reason", exc)
                raise StorageError.said(ClientCode.UNREACHABLE, N_("cannot reach the referee server at {server}: {reason}"),
                                   server=self.server, reason=reason) from None
        raise AssertionError("unreachable")

    def get(self, path: str, answer: type[T], query: Mapping[str, Any] | None = None) -> T:
        """``GET path`` decoded as ``answer``."""
        return decode(self.call("GET", path, query=query), answer)

    def write(self, path: str, body: Any) -> SubmitResult:
        """``POST path`` of a write that appends an entry, with an idempotency key (so it is retried)."""
        content = self.call("POST", path, body, headers={"Idempotency-Key": str(uuid.uuid4())}, retry=True)
        return _result(decode(content, SubmitAnswer))

    def _match(self, match_id: str) -> str:
        return "/matches/" + urllib.parse.quote(match_id, safe="")

    # -- referee.api.RefereeApi ------------------------------------------------------------------------

    def match_info(self, match_id: str) -> MatchInfo:
        return self.get(self._match(match_id), MatchAccess).match

    def show(self, match_id: str, *, at: int | None = None, seat: str | None = None) -> StateAnswer:
        return self.get(self._match(match_id) + "/state", StateAnswer, {"at": at, "as": seat})

    def log(self, match_id: str, *, seat: str | None = None, start: int = 1, stop: int | None = None,
            last: int | None = None) -> list[EntryView]:
        return list(self.log_stream(match_id, seat=seat, start=start, stop=stop, last=last))

    def log_stream(self, match_id: str, *, seat: str | None = None, start: int = 1, stop: int | None = None,
                   last: int | None = None) -> Iterator[EntryView]:
        """The server's log pages (``GET .../log?offset&limit``) for entries ``start..stop``: the span is
        checked here first (with the head from the match's row when ``last`` needs it), then each page
        is asked for as the one before has been shown."""
        head = self.match_info(match_id).head if last is not None else None
        first, final = log_span(head if head is not None else 2**62, start, stop, last)
        return self._pages(match_id, seat, first, final)

    def _pages(self, match_id: str, seat: str | None, first: int, final: int) -> Iterator[EntryView]:
        offset = first - 1
        while offset < final:
            page = self.get(self._match(match_id) + "/log", LogPage,
                            {"offset": offset, "limit": min(LOG_PAGE, final - offset), "as": seat})
            for entry in page.entries:
                if entry.seq > final:
                    return
                yield entry
            offset += len(page.entries)
            if not page.entries or offset >= page.total:
                return

    def legal(self, match_id: str, seat: str | None = None, *, blind: bool = False) -> LegalAnswer:
        # the server answers a seat's token as that seat sees it, whatever ``blind`` says
        return self.get(self._match(match_id) + "/legal", LegalAnswer, {"seat": seat})

    def replay(self, match_id: str, *, start: int = 1, stop: int | None = None,
               seat: str | None = None) -> list[ReplayStep]:
        return self.get(self._match(match_id) + "/replay", list[ReplayStep], {"from": start, "to": stop, "as": seat})

    def diff(self, a: str, b: str, *, at_a: int | None = None, at_b: int | None = None) -> DiffAnswer:
        return self.get(self._match(a) + "/diff", DiffAnswer, {"other": b, "at": at_a, "other_at": at_b})

    def audit(self, match_id: str, *, accept_rules_change: bool = False) -> AuditAnswer:
        query = {"accept_rules_change": True} if accept_rules_change else None
        return self.get(self._match(match_id) + "/audit", AuditAnswer, query)

    def audit_many(self, match_ids: Sequence[str], progress: Callable[[int, int], None] | None = None, *,
                   jobs: int = 1, accept_rules_change: bool = False) -> list[AuditAnswer]:
        """The server audits (one match per request, in that order; no progress is reported)."""
        return [self.audit(mid, accept_rules_change=accept_rules_change) for mid in match_ids]

    def export(self, match_id: str, fmt: str, role: str) -> list[str]:
        """An export as the token's role sees it (``role`` lets the arbiter see as a seat)."""
        query = {"format": fmt, "as": None if role == "arbiter" else role}
        return [self.call("GET", self._match(match_id) + "/export", query=query).decode("utf-8")]

    def submit(self, match_id: str, seat: str, text: str, *, expected_seq: int | None = None) -> SubmitResult:
        return self.write(self._match(match_id) + "/intents", SubmitIntent(intent=text, seat=seat, expected_seq=expected_seq))

    def undo(self, match_id: str, *, by: str = "", to: int | None = None, reason: str = "",
             expected_seq: int | None = None) -> SubmitResult:
        """``by`` is the token's: the server records who undoes from it."""
        return self.write(self._match(match_id) + "/undo", UndoRequest(to=to, reason=reason, expected_seq=expected_seq))

    def redo(self, match_id: str, *, by: str = "", undo: int | None = None, reason: str = "",
             expected_seq: int | None = None) -> SubmitResult:
        return self.write(self._match(match_id) + "/redo",
                          RedoRequest(undo=undo, reason=reason, expected_seq=expected_seq))

    def rule_stands(self, match_id: str, entry: int, *, reason: str = "",
                    expected_seq: int | None = None) -> SubmitResult:
        return self.write(self._match(match_id) + "/rulings",
                          RulingRequest(entry=entry, reason=reason, expected_seq=expected_seq))

    def confirm(self, match_id: str, entry: int, *, by: str = "", accept: bool = True, reason: str = "",
                expected_seq: int | None = None) -> SubmitResult:
        return self.write(self._match(match_id) + "/confirmations",
                          ConfirmRequest(entry=entry, accept=accept, reason=reason, expected_seq=expected_seq))

    def annotate(self, match_id: str, seq: int, text: str, *, kind: str = "comment", by: str = "",
                 audience: str = "all") -> Annotation:
        """``by`` is the token's: the server records who annotates from it."""
        body = {"seq": seq, "text": text, "kind": kind, "audience": audience}
        return decode(self.call("POST", self._match(match_id) + "/annotations", body), Annotation)

    # -- client mode only ------------------------------------------------------------------------------

    def create_match(self, body: Mapping[str, Any]) -> MatchCreated:
        """POST /matches (a :class:`schemas.http.CreateMatch`, checked by the server): the new match and
        its tokens (shown once). Values left empty are left out."""
        return decode(self.call("POST", "/matches", {k: v for k, v in body.items() if v not in (None, {}, "")}),
                       MatchCreated)


def decode(content: bytes, answer: type[T]) -> T:
    try:
        return msgspec.json.decode(content, type=answer)
    except msgspec.DecodeError as exc:  # a server of another version, or not a referee at all
        raise StorageError.said(ClientCode.BAD_ANSWER, N_("the referee server's answer cannot be read: {problem}"),
                                   problem=str(exc)) from None


def _error(exc: urllib.error.HTTPError) -> RefereeError:
    try:
        body = msgspec.json.decode(exc.read() or b"{}", type=ErrorBody)
    except msgspec.DecodeError:
        body = ErrorBody(code="", message="")
    code = body.code or f"http/{exc.code}"
    message = body.message or f"the server answered {exc.code} {exc.reason}"
    said = _said(body)
    if exc.code >= 500 and exc.code != 503:
        err = StorageError.said(code, N_("the referee server failed ({status}): {message}"), status=exc.code,
                                message=message if said is None else Said(said[0], **said[1]))
        err.detail = body.detail or {}
        return err
    refused = _BY_STATUS.get(exc.code, BadInput)(code, message, body.detail)
    refused.template = said
    return refused


def _said(body: ErrorBody) -> tuple[str, dict[str, Any]] | None:
    """What the server said the refusal's message through (``said``), kept so that the message reads in the
    reader's language (as a local refusal does); None when there is none or it cannot be read back safely
    (the message then reads as the server gave it)."""
    if isinstance(body.said, msgspec.UnsetType) or not body.message:
        return None
    from referee.errorsaid import kept

    return kept(body.said.template, body.said.values, body.message)


def _result(answer: SubmitAnswer) -> SubmitResult:
    """The entry a write appended, as the local service reports it."""
    verdict: Accepted[Any] | Rejected | Held
    if answer.verdict == "held":
        verdict = Held(confirmer=answer.confirmer)
    elif answer.verdict == "rejected":
        r = answer.rejection
        verdict = Rejected(r.code, r.message, r.rule) if r is not None else Rejected(HttpCode.NO_REASON, "the server gave no reason")
    else:
        verdict = Accepted(tuple(answer.events))
    return SubmitResult(
        match_id=answer.match_id, seq=answer.seq, actor=answer.actor or answer.by, notation=answer.intent, intent=None,
        verdict=verdict, state_hash=answer.state_hash, outcome=answer.outcome, events=list(answer.events),
        words=list(answer.words),
        rule_english=answer.rejection.rule_english if answer.rejection is not None else "",
    )
