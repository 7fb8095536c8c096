"""An outcome in words, the same in the CLI, the Markdown and HTML accounts and the transcript: one
sentence for each kind of end (:class:`schemas.Outcome`)."""

from __future__ import annotations

from schemas import Outcome


def _seats(seats: tuple[str, ...] | list[str]) -> str:
    seats = list(seats)
    if len(seats) <= 1:
        return "".join(seats)
    return ", ".join(seats[:-1]) + " and " + seats[-1]


def _place(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def words(outcome: Outcome | None) -> str:
    """``alice won (influence)``, ``draw (full field)``, ``1st alice (12), 2nd bob and carol (9) —
    most points``, ``the team won: …``, ``everyone lost (the deck ran out)``; ``not finished``."""
    if outcome is None:
        return "not finished"
    why = outcome.reason.replace("_", " ")
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
    won = f"{_seats(outcome.winners)} won ({why})"
    if scores:
        won += " — scores " + ", ".join(f"{k} {v}" for k, v in scores.items())
    return won
