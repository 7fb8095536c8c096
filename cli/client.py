"""The CLI as a client of a referee server (``referee --server URL --token T play|show|log ...``).

:class:`RemoteReferee` answers the :class:`referee.service.Referee` methods the CLI commands call —
``submit``, ``state``, ``log``, ``resolve``, ``undo``, ``redo``, ``annotate``, ``audit``, ``replay``,
``diff`` — by calling the HTTP service, so a table's laptop needs no local database and the commands
render exactly as they do locally. The token decides who acts and what is seen: a seat's token plays
as that seat and sees that seat's view; the arbiter's may play for any seat.

Only the standard library is used (urllib): client mode starts as fast as local mode. HTTP errors
become the same :mod:`referee.errors` exceptions (and so the same exit codes) as local errors. A
submission carries an ``Idempotency-Key``, so a request retried after a dropped connection is
applied once.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from referee.errors import BadInput, ConflictError, NotFound, RefereeError, StorageError
from schemas.http import AuditAnswer, DiffAnswer, LegalAnswer, ReplayStep, StateAnswer

_BY_STATUS: dict[int, type[RefereeError]] = {404: NotFound, 409: ConflictError, 503: StorageError}
RETRIES = 3


class RemoteReferee:
    """The parts of the service the CLI needs, over HTTP."""

    def __init__(self, server: str, token: str | None, *, timeout: float = 30.0, need_token: bool = True) -> None:
        if not server.startswith(("http://", "https://")):
            raise BadInput("client/bad_server", f"--server must be an http:// or https:// URL, not {server!r}")
        if not token and need_token:
            raise BadInput("client/no_token", "client mode needs a token: --token T or REFEREE_TOKEN (given when the match was created)")
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout

    # -- transport -------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, *, query: dict[str, Any] | None = None,
             headers: dict[str, str] | None = None, retry: bool = False, raw: bool = False) -> Any:
        """One request; the decoded JSON answer, or a :class:`RefereeError` for an error answer.
        With ``retry`` (idempotent requests only), a dropped connection is retried."""
        q = {k: ("true" if v is True else "false" if v is False else v) for k, v in (query or {}).items() if v is not None}
        url = self.server + path + ("?" + urllib.parse.urlencode(q) if q else "")
        data = None if body is None else json.dumps(body).encode()
        hdrs = {"Authorization": f"Bearer {self.token}", "Accept": "application/json", **(headers or {})}
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        attempts = RETRIES if retry else 1
        for attempt in range(attempts):
            request = urllib.request.Request(url, data=data, method=method, headers=hdrs)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                    content = answer.read()
                    if raw:
                        return content.decode("utf-8")
                    return json.loads(content) if content else None
            except urllib.error.HTTPError as exc:
                raise _error(exc) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if attempt + 1 < attempts:
                    time.sleep(0.2 * (attempt + 1))
                    continue
                reason = getattr(exc, "reason", exc)
                raise StorageError("client/unreachable", f"cannot reach the referee server at {self.server}: {reason}") from None
        raise AssertionError("unreachable")

    def _match(self, match_id: str) -> str:
        return "/matches/" + urllib.parse.quote(match_id, safe="")

    # -- what the CLI commands call ----------------------------------------------------------------

    def resolve(self, match_id: str) -> Any:
        from schemas import MatchInfo
        import msgspec

        return msgspec.convert(self.call("GET", self._match(match_id))["match"], MatchInfo)

    def submit(self, match_id: str, seat: str, text: str, *, expected_seq: int | None = None,
               meta: Any = None) -> Any:
        body = {"intent": text, "seat": seat, "expected_seq": expected_seq}
        answer = self.call("POST", self._match(match_id) + "/intents", body,
                           headers={"Idempotency-Key": str(uuid.uuid4())}, retry=True)
        return _result(answer)

    def show(self, match_id: str, *, at: int | None = None, seat: str | None = None) -> StateAnswer:
        return msgspec.convert(self.call("GET", self._match(match_id) + "/state", query={"at": at, "as": seat}),
                               StateAnswer)

    def log(self, match_id: str, *, seat: str | None = None) -> list[Any]:
        import msgspec

        from schemas import EntryView

        out: list[Any] = []
        offset = 0
        while True:
            page = self.call("GET", self._match(match_id) + "/log", query={"offset": offset, "limit": 1000, "as": seat})
            out.extend(msgspec.convert(page["entries"], list[EntryView]))
            offset += len(page["entries"])
            if not page["entries"] or offset >= page["total"]:
                return out

    def undo(self, match_id: str, *, by: str = "", to: int | None = None, reason: str = "",
             expected_seq: int | None = None) -> Any:
        body = {"to": to, "reason": reason, "expected_seq": expected_seq}
        return _result(self.call("POST", self._match(match_id) + "/undo", body,
                                 headers={"Idempotency-Key": str(uuid.uuid4())}, retry=True))

    def redo(self, match_id: str, *, by: str = "", undo: int | None = None, reason: str = "",
             expected_seq: int | None = None) -> Any:
        body = {"undo": undo, "reason": reason, "expected_seq": expected_seq}
        return _result(self.call("POST", self._match(match_id) + "/redo", body,
                                 headers={"Idempotency-Key": str(uuid.uuid4())}, retry=True))

    def confirm(self, match_id: str, entry: int, *, by: str = "", accept: bool = True, reason: str = "",
                expected_seq: int | None = None) -> Any:
        body = {"entry": entry, "accept": accept, "reason": reason, "expected_seq": expected_seq}
        return _result(self.call("POST", self._match(match_id) + "/confirmations", body,
                                 headers={"Idempotency-Key": str(uuid.uuid4())}, retry=True))

    def annotate(self, match_id: str, seq: int, text: str, *, kind: str = "comment", by: str = "",
                 audience: str = "all") -> Any:
        import msgspec

        from schemas import Annotation

        answer = self.call("POST", self._match(match_id) + "/annotations",
                           {"seq": seq, "text": text, "kind": kind, "audience": audience})
        return msgspec.convert(answer, Annotation)

    def audit(self, match_id: str, progress: Callable[[int, int], None] | None = None, *, jobs: int = 1,
              accept_rules_change: bool = False) -> AuditAnswer:
        query = {"accept_rules_change": True} if accept_rules_change else None
        return msgspec.convert(self.call("GET", self._match(match_id) + "/audit", query=query), AuditAnswer)

    def audit_many(self, match_ids: Sequence[str], progress: Callable[[int, int], None] | None = None, *,
                   jobs: int = 1, accept_rules_change: bool = False) -> list[AuditAnswer]:
        """The server audits (one match per request, in that order)."""
        return [self.audit(mid, accept_rules_change=accept_rules_change) for mid in match_ids]

    def replay(self, match_id: str, *, start: int = 1, stop: int | None = None,
               seat: str | None = None) -> list[ReplayStep]:
        steps = self.call("GET", self._match(match_id) + "/replay", query={"from": start, "to": stop, "as": seat})
        return msgspec.convert(steps, list[ReplayStep])

    def diff(self, a: str, b: str, *, at_a: int | None = None, at_b: int | None = None) -> DiffAnswer:
        answer = self.call("GET", self._match(a) + "/diff", query={"other": b, "at": at_a, "other_at": at_b})
        return msgspec.convert(answer, DiffAnswer)

    def legal(self, match_id: str, seat: str | None = None) -> LegalAnswer:
        return msgspec.convert(self.call("GET", self._match(match_id) + "/legal", query={"seat": seat}), LegalAnswer)

    def export_text(self, match_id: str, fmt: str, role: str | None) -> str:
        """An export as the token's role sees it (``role`` lets the arbiter see as a seat)."""
        query = {"format": fmt, "as": None if role in (None, "arbiter") else role}
        return self.call("GET", self._match(match_id) + "/export", query=query, raw=True)  # type: ignore[no-any-return]

    def create_match(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST /matches: the new match and its tokens (shown once)."""
        return self.call("POST", "/matches", {k: v for k, v in body.items() if v not in (None, {}, "")})  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        raise BadInput(
            "client/unsupported",
            "this command needs a local database (it is not available with --server); drop --server/--token "
            "or use the HTTP API (see /schema on the server)",
        )


def _error(exc: urllib.error.HTTPError) -> RefereeError:
    try:
        body = json.loads(exc.read() or b"{}")
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    code = str(body.get("code") or f"http/{exc.code}")
    message = str(body.get("message") or f"the server answered {exc.code} {exc.reason}")
    detail = body.get("detail") if isinstance(body.get("detail"), dict) else {}
    if exc.code >= 500 and exc.code != 503:
        return StorageError(code, f"the referee server failed ({exc.code}): {message}", detail)
    return _BY_STATUS.get(exc.code, BadInput)(code, message, detail)


def _result(answer: dict[str, Any]) -> Any:
    """A :class:`referee.service.SubmitResult` from the server's answer (what the CLI renders)."""
    import msgspec

    from referee.engine.protocol import Accepted, Held, Rejected
    from referee.service import SubmitResult
    from schemas import Outcome

    rejection = answer.get("rejection")
    verdict: Any = (Rejected(rejection["code"], rejection["message"], rejection.get("rule", ""))
                    if answer["verdict"] == "rejected" and rejection else Accepted(tuple(answer.get("events") or ())))
    if answer["verdict"] == "held":
        verdict = Held(confirmer=answer.get("confirmer", ""))
    outcome = answer.get("outcome")
    return SubmitResult(
        match_id=answer["match_id"], seq=answer["seq"], actor=answer.get("actor") or answer.get("by", ""),
        notation=answer["intent"], intent=None, verdict=verdict, state_hash=answer.get("state_hash", ""),
        outcome=msgspec.convert(outcome, Outcome) if outcome else None, events=list(answer.get("events") or []),
        words=list(answer.get("words") or []),
    )
