"""Tie-breaks as FIDE's regulations C.07 (the 2023 text, in force for FIDE-rated events from April 2024)
compute them, for a tournament created with ``--unplayed fide`` or ``--direct-encounter fide``.

**Unplayed rounds** (Art. 16). A round in which a player had no game played at a table — a bye of any
kind, a result by forfeit, an absence, a pairing withdrawn, a round before a late entry or after a
drop — is an *unplayed round*:

* for the player's **own** Buchholz-like tie-breaks (Buchholz, its cuts, Sonneborn-Berger) it counts as
  a game against a dummy opponent whose score is the player's own final score (in Sonneborn-Berger,
  times what the player scored in that round: 1 for a full-point bye or a forfeit win, 1/2 for a
  half-point bye, 0 for an absence or a forfeit loss);
* a player's score as an **opponent** is their score, except that the rounds after they left the
  tournament (the rounds at the end in which they had nothing at all) count as draws;
* cutting the least significant value removes, first, an unplayed round the player chose: a
  half-point bye, an absence or a forfeit loss (not a full-point bye or a forfeit win, which the
  player did not choose).

**Direct encounter** (Art. 6): among players level on every tie-break before it, the points each scored
in the games among them — only if every two of them met; otherwise they stay level. A forfeit is not
a meeting, except in a round-robin, whose pairings were fixed before the event.

Exact fractions throughout, like :mod:`.tiebreaks`, whose lines explain each number the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from math import lcm

from .scoring import Game

#: one value a player's Buchholz adds up: (value times ``d``, chosen by the player (cut first), the share of it
#: Sonneborn-Berger takes times ``s``, the round, the opponent (None: a dummy opponent), what kind of
#: unplayed round)
Part = tuple[int, bool, int, int, str | None, str]


def _fmt(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.4f}".rstrip("0")


class Unplayed:
    """Every player's rounds 1..``after`` as Art. 16 reads them (``draw``: a draw's match points). Sums are
    taken in integers over common denominators (``d`` for points, ``s`` for shares) and made one exact
    fraction at the end, as :mod:`.exact` does."""

    def __init__(self, games: Mapping[str, Sequence[Game]], after: int, draw: Fraction,
                 name: Callable[[str], str] = str) -> None:
        self.games = games
        self.after = after or max((g.round for gs in games.values() for g in gs), default=0)
        self.draw = draw
        self.name = name
        d, s = draw.denominator, 1
        for gs in games.values():
            for g in gs:
                d = lcm(d, g.points.denominator)
                s = lcm(s, g.game_points.denominator, *(v.denominator for _, v in g.share))
        self.d, self.s = d, s
        self._score: dict[str, int] = {}
        self._adjusted: dict[str, tuple[int, int]] = {}
        self._parts: dict[str, list[Part]] = {}

    def _scaled(self, value: Fraction, by: int) -> int:
        return value.numerator * (by // value.denominator)

    def score(self, player: str) -> int:
        """The player's points times ``d``."""
        if player not in self._score:
            self._score[player] = sum(self._scaled(g.points, self.d) for g in self.games.get(player, ()))
        return self._score[player]

    def adjusted(self, player: str) -> tuple[int, int]:
        """``player``'s score as an opponent (times ``d``), and how many rounds after they left count as draws."""
        if player not in self._adjusted:
            rounds = {g.round for g in self.games.get(player, ())}
            last = max(rounds, default=self.after)
            gone = max(0, self.after - last)
            self._adjusted[player] = (self.score(player) + self._scaled(self.draw, self.d) * gone, gone)
        return self._adjusted[player]

    def _as_opponent(self, player: str) -> str:
        value, gone = self.adjusted(player)
        return f"{self.name(player)} has {_fmt(Fraction(value, self.d))}" + (
            f" ({gone} round(s) after leaving counted as draws)" if gone else "")

    def rounds(self, player: str) -> list[tuple[int, list[Game]]]:
        by_round: dict[int, list[Game]] = {}
        for g in self.games.get(player, ()):
            by_round.setdefault(g.round, []).append(g)
        return [(r, by_round.get(r, [])) for r in range(1, self.after + 1)]

    def parts(self, player: str) -> list[Part]:
        """Each value the player's Buchholz adds: (value, chosen by the player, the share Sonneborn-Berger
        takes of it, the round, the opponent (None: a dummy), what the round was)."""
        if player in self._parts:
            return self._parts[player]
        own = self.score(player)
        out: list[Part] = []
        for r, games in self.rounds(player):
            played = [g for g in games if g.played]
            if played:
                out.extend((self.adjusted(o)[0], False, self._scaled(g.against(o), self.s), r, o, "")
                           for g in played for o in g.opponents)
                continue
            what, chosen = _unplayed(games)
            out.append((own, chosen, sum(self._scaled(g.game_points, self.s) for g in games), r, None, what))
        self._parts[player] = out
        return out

    def _line(self, player: str, part: Part) -> str:
        value, _, _, r, opponent, what = part
        if opponent is not None:
            return f"round {r}: {self._as_opponent(opponent)}"
        return f"round {r}: {what}: a dummy opponent with {self.name(player)}'s own {_fmt(Fraction(value, self.d))}"

    def _cut_set(self, parts: list[Part], low: int, high: int) -> set[int]:
        # the least significant first: a round the player chose not to play, then the lowest value
        ordered = sorted(range(len(parts)), key=lambda i: (not parts[i][1], parts[i][0], i))
        cut = set(ordered[:low])
        rest = sorted((i for i in range(len(parts)) if i not in cut), key=lambda i: (parts[i][0], i))
        return cut | (set(rest[len(rest) - high:]) if high else set())

    def value(self, name: str, player: str, low: int = 0, high: int = 0, least: int = 0) -> Fraction:
        """Buchholz (``low``/``high``/``least``: its cut) or ``sonneborn-berger`` of ``player``, without lines."""
        parts = self.parts(player)
        if name == "sonneborn-berger":
            return Fraction(sum(p[2] * p[0] for p in parts), self.d * self.s)
        cut = self._cut_set(parts, low, high) if (low or high) and len(parts) >= least else set()
        return Fraction(sum(p[0] for i, p in enumerate(parts) if i not in cut), self.d)

    def buchholz(self, player: str) -> tuple[Fraction, list[str]]:
        return self.value("buchholz", player), [self._line(player, p) for p in self.parts(player)]

    def cut(self, player: str, low: int, high: int, least: int) -> tuple[Fraction, list[str]]:
        parts = self.parts(player)
        lines = [self._line(player, p) for p in parts]
        if len(parts) < least:
            return self.value("buchholz", player), lines + [f"nothing cut ({len(parts)} values)"]
        for i in sorted(self._cut_set(parts, low, high)):
            lines.append(f"cut: {self._line(player, parts[i])}")
        return self.value("buchholz", player, low, high, least), lines

    def sonneborn_berger(self, player: str) -> tuple[Fraction, list[str]]:
        lines = [f"{self._line(player, p)}; took {_fmt(Fraction(p[2], self.s))} = {_fmt(Fraction(p[2] * p[0], self.d * self.s))}"
                 for p in self.parts(player)]
        return self.value("sonneborn-berger", player), lines


def _unplayed(games: Sequence[Game]) -> tuple[str, bool]:
    """What kind of unplayed round this is, and whether the player chose it (cut first)."""
    if not games:
        return "no game (absent, not paired or not in the event)", True
    g = games[0]
    if g.forfeit:
        return ("won by forfeit", False) if g.game_points else ("lost by forfeit", True)
    if g.source == "half-bye":
        return "half-point bye", True
    return "bye", False


def direct_encounters(games: Mapping[str, Sequence[Game]], level: Sequence[str], *,
                      forfeits_meet: bool) -> tuple[dict[str, Fraction], tuple[str, str] | None]:
    """Each of ``level``'s points against the others if every two of them met (else 0 for all), and the
    first two who did not meet (None: all met)."""
    group = sorted(set(level))
    members = set(group)
    took: dict[str, Fraction] = {p: Fraction(0) for p in group}
    met: set[frozenset[str]] = set()
    for p in group:
        for g in games.get(p, ()):
            if g.played or (forfeits_meet and g.forfeit):
                for o in g.opponents:
                    if o in members:
                        met.add(frozenset((p, o)))
                        took[p] += g.game_points if g.forfeit else g.against(o)
    for i, a in enumerate(group):
        for b in group[i + 1:]:
            if frozenset((a, b)) not in met:
                return {p: Fraction(0) for p in group}, (a, b)
    return took, None


def direct_encounter(games: Mapping[str, Sequence[Game]], player: str, level: Sequence[str], *,
                     forfeits_meet: bool, name: Callable[[str], str] = str) -> tuple[Fraction, list[str]]:
    """The points ``player`` scored against the others in ``level`` if every two of them met; 0 otherwise."""
    group = sorted(set(level))
    if len(group) < 2:
        return Fraction(0), ["nobody level on the tie-breaks before this one"]
    took, missing = direct_encounters(games, group, forfeits_meet=forfeits_meet)
    if missing is not None:
        a, b = missing
        return Fraction(0), [f"level with {', '.join(name(o) for o in group if o != player)}; "
                             f"{name(a)} and {name(b)} did not meet: they stay level"]
    lines = [f"round {g.round}: took {_fmt(g.game_points if g.forfeit else g.against(o))} from {name(o)}"
             + (" (by forfeit)" if g.forfeit else "")
             for g in games.get(player, ()) if g.played or (forfeits_meet and g.forfeit)
             for o in g.opponents if o in group]
    return took[player], lines
