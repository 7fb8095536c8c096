"""What changed: between the states of two lines (:func:`diff`, with the first entry where they part) and
entry by entry along one line (:func:`replay`), by dotted path into the state as a role sees it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from schemas.http import DiffAnswer, DiffSide, Divergence, PathDiff, ReplayStep, StateAnswer, StateChange

from .config import Loaded
from .engine.codes import DiffCode, MatchCode
from .engine.present import in_names, leaves
from .errors import BadInput
from .i18n import N_
from .history import Reader
from .redaction import View, seat_role
from .store import StoredEntry


class Shows(Reader, Protocol):
    """A :class:`~referee.history.Reader` that also shows the state after an entry (the service)."""

    def show(self, match_id: str, *, at: int | None = None, seat: str | None = None) -> StateAnswer: ...


def diff(reader: Shows, a: str, b: str, *, at_a: int | None = None, at_b: int | None = None) -> DiffAnswer:
    """How two states differ (by dotted path), and the first entry where two lines diverge."""
    la, lb = reader.load(a), reader.load(b)
    if la.game.id != lb.game.id:
        raise BadInput.said(DiffCode.DIFFERENT_GAMES, N_("{a} is {game_a} and {b} is {game_b}"), a=la.match.id,
                            game_a=la.game.id, b=lb.match.id, game_b=lb.game.id)
    sa, sb = reader.show(la.match.id, at=at_a), reader.show(lb.match.id, at=at_b)
    fa, fb = leaves(sa.state), leaves(sb.state)
    changes = [
        PathDiff(path=path, a=fa.get(path), b=fb.get(path))
        for path in sorted(set(fa) | set(fb), key=_path_key)
        if fa.get(path) != fb.get(path)
    ]
    diverge = None
    ea = reader.history.entries(la.match, 1, sa.seq)
    eb = reader.history.entries(lb.match, 1, sb.seq)
    seq = 0
    while True:
        x, y = next(ea, None), next(eb, None)
        if x is None and y is None:
            break
        seq += 1
        if x is None or y is None or x.hash != y.hash:
            diverge = Divergence(
                seq=seq,
                a=None if x is None else _entry_text(la, x),
                b=None if y is None else _entry_text(lb, y),
            )
            break
    return DiffAnswer(
        a=DiffSide(match_id=la.match.id, seq=sa.seq, state_hash=sa.state_hash),
        b=DiffSide(match_id=lb.match.id, seq=sb.seq, state_hash=sb.state_hash),
        same_state=sa.state_hash == sb.state_hash,
        changes=changes,
        diverge=diverge,
    )


def _entry_text(loaded: Loaded, entry: StoredEntry) -> str:
    body = loaded.decoder.decode(entry.body)
    return f"{body.actor or '-'}: {body.notation}"


def replay(reader: Reader, match_id: str, *, start: int = 1, stop: int | None = None,
           seat: str | None = None) -> list[ReplayStep]:
    """Entry by entry: the intent, its verdict, and what changed in the state (as ``seat`` sees
    it; None = the referee's full view)."""
    history = reader.history
    loaded = reader.load(match_id)
    seat = seat_role(loaded, seat)
    head = history.store.head(loaded.match.id)
    stop = head if stop is None else stop
    if not 1 <= start <= max(stop, 1) or stop > head:
        raise BadInput.said(MatchCode.BAD_SEQ, N_("--from {start} --to {stop} is not a range of entries 1..{head}"),
                            start=start, stop=stop, head=head)
    view = View(loaded, seat)
    _, state = history.state_at(loaded, start - 1)
    before = leaves(view.state(state))
    steps = []
    for shown, events, state in history.walk(loaded, view, start, stop):
        after = leaves(view.state(state))
        changed = [p for p in before.keys() | after.keys()
                   if before.get(p) != after.get(p) and not (_blank(before.get(p)) and _blank(after.get(p)))]
        changes = [StateChange(path=p, before=before.get(p), after=after.get(p)) for p in sorted(changed, key=_path_key)]
        steps.append(ReplayStep(entry=shown, changes=changes, words=event_words(loaded.rules, events)))
        before = after
    return steps


def event_words(rules: Any, events: Sequence[Any]) -> list[str]:
    """Events in words through the game's ``describe_event`` (events it has no words for are left out),
    each id the game names given by its printed name."""
    return [in_names(w, rules.name_of) for w in (rules.describe_event(ev) for ev in events) if w]


def _blank(value: Any) -> bool:
    """Nothing there: a missing path, null, or an empty list, mapping or string."""
    return value is None or value == [] or value == {} or value == ""


def _path_key(path: str) -> tuple[Any, ...]:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in path.split("."))
