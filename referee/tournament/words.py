"""What an organiser types for a tournament's numbers and results, read into records' values: points
(``win=3,draw=1``), place points at pod tables (``4,2,1,0``) and an arbiter's result in words
(``win:alice``, ``draw``, ``rank:a>b=c``, ``team-win``). Each refuses what it cannot read with one
message naming what was expected (exit 2, 4xx)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemas import TITLE_MAX, Outcome

from ..errors import BadInput
from ..inputs import check_text
from . import events as ev


def parse_points(text: str) -> ev.Points:
    """``win=3,draw=1,loss=0,bye=3,half=1`` (any of them; the rest keep their defaults)."""
    values: dict[str, Any] = {}
    for item in (p.strip() for p in text.split(",") if p.strip()):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in ("win", "draw", "loss", "bye", "half"):
            raise BadInput("tournament/bad_points", f"points {item!r}: expected win=N, draw=N, loss=N, bye=N or "
                           "half=N (a half-point bye's; default a draw's), e.g. --points win=3,draw=1,loss=0,bye=3")
        try:
            values[key] = int(value.strip())
        except ValueError:
            raise BadInput("tournament/bad_points", f"points {item!r}: {value.strip()!r} is not a whole number") from None
        if not 0 <= values[key] <= 1000:
            raise BadInput("tournament/bad_points", f"points {item!r}: from 0 to 1000")
    return ev.Points(**values)


def parse_places(text: str) -> tuple[int, ...]:
    """``4,2,1,0``: the points of 1st, 2nd, ... at a pod table."""
    out = []
    for item in (p.strip() for p in text.split(",") if p.strip()):
        if not item.isdigit() or int(item) > 1000:
            raise BadInput("tournament/bad_places", f"places {text!r}: expected whole numbers from 0 to 1000 for "
                           "1st, 2nd, ... (e.g. --places 4,2,1,0)")
        out.append(int(item))
    return tuple(out)


def parse_result(text: str, seats: Sequence[str], scores: Mapping[str, int] | None = None) -> Outcome:
    """An arbiter's result in words: ``win:alice`` (or ``alice``), ``draw``, ``rank:alice>bob=carol>dave``
    (``=`` level), ``team-win`` or ``team-loss``; ``scores`` the players' scores, if the game keeps any."""
    check_text(text, "the result", TITLE_MAX)
    word = text.strip()
    sc = dict(scores) if scores else None
    for who in sc or {}:
        if who not in seats:
            raise BadInput("tournament/bad_result", f"a score for {who!r}, who is not at this table ({', '.join(seats)})")

    def seat(name: str) -> str:
        name = name.strip()
        if name not in seats:
            raise BadInput("tournament/bad_result", f"{name!r} is not at this table; its players: {', '.join(seats)}")
        return name

    if word == "draw":
        return Outcome(winners=(), reason="arbiter", kind="draw", scores=sc)
    if word in ("team-win", "team_win"):
        return Outcome(winners=tuple(seats), reason="arbiter", kind="team_win", scores=sc)
    if word in ("team-loss", "team_loss"):
        return Outcome(winners=(), reason="arbiter", kind="team_loss", scores=sc)
    if word.startswith("rank:"):
        ranking = tuple(tuple(seat(s) for s in level.split("=")) for level in word[5:].split(">"))
        named = [s for level in ranking for s in level]
        if sorted(named) != sorted(seats):
            raise BadInput("tournament/bad_result", f"a ranking names every player at the table once "
                           f"({', '.join(seats)}), e.g. rank:{'>'.join(seats)}")
        return Outcome(winners=ranking[0], reason="arbiter", kind="ranking", ranking=ranking, scores=sc)
    names = word[4:] if word.startswith("win:") else word
    if not names:
        raise BadInput("tournament/bad_result", "expected win:PLAYER, draw, rank:A>B=C, team-win or team-loss")
    winners = tuple(seat(s) for s in names.split(","))
    return Outcome(winners=winners, reason="arbiter", kind="win", scores=sc)
