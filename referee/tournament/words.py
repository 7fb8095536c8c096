"""What an organiser types for a tournament's numbers and results, read into records' values: points
(``win=3,draw=1``), place points at pod tables (``4,2,1,0``) and an arbiter's result in words
(``win:alice``, ``draw``, ``rank:a>b=c``, ``team-win``). Each refuses what it cannot read with one
message naming what was expected (exit 2, 4xx)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING

import msgspec

from schemas import TITLE_MAX, Outcome

from ..errors import BadInput
from ..i18n import N_
from ..inputs import check_text
from . import events as ev
from .codes import TournamentCode

if TYPE_CHECKING:
    from .fold import Tournament


def parse_points(text: str) -> ev.Points:
    """``win=3,draw=1,loss=0,bye=3,half=1`` (any of them; the rest keep their defaults). Fractions are
    points too (``win=1,draw=0.5`` or ``draw=1/2``): the record keeps whole numbers of ``1/unit`` of a
    point (:class:`.events.Points`), so nothing is rounded."""
    values: dict[str, Fraction] = {}
    for item in (p.strip() for p in text.split(",") if p.strip()):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in ("win", "draw", "loss", "bye", "half"):
            raise BadInput.said(TournamentCode.BAD_POINTS, N_("points {item!r}: expected win=N, draw=N, loss=N, bye=N or half=N (a half-point bye's; default a draw's), e.g. --points win=3,draw=1,loss=0,bye=3 or win=1,draw=0.5"),
                                item=item)
        if key in values:
            raise BadInput.said(TournamentCode.BAD_POINTS, N_("points: {key} is given twice"), key=key)
        number = value.strip()
        try:
            if not number or len(number) > 12 or not all(c.isdigit() or c in "./" for c in number):
                raise ValueError(number)
            values[key] = Fraction(number)
        except (ValueError, ZeroDivisionError):
            raise BadInput.said(TournamentCode.BAD_POINTS, N_("points {item!r}: {number!r} is not a number of points (a whole number, a decimal like 0.5 or a fraction like 1/2)"),
                                item=item, number=number) from None
        if not 0 <= values[key] <= 1000:
            raise BadInput.said(TournamentCode.BAD_POINTS, N_("points {item!r}: from 0 to 1000"), item=item)
    unit = 1
    for v in values.values():
        unit = lcm(unit, v.denominator)
    if unit > 1000:
        raise BadInput.said(TournamentCode.BAD_POINTS, N_("points {text!r}: fractions finer than 1/1000 of a point are not kept"),
                            text=text)
    if unit == 1:
        return msgspec.structs.replace(ev.Points(), **{k: int(v) for k, v in values.items()})
    # a fractional scale: what is not given keeps its default value in points (win 3, draw 1, loss 0, a win's bye)
    given = {"win": Fraction(3), "draw": Fraction(1), "loss": Fraction(0), **values}
    given.setdefault("bye", given["win"])
    return msgspec.structs.replace(ev.Points(unit=unit), **{k: int(v * unit) for k, v in given.items()})


def parse_places(text: str) -> tuple[int, ...]:
    """``4,2,1,0``: the points of 1st, 2nd, ... at a pod table."""
    out = []
    for item in (p.strip() for p in text.split(",") if p.strip()):
        if not item.isdigit() or int(item) > 1000:
            raise BadInput.said(TournamentCode.BAD_PLACES, N_("places {text!r}: expected whole numbers from 0 to 1000 for 1st, 2nd, ... (e.g. --places 4,2,1,0)"),
                                text=text)
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
            raise BadInput.said(TournamentCode.BAD_RESULT, N_("a score for {who!r}, who is not at this table ({items})"),
                                who=who, items=', '.join(seats))

    def seat(name: str) -> str:
        name = name.strip()
        if name not in seats:
            raise BadInput.said(TournamentCode.BAD_RESULT, N_("{name!r} is not at this table; its players: {items}"),
                                name=name, items=', '.join(seats))
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
            raise BadInput.said(TournamentCode.BAD_RESULT, N_("a ranking names every player at the table once ({items}), e.g. rank:{ranking}"),
                                items=', '.join(seats), ranking='>'.join(seats))
        return Outcome(winners=ranking[0], reason="arbiter", kind="ranking", ranking=ranking, scores=sc)
    names = word[4:] if word.startswith("win:") else word
    if not names:
        raise BadInput.said(TournamentCode.BAD_RESULT, N_("expected win:PLAYER, draw, rank:A>B=C, team-win or team-loss"))
    winners = tuple(seat(s) for s in names.split(","))
    return Outcome(winners=winners, reason="arbiter", kind="win", scores=sc)


def typed(outcome: Outcome) -> str:
    """The words :func:`parse_result` reads back into ``outcome`` (its scores aside): ``win:alice``, ``draw``,
    ``rank:alice>bob=carol``, ``team-win`` or ``team-loss``."""
    kind = outcome.how
    if kind == "draw":
        return "draw"
    if kind == "team_win":
        return "team-win"
    if kind == "team_loss":
        return "team-loss"
    if kind == "ranking":
        return "rank:" + ">".join("=".join(level) for level in outcome.ranking)
    return "win:" + ",".join(outcome.winners)


def parse_forfeit(text: str, seats: Sequence[str]) -> Outcome:
    """A result by forfeit: ``win:alice`` (or ``alice``: alice wins, the others lost by forfeit) or ``none``
    (a double forfeit: nobody played, nobody wins)."""
    check_text(text, "the result", TITLE_MAX)
    word = text.strip()
    if word in ("none", "double"):
        return Outcome(winners=(), reason="double forfeit", kind="team_loss")
    name = word[4:] if word.startswith("win:") else word
    if name not in seats:
        raise BadInput.said(TournamentCode.BAD_RESULT, N_("a forfeit is won by a player at the table ({items}) or by nobody (none), not {word!r}: e.g. --forfeit win:{first}"),
                            items=', '.join(seats), word=word, first=seats[0])
    return Outcome(winners=(name,), reason="forfeit", kind="win")


@dataclass
class Manual:
    """A pairing typed by the organiser: tables (seat order as typed), full-point byes, half-point byes and
    absent players."""

    tables: list[tuple[str, ...]] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)
    half: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)


#: what may follow a lone player instead of opponents
_ALONE = {"bye": "byes", "half": "half", "absent": "absent"}


def parse_manual(text: str, state: Tournament, granted: Sequence[str], *, least: int, most: int) -> Manual:
    """``alice-bob,carol-dave,eve-bye`` (commas or new lines between tables; ``-`` between the seats, the
    first plays first): every player still in the tournament exactly once, at a table of ``least`` to
    ``most`` seats or alone with ``-bye`` (a full-point bye), ``-half`` (a half-point bye) or ``-absent``
    (nothing). Players granted a half-point bye for the round (``granted``) are on it already."""
    check_text(text, "the pairing (--manual)", 200_000)
    out = Manual()
    seen: dict[str, str] = {}
    items = [i.strip() for line in text.splitlines() for i in line.split(",") if i.strip()]
    if not items:
        raise BadInput.said(TournamentCode.BAD_PAIRING, N_("--manual names the round's tables, e.g. alice-bob,carol-dave,eve-bye"))
    for item in items:
        names = [n.strip() for n in item.split("-")]
        if len(names) == 2 and names[1] in _ALONE:
            getattr(out, _ALONE[names[1]]).append(names[0])
            names = names[:1]
        elif not least <= len(names) <= most:
            raise BadInput.said(TournamentCode.BAD_PAIRING,
                                N_("table {item!r} seats {n}: a table here seats {least} to {most} players (a player "
                                   "alone: NAME-bye, NAME-half or NAME-absent)") if most != least else
                                N_("table {item!r} seats {n}: a table here seats {least} players (a player alone: "
                                   "NAME-bye, NAME-half or NAME-absent)"), item=item, n=len(names), least=least, most=most)
        else:
            out.tables.append(tuple(names))
        for name in names:
            if name not in state.players:
                raise BadInput.said(TournamentCode.UNKNOWN_PLAYER, N_("{name!r} in {item!r} is not a player of {tournament}; players: {items}"),
                                    name=name, item=item, tournament=state.config.name, items=', '.join(state.players))
            if state.players[name].dropped:
                raise BadInput.said(TournamentCode.DROPPED, N_("{name} in {item!r} has dropped (undrop them first)"),
                                    name=name, item=item)
            if name in granted:
                raise BadInput.said(TournamentCode.HAS_HALF_BYE, N_("{name} in {item!r} has a half-point bye for this round already (cancel it first to pair them)"),
                                    name=name, item=item)
            if name in seen:
                raise BadInput.said(TournamentCode.BAD_PAIRING, N_("{name} is named twice: in {seen!r} and {item!r}"),
                                    name=name, seen=seen[name], item=item)
            seen[name] = item
    missing = [p for p in state.active() if p not in seen and p not in granted]
    if missing:
        raise BadInput.said(TournamentCode.BAD_PAIRING, N_("the pairing leaves out {items}: every player still in the tournament is at a table or alone (NAME-bye, NAME-half, NAME-absent)"),
                            items=', '.join(missing))
    return out
