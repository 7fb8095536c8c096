"""Pairings: Swiss by a maximum-weight matching, round-robin by Berger tables, pods by score.

Pure functions of the entrants (their scores, ranks, byes, seats so far), the opponents already met
and a seed: the same input pairs the same way. The drawing of lots is a :class:`random.Random` seeded
with the tournament's seed and the round (never the global generator, never the clock).

**Swiss.** Every pair of players is an edge whose weight is a large constant less a cost that is
lexicographic by construction (each level's unit outweighs every lower level summed over a round):

1. a rematch (or a second bye) — avoided whenever a pairing without one exists;
2. the distance between the two score groups, squared — players meet their own score group first,
   and a player who must float floats as little as possible;
3. both players due the same first seat (colour) — avoided where the groups allow (in fields of up
   to 256 players; above, the first seat is settled within each pair only, as it is for every pair);
4. the distance between the two players in an order drawn by lot within each score group (so
   neighbours in the draw meet; the drawn order is smooth for the matching, where random weights
   would slow it tenfold).

An odd player out meets a *bye* node that sits one score group below the lowest, its cost rising with
rank: the bye goes to the lowest-ranked player who has not had one. rustworkx's maximum-weight
matching (Edmonds' blossom algorithm, in Rust) finds the best pairing with every player paired. A big
field gets the edges of each player to the ``window`` nearest in the drawn order, rematches left out,
and the whole graph (rematches in, at their cost) only if that leaves someone unpaired.

**Round-robin.** FIDE's Berger tables (the circle method in Berger's order); an odd field gets a bye
seat. Each player's Berger number is drawn by lot.

**Pods.** Tables of ``size`` seats (as even as the field allows, none smaller than the game's
least), filled in ranking order, then improved by swapping players between nearby tables while that
lowers (repeated opponents, score spread, lots); seats ordered so whoever sat late before sits early.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..i18n import N_
from .said import Said


class PairingError(Said):
    """The field cannot be paired as asked (too few players, a table size the game cannot seat)."""


@dataclass(frozen=True)
class Entrant:
    """A player to pair: their score, their rank now (0 = first), whether they had a bye, and their
    seats so far (0 = first) with the size of each table."""

    id: str
    score: Fraction
    rank: int
    had_bye: bool = False
    seats: tuple[tuple[int, int], ...] = ()

    @property
    def balance(self) -> int:
        """First seats less second seats in two-seat games (> 0: due a second seat)."""
        return sum(1 if s == 0 else -1 for s, n in self.seats if n == 2)


def lots(seed: int, round_: int, purpose: str) -> random.Random:
    """The drawing of lots of one round, for one purpose: a generator of its own, seeded."""
    return random.Random(f"referee:lots:{seed}:{round_}:{purpose}")


@dataclass
class Pairing:
    """Tables (players in seat order) and the players given a bye."""

    tables: list[tuple[str, ...]]
    byes: list[str]


def _groups(entrants: Sequence[Entrant]) -> dict[str, int]:
    """Each player's score group: 0 for the highest score, counting down by distinct scores."""
    scores = sorted({e.score for e in entrants}, reverse=True)
    index = {s: i for i, s in enumerate(scores)}
    return {e.id: index[e.score] for e in entrants}


BYE = "\x00bye"
#: the largest field whose matching weighs the first-seat preference: that term varies from player to
#: player like noise, and a 2,048-player round took 4-12 s with it instead of about 1 s
COLOUR_FIELD = 256


def swiss(entrants: Sequence[Entrant], met: set[frozenset[str]], seed: int, round_: int, *,
          window: int = 40, colours: bool | None = None) -> Pairing:
    """A Swiss round (see the module's docstring). ``colours``: whether the first-seat preference enters
    the matching (default: for fields of up to :data:`COLOUR_FIELD` players)."""
    if len(entrants) < 2:
        raise PairingError(N_("a Swiss round needs two players or more; {n} can play"), n=len(entrants))
    import rustworkx as rx

    standing = sorted(entrants, key=lambda e: (e.rank, e.id))
    place = {e.id: i for i, e in enumerate(standing)}  # ranks among those paired (dropped players leave gaps)
    rng = lots(seed, round_, "swiss")
    group = _groups(standing)
    # the drawing of lots orders each score group; neighbours in that order are paired by preference
    ordered: list[Entrant] = []
    for g in range(max(group.values()) + 1):
        members = [e for e in standing if group[e.id] == g]
        rng.shuffle(members)
        ordered.extend(members)
    n = len(ordered)
    if colours is None:
        colours = n <= COLOUR_FIELD
    nodes: list[Entrant | None] = list(ordered)
    odd = n % 2 == 1
    if odd:
        nodes.append(None)  # the bye
    deepest = max(group.values()) + 1
    m = len(nodes)
    lot = window * window + 1
    colour = lot * (m + 1)
    spread = 4 * colour * (m + 1)
    rematch = spread * (deepest + 1) ** 2 * (m + 1)
    base = 4 * rematch

    def cost(i: int, j: int | None) -> int:
        """The cost of pairing ``ordered[i]`` with ``ordered[j]`` (None: the bye). The lowest level, the
        distance in the drawn order, is smooth on purpose: a matching over weights with random noise
        in them takes Edmonds' algorithm ten times longer."""
        a = ordered[i]
        if j is None:
            d = deepest - group[a.id]
            return (rematch if a.had_bye else 0) + spread * d * d + colour * (n - place[a.id]) // (n + 1)
        b = ordered[j]
        d = group[a.id] - group[b.id]
        c = spread * d * d + min(abs(j - i), window) ** 2
        if frozenset((a.id, b.id)) in met:
            c += rematch
        if colours:
            ba, bb = a.balance, b.balance
            if (ba > 0 and bb > 0) or (ba < 0 and bb < 0):
                c += colour
        return c

    def solve(full: bool) -> set[tuple[int, int]]:
        graph = rx.PyGraph()
        graph.add_nodes_from(range(m))
        for i in range(n):
            stop = n if full else min(n, i + window + 1)
            for j in range(i + 1, stop):
                if not full and frozenset((ordered[i].id, ordered[j].id)) in met:
                    continue  # a rematch only where nothing else pairs everyone: then in the full graph
                graph.add_edge(i, j, base - cost(i, j))
            if odd:
                graph.add_edge(i, n, base - cost(i, None))
        found: set[tuple[int, int]] = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: int(w))
        return found

    full = n <= 2 * window + 1
    matching = solve(full)
    if not full and (len(matching) * 2 < m or _has_rematch(matching, nodes, met)):
        matching = solve(True)
    if len(matching) * 2 < m:  # cannot happen in a complete graph
        raise PairingError(N_("the field could not be paired"))
    tables: list[tuple[int, tuple[str, ...]]] = []
    byes: list[str] = []
    for i, j in sorted(tuple(sorted(p)) for p in matching):
        a, b = nodes[i], nodes[j]
        if b is None or a is None:
            byes.append((a or b).id)  # type: ignore[union-attr]
            continue
        tables.append((min(place[a.id], place[b.id]), _first_seat(a, b, rng)))
    tables.sort()
    return Pairing(tables=[t for _, t in tables], byes=byes)


def _has_rematch(matching: set[tuple[int, int]], nodes: Sequence[Entrant | None], met: set[frozenset[str]]) -> bool:
    for i, j in matching:
        a, b = nodes[i], nodes[j]
        if a is not None and b is not None and frozenset((a.id, b.id)) in met:
            return True
    return False


def _first_seat(a: Entrant, b: Entrant, rng: random.Random) -> tuple[str, str]:
    """Who plays first: the one with fewer first seats; level, the lots decide."""
    if a.balance != b.balance:
        return (a.id, b.id) if a.balance < b.balance else (b.id, a.id)
    return (a.id, b.id) if rng.random() < 0.5 else (b.id, a.id)


def berger(players: Sequence[str], round_: int) -> Pairing:
    """Round ``round_`` (1-based) of a round-robin by Berger tables; ``players`` in Berger-number order.
    An odd field gets a bye seat (the last number): whoever meets it has the bye."""
    field = list(players)
    if len(field) < 2:
        raise PairingError(N_("a round-robin needs two players or more; {n} can play"), n=len(field))
    if len(field) % 2:
        field.append(BYE)
    n = len(field)
    rounds = n - 1
    if not 1 <= round_ <= rounds:
        raise PairingError(N_("a round-robin of {n} players has {rounds} rounds, not {round}"),
                           n=len(players), rounds=rounds, round=round_)
    half = n // 2
    start = ((round_ - 1) * half) % rounds  # 0-based position of the round's first player
    q = [field[(start + k) % rounds] for k in range(rounds)]
    last = field[n - 1]
    pairs = [(last, q[0]) if round_ % 2 == 0 else (q[0], last)]
    for i in range(1, half):
        pairs.append((q[i], q[rounds - i]))
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for a, b in pairs:
        if BYE in (a, b):
            byes.append(b if a == BYE else a)
        else:
            tables.append((a, b))
    return Pairing(tables=tables, byes=byes)


def table_sizes(n: int, size: int, least: int) -> list[int]:
    """Sizes of tables for ``n`` players at up to ``size`` seats, as even as possible, larger first."""
    if n < least:
        raise PairingError(N_("{n} players cannot fill a table of {least} or more"), n=n, least=least)
    count = -(-n // size)
    base, extra = divmod(n, count)
    if base < least:
        raise PairingError(N_("{n} players cannot sit at tables of {least} to {size} seats"),
                           n=n, least=least, size=size)
    return [base + 1] * extra + [base] * (count - extra)


def pods(entrants: Sequence[Entrant], met: Mapping[frozenset[str], int], seed: int, round_: int, *,
         size: int, least: int, passes: int = 20) -> Pairing:
    """A pods round (see the module's docstring)."""
    rng = lots(seed, round_, "pods")
    ordered = sorted(entrants, key=lambda e: (e.rank, e.id))
    # players level in score are drawn by lot within their group
    by_group: dict[Fraction, list[Entrant]] = {}
    for e in ordered:
        by_group.setdefault(e.score, []).append(e)
    drawn: list[Entrant] = []
    for score in sorted(by_group, reverse=True):
        members = by_group[score]
        rng.shuffle(members)
        drawn.extend(members)
    group = _groups(drawn)
    sizes = table_sizes(len(drawn), size, least)
    tables: list[list[Entrant]] = []
    at = 0
    for s in sizes:
        tables.append(drawn[at:at + s])
        at += s

    def cost(table: list[Entrant]) -> int:
        c = 0
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                c += 1000 * met.get(frozenset((a.id, b.id)), 0) + (group[a.id] - group[b.id]) ** 2
        return c

    for _ in range(passes):
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, min(len(tables), i + 3)):
                for x in range(len(tables[i])):
                    for y in range(len(tables[j])):
                        ti, tj = tables[i], tables[j]
                        before = cost(ti) + cost(tj)
                        ti[x], tj[y] = tj[y], ti[x]
                        if cost(ti) + cost(tj) < before:
                            improved = True
                        else:
                            ti[x], tj[y] = tj[y], ti[x]
        if not improved:
            break
    out = []
    for table in tables:
        out.append(tuple(e.id for e in _seat_order(table, rng)))
    return Pairing(tables=out, byes=[])


def _seat_order(table: list[Entrant], rng: random.Random) -> list[Entrant]:
    """Whoever sat latest before sits first: by the mean of their earlier seats (0 = first, 1 = last)."""
    def lateness(e: Entrant) -> Fraction:
        seats = [Fraction(s, n - 1) for s, n in e.seats if n > 1]
        return sum(seats, Fraction(0)) / len(seats) if seats else Fraction(1, 2)

    draw = {e.id: rng.random() for e in table}
    return sorted(table, key=lambda e: (-lateness(e), draw[e.id]))
