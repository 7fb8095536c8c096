"""An outcome in words, the same in the CLI, the Markdown and HTML accounts and the transcript: one
sentence for each kind of end (:class:`schemas.Outcome`)."""

from __future__ import annotations

from collections.abc import Callable

from schemas import Outcome


def _same(text: str, **values: object) -> str:
    return text.format(**values) if values else text


def _seats(seats: tuple[str, ...] | list[str]) -> str:
    seats = list(seats)
    if len(seats) <= 1:
        return "".join(seats)
    return ", ".join(seats[:-1]) + " and " + seats[-1]


def _place(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def words(outcome: Outcome | None, gettext: Callable[..., str] = _same) -> str:
    """``alice won (influence)``, ``draw (full field)``, ``1st alice (12), 2nd bob and carol (9) —
    most points``, ``the team won: …``, ``everyone lost (the deck ran out)``; ``not finished``.
    ``gettext`` renders the words of a winner's sentence in the reader's language (:func:`referee.i18n.gettext`;
    default: English, as the transcript and the exports write it)."""
    if outcome is None:
        return "not finished"
    why = gettext(outcome.reason.replace("_", " "))
    scores = outcome.scores or {}
    kind = outcome.how
    if kind == "draw":
        return f"draw ({why})"
    if kind == "team_win":
        return f"the team won ({why}): {_seats(outcome.winners)}"
    if kind == "team_loss":
        return f"everyone lost ({why})"
    if kind == "ranking":
        places, n = [], 1
        for tied in outcome.ranking:
            score = scores.get(tied[0]) if tied else None
            places.append(f"{_place(n)} {_seats(tied)}" + (f" ({score})" if score is not None else ""))
            n += len(tied)
        return ", ".join(places) + f" — {why}"
    won = gettext("{winners} won ({why})", winners=_seats(outcome.winners), why=why)
    if scores:
        won += gettext(" — scores {scores}", scores=", ".join(f"{k} {v}" for k, v in scores.items()))
    return won
