"""An outcome in words, the same in the CLI, the Markdown and HTML accounts and the transcript: one
sentence for each kind of end (:class:`schemas.Outcome`)."""

from __future__ import annotations

from collections.abc import Callable

from schemas import Outcome


def _same(text: str, **values: object) -> str:
    return text.format(**values) if values else text


def N_(msgid: str) -> str:
    """Marks a template for the catalog (said through the ``gettext`` a caller gives)."""
    return msgid


def _seats(seats: tuple[str, ...] | list[str], gettext: Callable[..., str] = _same) -> str:
    seats = list(seats)
    if len(seats) <= 1:
        return "".join(seats)
    return gettext(N_("{seats} and {last}"), seats=", ".join(seats[:-1]), last=seats[-1])


def _suffix(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def words(outcome: Outcome | None, gettext: Callable[..., str] = _same) -> str:
    """``alice won (influence)``, ``draw (full field)``, ``1st alice (12), 2nd bob and carol (9) —
    most points``, ``the team won: …``, ``everyone lost (the deck ran out)``; ``not finished``.
    ``gettext`` renders them in the reader's language (:func:`referee.i18n.gettext`: each sentence, the
    place, the list of seats and the reason; default: English, as the transcript and the exports write it)."""
    if outcome is None:
        return gettext(N_("not finished"))
    why = gettext(outcome.reason.replace("_", " "))
    scores = outcome.scores or {}
    kind = outcome.how
    if kind == "draw":
        return gettext(N_("draw ({why})"), why=why)
    if kind == "team_win":
        return gettext(N_("the team won ({why}): {seats}"), why=why, seats=_seats(outcome.winners, gettext))
    if kind == "team_loss":
        return gettext(N_("everyone lost ({why})"), why=why)
    if kind == "ranking":
        places, n = [], 1
        for tied in outcome.ranking:
            score = scores.get(tied[0]) if tied else None
            place = gettext(N_("{place} {seats}"), place=gettext(N_("{n}{suffix}"), n=n, suffix=_suffix(n)),
                            seats=_seats(tied, gettext))
            places.append(place + (f" ({score})" if score is not None else ""))
            n += len(tied)
        return gettext(N_("{places} — {why}"), places=", ".join(places), why=why)
    won = gettext("{winners} won ({why})", winners=_seats(outcome.winners, gettext), why=why)
    if scores:
        won += gettext(" — scores {scores}", scores=", ".join(f"{k} {v}" for k, v in scores.items()))
    return won
