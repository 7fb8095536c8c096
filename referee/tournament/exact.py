"""The tie-breaks' values for the standings table, in integers: every game's fractions (points, points
possible, game points, shares) scaled once to a common denominator, each player's sums taken once, and
each value built as one exact :class:`~fractions.Fraction` at the end (issue 27: the ``Fraction``
arithmetic of :mod:`.tiebreaks` cost most of the standings of a large event).

The values equal :mod:`.tiebreaks`' (a property test compares them on random events); that module keeps
the definitions and the lines that explain each number (``tournament explain``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import lcm

from .fide import Unplayed, direct_encounters
from .scoring import Game


class Scaled:
    """The games of every player as integers over one denominator ``d``."""

    def __init__(self, games: Mapping[str, Sequence[Game]], after: int = 0, progressive: str = "games") -> None:
        self.after = after
        self.progressive = progressive
        d = 1
        for gs in games.values():
            for g in gs:
                d = lcm(d, g.points.denominator, g.possible.denominator, g.game_points.denominator,
                        *(v.denominator for _, v in g.share))
        self.d = d
        self.games = games
        self.pts: dict[str, int] = {}
        self.poss: dict[str, int] = {}
        self.gp: dict[str, int] = {}
        self.count: dict[str, int] = {}
        #: each played game's opponents with the share taken from them (scaled), in the games' order
        self.opp: dict[str, list[tuple[str, int]]] = {}
        for p, gs in games.items():
            self.pts[p] = sum(g.points.numerator * (d // g.points.denominator) for g in gs)
            self.poss[p] = sum(g.possible.numerator * (d // g.possible.denominator) for g in gs)
            self.gp[p] = sum(g.game_points.numerator * (d // g.game_points.denominator) for g in gs)
            self.count[p] = len(gs)
            rows = []
            for g in gs:
                if not g.played:
                    continue
                shares = dict(g.share)
                for o in g.opponents:
                    v = shares.get(o)
                    rows.append((o, v.numerator * (d // v.denominator) if v is not None else 0))
            self.opp[p] = rows

    def points_of(self, p: str) -> int:
        return self.pts.get(p, 0)

    def _mwp_scale(self) -> int:
        """A denominator every opponent's match-win % (at least 1/3) is a whole number of."""
        m = 3
        for v in set(self.poss.values()):
            if v:
                m = lcm(m, v)
        return m

    def _gwp_scale(self) -> int:
        m = 3
        for n in set(self.count.values()):
            if n:
                m = lcm(m, self.d * n)
        return m

    def mwp(self, p: str, m: int) -> int:
        """``p``'s match-win % times ``m`` (at least ``m / 3``)."""
        poss = self.poss.get(p, 0)
        return max(m // 3, self.pts[p] * (m // poss)) if poss else m // 3

    def gwp(self, p: str, m: int) -> int:
        n = self.count.get(p, 0)
        return max(m // 3, self.gp[p] * (m // (self.d * n))) if n else m // 3

    def value(self, name: str, p: str, scales: dict[str, int]) -> Fraction:
        """Tie-break ``name`` (any but head-to-head) of player ``p``."""
        d = self.d
        opp = self.opp.get(p, [])
        if name == "points":
            return Fraction(self.points_of(p), d)
        if name == "game-points":
            return Fraction(self.gp.get(p, 0), d)
        if name == "buchholz":
            return Fraction(sum(self.points_of(o) for o, _ in opp), d)
        if name in ("buchholz-cut1", "median-buchholz"):
            low, high, least = (1, 0, 2) if name == "buchholz-cut1" else (1, 1, 3)
            rows = [self.points_of(o) for o, _ in opp]
            if len(rows) < least:
                return Fraction(sum(rows), d)
            ordered = sorted(rows)
            kept = ordered[low:len(ordered) - high]
            return Fraction(sum(kept), d)
        if name == "sonneborn-berger":
            return Fraction(sum(took * self.points_of(o) for o, took in opp), d * d)
        if name == "omw":
            if not opp:
                return Fraction(0)
            m = scales.setdefault("mwp", self._mwp_scale())
            return Fraction(sum(self.mwp(o, m) for o, _ in opp), m * len(opp))
        if name == "gw":
            n = self.count.get(p, 0)
            if not n:
                return Fraction(0)
            return Fraction(self.gp[p], d * n) if 3 * self.gp[p] >= d * n else Fraction(1, 3)
        if name == "ogw":
            if not opp:
                return Fraction(0)
            m = scales.setdefault("gwp", self._gwp_scale())
            return Fraction(sum(self.gwp(o, m) for o, _ in opp), m * len(opp))
        if name == "progressive":
            games = self.games.get(p, ())
            if self.progressive == "rounds":  # a round's points count in the running score of it and every later one
                n = self.after or max((g.round for g in games), default=0)
                return Fraction(sum(g.points.numerator * (d // g.points.denominator) * (n - g.round + 1)
                                    for g in games if g.round <= n), d)
            running = total = 0
            for g in sorted(games, key=lambda g: g.round):
                running += g.points.numerator * (d // g.points.denominator)
                total += running
            return Fraction(total, d)
        if name == "score":
            return Fraction(sum(g.score or 0 for g in self.games.get(p, ()) if g.score is not None))
        raise KeyError(name)

    def head_to_head(self, p: str, level: Sequence[str]) -> Fraction:
        others = set(level) - {p}
        return Fraction(sum(took for o, took in self.opp.get(p, []) if o in others), self.d)


#: the tie-breaks FIDE's handling of unplayed rounds changes (computed by :mod:`.fide`, in fractions)
FIDE_NAMES = {"buchholz": (0, 0, 0), "buchholz-cut1": (1, 0, 2), "median-buchholz": (1, 1, 3)}


def keys(games: Mapping[str, Sequence[Game]], players: Sequence[str], names: Sequence[str], *, after: int = 0,
         progressive: str = "games", fide: Unplayed | None = None, encounter: str = "partial",
         forfeits_meet: bool = False) -> dict[str, list[Fraction]]:
    """Each player's tie-break values, in the order of ``names``; head-to-head among the players level on
    every one before it. ``fide``: FIDE's unplayed rounds (Buchholz and its cuts, Sonneborn-Berger);
    ``encounter`` ``fide``: FIDE's direct encounter."""
    scaled = Scaled(games, after, progressive)
    scales: dict[str, int] = {}
    out: dict[str, list[Fraction]] = {p: [] for p in players}
    for name in names:
        if name == "head-to-head":
            groups: dict[tuple[Fraction, ...], list[str]] = {}
            for p in players:
                groups.setdefault(tuple(out[p]), []).append(p)
            for group in groups.values():
                took = direct_encounters(games, group, forfeits_meet=forfeits_meet)[0] if encounter == "fide" else {}
                for p in group:
                    out[p].append(took[p] if encounter == "fide" else scaled.head_to_head(p, group))
        elif fide is not None and name in FIDE_NAMES:
            low, high, least = FIDE_NAMES[name]
            for p in players:
                out[p].append(fide.value("buchholz", p, low, high, least))
        elif fide is not None and name == "sonneborn-berger":
            for p in players:
                out[p].append(fide.value("sonneborn-berger", p))
        else:
            for p in players:
                out[p].append(scaled.value(name, p, scales))
    return out
