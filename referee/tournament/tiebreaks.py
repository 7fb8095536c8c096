"""The tie-breaks, each a pure function of the players' games (:class:`referee.tournament.scoring.Game`)
that returns its value and the lines that explain it.

Definitions (the ones chess and card-game events use; a bye, full or half-point, or a result by forfeit
gives its points and no opponent — under ``--unplayed fide`` see :mod:`.fide`; at a co-operative table, ``team_win`` or ``team_loss``, the players are teammates, not
opponents, so it adds to nobody's opponents):

``points``            match points.
``game-points``       game points: 1 a won game, 1/2 a drawn one (2/3 for 2nd of 4 at a pod table).
``buchholz``          the sum of the opponents' match points.
``buchholz-cut1``     Buchholz without the lowest opponent's points.
``median-buchholz``   Buchholz without the highest and the lowest (with three opponents or more).
``sonneborn-berger``  the sum, over the games, of each opponent's match points times the share the
                      player took from them (1 beaten, 1/2 level, 0 lost).
``omw``               opponents' match-win %: the mean of the opponents' match-win percentages
                      (points / points possible), each at least 1/3 (the floor card-game events use).
``gw``                the player's game-win %: game points / games, at least 1/3.
``ogw``               opponents' game-win %: the mean of the opponents' game-win percentages.
``head-to-head``      among the players level on every tie-break before it: the shares taken from
                      each other.
``progressive``       the sum of the player's running score after each round (early wins weigh more),
                      every round 1..N (a tournament recorded before the fix: the rounds it had a game in).
``score``             the total of the scores the outcomes carry (victory points, influence...).

Every opponent counts with the games they have played so far (a dropped opponent with theirs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from ..i18n import N_
from .fide import Unplayed, direct_encounter
from .scoring import Game

FLOOR = Fraction(1, 3)

TIEBREAKS: dict[str, str] = {
    "points": N_("match points"),
    "game-points": N_("game points"),
    "buchholz": N_("Buchholz"),
    "buchholz-cut1": N_("Buchholz cut-1"),
    "median-buchholz": N_("median Buchholz"),
    "sonneborn-berger": N_("Sonneborn-Berger"),
    "omw": N_("opponents' match-win %"),
    "gw": N_("game-win %"),
    "ogw": N_("opponents' game-win %"),
    "head-to-head": N_("head-to-head"),
    "progressive": N_("progressive score"),
    "score": N_("score total"),
}

Explained = tuple[Fraction, list[str]]


def fmt(value: Fraction) -> str:
    """A value as people read it: ``6``, ``4.5``, ``0.6667``."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.4f}".rstrip("0")
    return text


@dataclass
class Context:
    """The games of every player (rounds 1..N), names for the explanations, and the tournament's settings:
    ``after`` (N), ``progressive`` (``games`` or ``rounds``: see :data:`.events.Progressive`), ``unplayed``
    and ``encounter`` (``fide``: :mod:`.fide`), ``draw`` (a draw's points, for FIDE's rounds after a
    player left) and ``forfeits_meet`` (a round-robin: a forfeit counts as the players' meeting)."""

    games: Mapping[str, Sequence[Game]]
    name: Callable[[str], str]
    after: int = 0
    progressive: str = "games"
    unplayed: str = "simple"
    encounter: str = "partial"
    draw: Fraction = Fraction(1)
    forfeits_meet: bool = False

    @cached_property
    def fide(self) -> Unplayed:
        return Unplayed(self.games, self.after, self.draw, self.name)

    def points(self, player: str) -> Fraction:
        return sum((g.points for g in self.games.get(player, ())), Fraction(0))

    def played(self, player: str) -> list[Game]:
        return [g for g in self.games.get(player, ()) if g.played]

    def opponents(self, player: str) -> list[tuple[Game, str]]:
        return [(g, o) for g in self.played(player) for o in g.opponents]

    def mwp(self, player: str) -> Fraction:
        games = self.games.get(player, ())
        possible = sum((g.possible for g in games), Fraction(0))
        return max(FLOOR, self.points(player) / possible) if possible else FLOOR

    def gwp(self, player: str) -> Fraction:
        games = self.games.get(player, ())
        return max(FLOOR, sum((g.game_points for g in games), Fraction(0)) / len(games)) if games else FLOOR

    def where(self, g: Game) -> str:
        bye = " (half-point bye)" if g.source == "half-bye" else " (bye)"
        return f"round {g.round}" + (f" table {g.table}" if g.table is not None else bye) + (
            " (by forfeit)" if g.forfeit else "") + (
            f" [match {g.match_id}]" if g.match_id else f" [{g.source}]" if g.source not in ("log", "bye", "half-bye") else "")


def _sum(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0))


def points(ctx: Context, player: str) -> Explained:
    lines = [f"{ctx.where(g)}: {fmt(g.points)}" + ("" if g.bye else f" against {', '.join(ctx.name(o) for o in g.opponents)}"
                                                  if g.opponents else " (co-operative: teammates, no opponents)")
             for g in ctx.games.get(player, ())]
    return ctx.points(player), lines


def game_points(ctx: Context, player: str) -> Explained:
    games = ctx.games.get(player, ())
    return _sum([g.game_points for g in games]), [f"{ctx.where(g)}: {fmt(g.game_points)}" for g in games]


def _opp_points(ctx: Context, player: str) -> list[tuple[Fraction, str]]:
    return [(ctx.points(o), f"{ctx.where(g)}: {ctx.name(o)} has {fmt(ctx.points(o))}") for g, o in ctx.opponents(player)]


def buchholz(ctx: Context, player: str) -> Explained:
    if ctx.unplayed == "fide":
        return ctx.fide.buchholz(player)
    rows = _opp_points(ctx, player)
    return _sum([v for v, _ in rows]), [line for _, line in rows]


def _cut(ctx: Context, player: str, low: int, high: int, least: int) -> Explained:
    if ctx.unplayed == "fide":
        return ctx.fide.cut(player, low, high, least)
    rows = _opp_points(ctx, player)
    lines = [line for _, line in rows]
    if len(rows) < least:
        return _sum([v for v, _ in rows]), lines + [f"nothing cut ({len(rows)} opponents)"]
    ordered = sorted(range(len(rows)), key=lambda i: (rows[i][0], i))
    cut = set(ordered[:low]) | (set(ordered[len(ordered) - high:]) if high else set())
    for i in sorted(cut):
        lines.append(f"cut: {rows[i][1]}")
    return _sum([v for i, (v, _) in enumerate(rows) if i not in cut]), lines


def buchholz_cut1(ctx: Context, player: str) -> Explained:
    return _cut(ctx, player, 1, 0, 2)


def median_buchholz(ctx: Context, player: str) -> Explained:
    return _cut(ctx, player, 1, 1, 3)


def sonneborn_berger(ctx: Context, player: str) -> Explained:
    if ctx.unplayed == "fide":
        return ctx.fide.sonneborn_berger(player)
    total, lines = Fraction(0), []
    for g, o in ctx.opponents(player):
        took, theirs = g.against(o), ctx.points(o)
        total += took * theirs
        lines.append(f"{ctx.where(g)}: took {fmt(took)} from {ctx.name(o)} ({fmt(theirs)}) = {fmt(took * theirs)}")
    return total, lines


def omw(ctx: Context, player: str) -> Explained:
    rows = ctx.opponents(player)
    if not rows:
        return Fraction(0), ["no opponents yet"]
    lines = [f"{ctx.where(g)}: {ctx.name(o)} {fmt(ctx.points(o))} of "
             f"{fmt(_sum([x.possible for x in ctx.games.get(o, ())]))} possible -> {fmt(ctx.mwp(o))} (floor 1/3)"
             for g, o in rows]
    return _sum([ctx.mwp(o) for _, o in rows]) / len(rows), lines + [f"mean of {len(rows)}"]


def gw(ctx: Context, player: str) -> Explained:
    games = ctx.games.get(player, ())
    return ((ctx.gwp(player) if games else Fraction(0)),
            [f"{ctx.where(g)}: {fmt(g.game_points)}" for g in games] + [f"mean of {len(games)}, floor 1/3"])


def ogw(ctx: Context, player: str) -> Explained:
    rows = ctx.opponents(player)
    if not rows:
        return Fraction(0), ["no opponents yet"]
    lines = [f"{ctx.where(g)}: {ctx.name(o)} game-win {fmt(ctx.gwp(o))}" for g, o in rows]
    return _sum([ctx.gwp(o) for _, o in rows]) / len(rows), lines + [f"mean of {len(rows)}"]


def progressive(ctx: Context, player: str) -> Explained:
    games = ctx.games.get(player, ())
    running, total, lines = Fraction(0), Fraction(0), []
    if ctx.progressive == "rounds":  # the running score after every round, whether or not the player played it
        for r in range(1, (ctx.after or max((g.round for g in games), default=0)) + 1):
            running += sum((g.points for g in games if g.round == r), Fraction(0))
            total += running
            lines.append(f"after round {r}: {fmt(running)}")
        return total, lines
    for g in sorted(games, key=lambda g: g.round):  # as recorded before the fix: the rounds with a game only
        running += g.points
        total += running
        lines.append(f"after round {g.round}: {fmt(running)}")
    return total, lines


def score(ctx: Context, player: str) -> Explained:
    games = [g for g in ctx.games.get(player, ()) if g.score is not None]
    return _sum([Fraction(g.score or 0) for g in games]), [f"{ctx.where(g)}: {g.score}" for g in games]


def head_to_head(ctx: Context, player: str, level: Sequence[str]) -> Explained:
    """The shares ``player`` took from the other players in ``level`` (those level with it so far); FIDE's
    direct encounter only if every two of them met (:func:`.fide.direct_encounter`)."""
    if ctx.encounter == "fide":
        return direct_encounter(ctx.games, player, level, forfeits_meet=ctx.forfeits_meet, name=ctx.name)
    others = set(level) - {player}
    total, lines = Fraction(0), []
    for g, o in ctx.opponents(player):
        if o in others:
            total += g.against(o)
            lines.append(f"{ctx.name(o)} is level: {ctx.where(g)}: took {fmt(g.against(o))}")
    if not others:
        lines.append("nobody level on the tie-breaks before this one")
    return total, lines


PLAIN: dict[str, Callable[[Context, str], Explained]] = {
    "points": points,
    "game-points": game_points,
    "buchholz": buchholz,
    "buchholz-cut1": buchholz_cut1,
    "median-buchholz": median_buchholz,
    "sonneborn-berger": sonneborn_berger,
    "omw": omw,
    "gw": gw,
    "ogw": ogw,
    "progressive": progressive,
    "score": score,
}


def check(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` if every one is a tie-break (and none twice); otherwise a ValueError naming the one that
    is not and the ones there are."""
    seen: set[str] = set()
    for name in names:
        if name not in TIEBREAKS:
            raise ValueError(f"{name!r} is not a tie-break; choose from {', '.join(TIEBREAKS)}")
        if name in seen:
            raise ValueError(f"tie-break {name!r} is named twice")
        seen.add(name)
    if not names:
        raise ValueError(f"name at least one tie-break ({', '.join(TIEBREAKS)})")
    return tuple(names)
