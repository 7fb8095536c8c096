"""What every export format starts from: a match bound to its rules, seen by one role, read through its
:class:`~referee.history.History` (:func:`source`), and its entries walked a step at a time
(:meth:`Source.steps`). :mod:`referee.export` writes txt, md and json from it, :mod:`referee.viewer` the
HTML page; neither needs the service, only what :class:`referee.history.Reader` names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from schemas import ARBITER, Annotation, ExportMatch, ExportStep, Outcome

from .config import Loaded
from .history import History, Reader
from .redaction import View, seat_role


def _group(view: dict[str, Any]) -> str:
    """A heading for the move list: the turn (and whose) or the round, when the state has one."""
    turn = view.get("turn")
    if isinstance(turn, dict) and isinstance(turn.get("number"), int) and turn.get("number"):
        who = turn.get("active")
        rnd = view.get("round")
        return f"Turn {turn['number']}" + (f" — {who}" if who else "") + (f" (round {rnd})" if isinstance(rnd, int) else "")
    rnd = view.get("round")
    if isinstance(rnd, int):
        return f"Round {rnd}"
    phase = view.get("phase")
    return f"{str(phase).capitalize()}" if isinstance(phase, str) else ""


@dataclass
class Source:
    """A match being exported for one role: what every format needs before its first entry."""

    history: History
    #: a variation's binding, by its match id (loaded when a format walks it)
    load: Callable[[str], Loaded]
    loaded: Loaded
    view: View
    role: str
    head: Outcome | None
    match: ExportMatch
    counts: dict[str, int]
    notes: list[Annotation]
    forks: list[tuple[str, int, str]]  # (match id, fork seq, title)

    def steps(self, loaded: Loaded | None = None, start: int = 1, *, states: bool = True) -> Iterator[ExportStep]:
        """The entries from ``start`` on as the role sees them, each with its words and (``states``)
        the state after it and the heading of the move list it falls under."""
        loaded = loaded or self.loaded
        view = self.view if loaded is self.loaded else View(loaded, self.view.role)
        group = ""
        if states:
            _, before = self.history.state_at(loaded, start - 1)
            group = _group(view.state(before))
        for entry, events, state in self.history.walk(loaded, view, start):
            shown = view.state(state) if states else {}
            yield ExportStep(entry=entry, words=view.words(events), state=shown, group=group)
            if states:
                group = _group(shown)


def source(reader: Reader, match_id: str, role: str = ARBITER) -> Source:
    """Match ``match_id`` as ``role`` sees it, ready to be walked (an unknown match or role is refused
    here, before anything is written)."""
    history = reader.history
    loaded = reader.load(match_id)
    view = View(loaded, seat_role(loaded, role))
    m, config = loaded.match, loaded.config
    _, final = history.state_at(loaded)
    outcome = loaded.rules.outcome(final)
    counts = {"accepted": 0, "rejected": 0, "none": 0}
    for _seq, _kind, _actor, verdict, _body in history.index(m):
        counts[verdict if verdict in counts else "none"] += 1
    forks = [(f.id, f.fork_seq or 0, f.title) for f in history.forks_of(m)]
    match = ExportMatch(
        id=m.id, game=loaded.game.id, game_name=loaded.game.name, rules_version=m.rules_version,
        players=config.players, title=m.title, meta=dict(config.meta), options=dict(config.options),
        cards=config.cards, decks=dict(config.decks), chance=config.chance, seed=view.seed(outcome is not None),
        seed_commitment=view.commitment(), undo=config.undo, parent=m.parent, fork_seq=m.fork_seq,
        secrets=view.secrets(lambda: history.reseeds(loaded, history.store.head(m.id)), outcome is not None),
        created_at=m.created_at,
    )
    notes = view.notes(a for a in history.store.annotations(m.id) if a.seq == 0)
    return Source(history, reader.load, loaded, view, role or ARBITER, outcome, match, counts, notes, forks)
