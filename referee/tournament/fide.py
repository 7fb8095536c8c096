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

from .scoring import Game

#: one value a player's Buchholz adds up: (value, chosen by the player (cut first), the line explaining it)
Part = tuple[Fraction, bool, str]


def _fmt(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.4f}".rstrip("0")


class Unplayed:
    """Every player's rounds 1..``after`` as Art. 16 reads them (``draw``: a draw's match points)."""

    def __init__(self, games: Mapping[str, Sequence[Game]], after: int, draw: Fraction,
                 name: Callable[[str], str] = str) -> None:
        self.games = games
        self.after = after or max((g.round for gs in games.values() for g in gs), default=0)
        self.draw = draw
        self.name = name
        self._score: dict[str, Fraction] = {}
        self._adjusted: dict[str, tuple[Fraction, int]] = {}

    def score(self, player: str) -> Fraction:
        if player not in self._score:
            self._score[player] = sum((g.points for g in self.games.get(player, ())), Fraction(0))
        return self._score[player]

    def adjusted(self, player: str) -> tuple[Fraction, int]:
        """``player``'s score as an opponent, and how many rounds after they left count as draws."""
        if player not in self._adjusted:
            rounds = {g.round for g in self.games.get(player, ())}
            last = max(rounds, default=self.after)
            gone = max(0, self.after - last)
            self._adjusted[player] = (self.score(player) + self.draw * gone, gone)
        return self._adjusted[player]

    def _as_opponent(self, player: str) -> str:
        value, gone = self.adjusted(player)
        return f"{self.name(player)} has {_fmt(value)}" + (f" ({gone} round(s) after leaving counted as draws)"
                                                            if gone else "")

    def rounds(self, player: str) -> list[tuple[int, list[Game]]]:
        by_round: dict[int, list[Game]] = {}
        for g in self.games.get(player, ()):
            by_round.setdefault(g.round, []).append(g)
        return [(r, by_round.get(r, [])) for r in range(1, self.after + 1)]

    def parts(self, player: str) -> list[tuple[Part, Fraction]]:
        """Each value the player's Buchholz adds, with the share of it Sonneborn-Berger takes."""
        own = self.score(player)
        out: list[tuple[Part, Fraction]] = []
        for r, games in self.rounds(player):
            played = [g for g in games if g.played]
            if played:
                for g in played:
                    for o in g.opponents:
                        out.append(((self.adjusted(o)[0], False, f"round {r}: {self._as_opponent(o)}"), g.against(o)))
                continue
            took = sum((g.game_points for g in games), Fraction(0))
            what, chosen = _unplayed(games)
            out.append(((own, chosen, f"round {r}: {what}: a dummy opponent with {self.name(player)}'s own "
                                      f"{_fmt(own)}"), took))
        return out

    def buchholz(self, player: str) -> tuple[Fraction, list[str]]:
        parts = [p for p, _ in self.parts(player)]
        return sum((v for v, _, _ in parts), Fraction(0)), [line for _, _, line in parts]

    def cut(self, player: str, low: int, high: int, least: int) -> tuple[Fraction, list[str]]:
        parts = [p for p, _ in self.parts(player)]
        lines = [line for _, _, line in parts]
        if len(parts) < least:
            return sum((v for v, _, _ in parts), Fraction(0)), lines + [f"nothing cut ({len(parts)} values)"]
        # the least significant first: a round the player chose not to play, then the lowest value
        ordered = sorted(range(len(parts)), key=lambda i: (not parts[i][1], parts[i][0], i))
        cut = set(ordered[:low])
        rest = sorted((i for i in range(len(parts)) if i not in cut), key=lambda i: (parts[i][0], i))
        cut |= set(rest[len(rest) - high:]) if high else set()
        for i in sorted(cut):
            lines.append(f"cut: {parts[i][2]}")
        return sum((v for i, (v, _, _) in enumerate(parts) if i not in cut), Fraction(0)), lines

    def sonneborn_berger(self, player: str) -> tuple[Fraction, list[str]]:
        total, lines = Fraction(0), []
        for (value, _, line), took in self.parts(player):
            total += took * value
            lines.append(f"{line}; took {_fmt(took)} = {_fmt(took * value)}")
        return total, lines


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


def direct_encounter(games: Mapping[str, Sequence[Game]], player: str, level: Sequence[str], *,
                     forfeits_meet: bool, name: Callable[[str], str] = str) -> tuple[Fraction, list[str]]:
    """The points ``player`` scored against the others in ``level`` if every two of them met; 0 otherwise."""
    group = sorted(set(level))
    if len(group) < 2:
        return Fraction(0), ["nobody level on the tie-breaks before this one"]

    def meetings(p: str) -> list[tuple[Game, str]]:
        return [(g, o) for g in games.get(p, ()) if g.played or (forfeits_meet and g.forfeit)
                for o in g.opponents if o in group]

    met = {frozenset((p, o)) for p in group for _, o in meetings(p)}
    missing = [(a, b) for i, a in enumerate(group) for b in group[i + 1:] if frozenset((a, b)) not in met]
    if missing:
        a, b = missing[0]
        return Fraction(0), [f"level with {', '.join(name(o) for o in group if o != player)}; "
                             f"{name(a)} and {name(b)} did not meet: they stay level"]
    total, lines = Fraction(0), []
    for g, o in meetings(player):
        took = g.game_points if g.forfeit else g.against(o)
        total += took
        lines.append(f"round {g.round}: took {_fmt(took)} from {name(o)}" + (" (by forfeit)" if g.forfeit else ""))
    return total, lines
