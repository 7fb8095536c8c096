"""What a role may see of a match: the one place that decides it.

Every answer a person gets — the CLI's ``show``, ``log`` and ``replay``, every export format, every
HTTP answer and the live stream — is built here, so the same role gets the same answer everywhere.
A role is ``None`` (the arbiter, who sees everything), a seat, or ``spectator`` (the public view).

* **State**: the game's ``view`` for the role.
* **An entry** seen by its own actor: the line as the actor typed it (or, when the intent holds what
  the actor may not see, such as the tokens dealt to everyone, the notation of its redacted form), its
  verdict and message, the events through the game's ``redact`` (which hides secrets even from the
  actor, e.g. an archive's order). Seen by anyone else: the *canonical notation of the redacted, parsed intent* (never the typed
  text with patterns cut out), the events through ``redact``, and a rejection's code and rule with its
  message cleared of what the redaction took out of the intent. An unreadable line is shown to its
  writer and the arbiter only. Redaction goes by what is hidden from whom (the Structs' declarations,
  :mod:`referee.engine.secrecy`), never by searching for values, so what is shown of an entry looks the
  same whatever the hidden truth is.
* **Words** (the sentences built from events) are built from the redacted events, so a hidden card is
  ``?`` with no name beside it.
* **Annotations** are shown as written to their audience (everyone, one seat, or the arbiter): an
  annotation is its author's words, and a role never learns anything from how one is shown.
* **Hashes** (entry, state, the head) cover hidden cards, so a seat could confirm a guess by hashing
  candidates: the arbiter's answers only.
* **The seed** of a digital match decides every hidden deal: the arbiter's alone while the match goes
  on. Every role gets its commitment (:func:`referee.engine.core.seed_commitment`) from the start,
  and the seed itself once the match is over, so anyone can check the deals were fair. A reopening of
  a finished match (the arbiter's) draws from a fresh secret: its commitment is in the entry's meta for
  every role, the secret in the arbiter's (``meta.secret``); everyone else reads it with the seed
  (:meth:`View.secrets`), once the match is over again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from schemas import ARBITER, SPECTATOR, Annotation, EntryView, Rejection

from .engine import core, notation
from .engine.codes import MatchCode
from .engine.entries import fresh_secret
from .engine.present import in_names
from .engine.suggest import hint
from .engine.protocol import Accepted, Held, Rejected
from .errors import BadInput
from .i18n import N_

if TYPE_CHECKING:
    from .config import Loaded
    from .store import StoredAnnotation, StoredEntry

HIDDEN = "?"
#: what a role that did not write an unreadable line is told of it
UNREADABLE = "(a line that could not be read; its writer and the arbiter see it)"


def plain(value: Any) -> Any:
    """JSON-shaped builtins (lists, dicts, str, int, bool, None) of any msgspec value."""
    return msgspec.json.decode(msgspec.json.encode(value))


def strings(value: Any) -> set[str]:
    """Every string in a value (Structs, lists and mappings walked)."""
    out: set[str] = set()
    stack = [msgspec.to_builtins(value)]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return out


def scrub(text: str, removed: Iterable[str]) -> str:
    """``text`` with each of ``removed`` (values the redaction took out of an intent) as ``?``."""
    import re

    ids = sorted({r for r in removed if r and r != HIDDEN}, key=len, reverse=True)
    if not ids:
        return text
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(re.escape(i) for i in ids) + r")(?![A-Za-z0-9_])")
    return pattern.sub(HIDDEN, text)


def seat_role(loaded: Loaded, seat: str | None) -> str | None:
    """The view to use for ``seat``: None (the referee's full view) for None or the arbiter, the seat
    itself, or the spectator's public view; anything else is refused, naming the match's seats."""
    if seat is None or seat == ARBITER:
        return None
    if seat != SPECTATOR and seat not in loaded.config.players:
        raise BadInput.said(
            MatchCode.UNKNOWN_SEAT, N_("{seat} is not a seat of this match{hint}; seats: {seats} (or {spectator}, "
                                       "{arbiter})"),
            seat=repr(seat), hint=hint(seat, (*loaded.config.players, SPECTATOR, ARBITER)),
            seats=", ".join(loaded.config.players), spectator=SPECTATOR, arbiter=ARBITER)
    return seat


def sees(audience: str, role: str | None) -> bool:
    """Whether ``role`` (None: the arbiter) may read an annotation meant for ``audience``."""
    return role is None or audience == "all" or audience == role


class View:
    """What one role sees of one match. ``role`` is None (the arbiter), a seat or ``spectator``."""

    def __init__(self, loaded: Loaded, role: str | None) -> None:
        self.loaded = loaded
        self.rules = loaded.rules
        self.role = role

    @property
    def arbiter(self) -> bool:
        return self.role is None

    # -- the state ---------------------------------------------------------------------------------

    def state(self, state: Any) -> dict[str, Any]:
        """The state as the role sees it, as JSON-shaped builtins, every mapping's keys in sorted order
        (a Struct's fields stay in their declared order). A mapping's order in a state depends on the
        path the state took — folded from setup, from a snapshot (stored canonically, keys sorted),
        or live from events still in memory — so a view in that order would give different bytes for
        the same log in different processes; sorted, ``show``, exports and the viewer do not."""
        return msgspec.json.decode(msgspec.json.encode(self.rules.view(state, self.role), order="deterministic"))  # type: ignore[no-any-return]

    # -- entries -----------------------------------------------------------------------------------

    def parts(self, actor: str | None, intent: Any, events: Sequence[Any]) -> tuple[Any, tuple[Any, ...], set[str]]:
        """An entry's intent and events as the role sees them, and the strings the redaction took out
        of the intent (to clear a message that quotes them)."""
        if self.role is None:
            return intent, tuple(events), set()
        redact = self.rules.redact
        shown = redact(intent, actor, self.role) if intent is not None else None
        removed = strings(intent) - strings(shown) if shown is not intent else set()
        return shown, tuple(redact(ev, actor, self.role) for ev in events), removed

    def words(self, events: Iterable[Any]) -> list[str]:
        """Events (already as the role sees them) in words, each id the game names by its printed name;
        events the game has no words for are left out."""
        describe = self.rules.describe_event
        return [in_names(w, self.rules.name_of) for w in (describe(ev) for ev in events) if w]

    def notes(self, annotations: Iterable[StoredAnnotation]) -> list[Annotation]:
        return [Annotation(seq=a.seq, kind=a.kind, text=a.text, by=a.by, recorded_at=a.recorded_at)
                for a in annotations if sees(a.audience, self.role)]

    def entry(self, entry: StoredEntry, body: Any, *, undone_by: int | None = None,
              annotations: Sequence[StoredAnnotation] = ()) -> tuple[EntryView, tuple[Any, ...]]:
        """One log entry as the role sees it, and its events as the role sees them (for words)."""
        verdict = body.verdict
        raw_events = verdict.events if isinstance(verdict, Accepted) else ()
        rejection = (Rejection(code=verdict.code, message=verdict.message, rule=verdict.rule,
                               rule_english=self.loaded.game.rulebook.english(verdict.rule),
                               sections=self.loaded.game.rulebook.sections(verdict.rule))
                     if isinstance(verdict, Rejected) else None)
        error = body.meta.get("error") if body.kind == "unparsed" else None
        if isinstance(error, dict):
            rejection = Rejection(code=str(error.get("code", "")), message=str(error.get("message", "")))
        meta = {k: v for k, v in body.meta.items() if k != "error"}
        if isinstance(verdict, Held):
            meta["confirmer"] = verdict.confirmer
        secret = fresh_secret(body.act)
        if secret is not None and self.arbiter:  # everyone else reads it in :meth:`secrets`, once the match is over
            meta["secret"] = secret
        # a ruling's or a confirmation's intent and events are the seat's whose move it is
        actor = body.meta.get("seat") if body.kind in ("ruling", "confirm") else body.actor
        if self.role is None or body.kind in ("undo", "redo"):
            text = body.notation or (notation.format_intent(body.intent) if body.intent is not None else "")
            _shown, events, _removed = self.parts(actor, body.intent, raw_events)
        elif body.kind == "unparsed":
            if self.role == actor:
                text, events = body.notation, ()
            else:
                text, events = UNREADABLE, ()
                if rejection is not None:
                    rejection = Rejection(code=rejection.code, message="the line could not be read")
        else:
            shown, events, removed = self.parts(actor, body.intent, raw_events)
            if body.kind != "intent" or shown is None:
                text = body.notation
            elif self.role == actor and not removed:
                text = body.notation or notation.format_intent(shown)  # the line as its actor typed it
            else:
                text = notation.format_intent(shown)
            if rejection is not None and removed:
                rejection = msgspec.structs.replace(rejection, message=scrub(rejection.message, removed))
        view = EntryView(
            seq=entry.seq, kind=entry.kind, actor=entry.actor, notation=text,
            verdict=verdict_name(verdict),  # type: ignore[arg-type]
            rejection=rejection, events=plain(events),
            manual=bool(isinstance(verdict, Accepted) and verdict.manual),
            hash=entry.hash if self.arbiter else "", prev_hash=entry.prev_hash if self.arbiter else "",
            state_hash=entry.state_hash if self.arbiter else "", recorded_at=entry.recorded_at,
            annotations=self.notes(annotations), meta=meta, undone_by=undone_by,
        )
        return view, events

    # -- the match ----------------------------------------------------------------------------------

    def seed(self, over: bool | Callable[[], bool]) -> int | None:
        """The digital match's seed if the role may know it: the arbiter always, everyone once the
        match is over (``over`` may be a function, asked only when it matters)."""
        config = self.loaded.config
        if config.chance != "digital":
            return None
        if self.arbiter:
            return config.seed
        return config.seed if (over() if callable(over) else over) else None

    def secrets(self, reseeds: Callable[[], Sequence[tuple[int, int]]], over: bool | Callable[[], bool],
                ) -> dict[int, int]:
        """The fresh secrets of the match's reopenings (entry -> secret, ``reseeds`` gives them) if the
        role may know them: the arbiter always, everyone once the match is over (again), like the seed."""
        if self.loaded.config.chance != "digital":
            return {}
        if not self.arbiter and not (over() if callable(over) else over):
            return {}
        return dict(reseeds())

    def commitment(self) -> str:
        """The seed's commitment (every role, from the start); empty for a physical match."""
        config = self.loaded.config
        if config.chance != "digital" or config.seed is None:
            return ""
        return core.seed_commitment(self.loaded.root, config.seed)


def verdict_name(verdict: Any) -> str:
    """``accepted``, ``rejected``, ``held`` or ``none`` (an unreadable line): the log's verdict column."""
    if isinstance(verdict, Accepted):
        return "accepted"
    if isinstance(verdict, Held):
        return "held"
    if isinstance(verdict, Rejected):
        return "rejected"
    return "none"


def annotations_by_entry(notes: Iterable[StoredAnnotation]) -> Mapping[int, list[StoredAnnotation]]:
    out: dict[int, list[StoredAnnotation]] = {}
    for a in notes:
        out.setdefault(a.seq, []).append(a)
    return out


__all__ = ["ARBITER", "HIDDEN", "View", "annotations_by_entry", "plain", "scrub", "sees", "strings"]
