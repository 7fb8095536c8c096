"""The checks of a starting position (§8.0 stage 3, §1.2 invariants) that name what a scenario's author
got wrong: every id a position writes is one of the data set's, every counter is in its range, and the
supplies a position lists add up. :func:`seats` runs before the bookkeeping is completed (it needs the
seats), :func:`check` after. A failure raises ``PositionError`` naming the path. Pure."""

from __future__ import annotations


from referee.engine.position import PositionError

from .data import EVIDENCE, LEAD_TYPES, PILES, parse_cell
from .model import State
from .txn import BoundRules


def _need(ok: bool, path: str, what: str) -> None:
    if not ok:
        raise PositionError(f"position path '{path}': {what}")


def seats(rules: BoundRules, state: State) -> None:
    """The seats a position names (the turn's bookkeeping is completed from them)."""
    known = set(rules.players)
    for path, seat in (("active_seat", state.active_seat), ("time_sheet_holder", state.time_sheet_holder),
                       ("first_player", state.first_player), ("scene.hero", state.scene.hero)):
        _need(seat is None or seat in known, path, f"{seat!r} is not a seat ({', '.join(rules.players)})")
    for path, group in (("turn_order", state.turn_order), ("turns_done", state.turns_done)):
        bad = [s for s in group if s not in known]
        _need(not bad and len(set(group)) == len(group), path, f"{list(group)} must name each seat at most once")
    if state.turn_order:
        _need(sorted(state.turn_order) == sorted(rules.players) and state.turn_order == rules.rotation(state.turn_order[0]),
              "turn_order", f"{list(state.turn_order)} is not the seats clockwise from one of them")
    if state.phase != "setup":
        _need(1 <= state.day <= rules.data.last_day, "day", f"{state.day} is not a day of the calendar (1..{rules.data.last_day})")
    _need(state.time_left >= 0, "time_left", f"{state.time_left} is below 0")


def check(rules: BoundRules, state: State) -> None:  # noqa: C901 - one block per part of the table
    data, locs = rules.data, rules.map.locations
    for where, loc in (("scene.location", state.scene.location), ("lily_lockwell", state.lily_lockwell),
                       ("jimmy_the_snitch", state.jimmy_the_snitch)):
        _need(loc is None or loc in locs, where, f"{loc!r} is not a location of map {rules.map.map_id}")
    for t, row in state.leads.items():
        for owner, loc in row.items():
            _need(t in LEAD_TYPES and (loc == "box" or loc in locs), f"leads.{t}.{owner}", f"{loc!r} is not a location or box")
    for s, p in state.players.items():
        at = f"players.{s}"
        if not p.detective:
            continue
        d = data.detectives[p.detective]
        _need(p.location in locs, f"{at}.location", f"{p.location!r} is not a location of map {rules.map.map_id}")
        lo, hi = rules.track(p.detective)
        _need(lo <= p.twilight <= hi, f"{at}.twilight", f"{p.twilight} is off the twilight track ({lo}..{hi})")
        unknown = [c for c in p.hand if c not in data.cards]
        _need(not unknown, f"{at}.hand", f"{', '.join(unknown)}: not twilight cards of the data set")
        mem = {c for x in data.detectives.values() for c in x.memory_cards}
        _need(p.memory_card is None or p.memory_card in mem, f"{at}.memory_card", f"{p.memory_card!r} is not a memory card")
        _need(p.plot is None or p.plot.current in {x for x, _e in d.plots}, f"{at}.plot.current",
              f"{p.plot.current if p.plot else ''!r} is not a plot of {p.detective}")
        _need(p.warrant_supply >= 0 and p.warrant_supply + len(p.warrants) == 2, f"{at}.warrant_supply",
              f"{p.warrant_supply} unplaced and {len(p.warrants)} placed make not 2 warrants")
        _need(all(w in locs for w in p.warrants), f"{at}.warrants", f"{list(p.warrants)}: not all locations")
        used = (state.scene.hero == s) + (state.puzzle.markers.get(s, "box") != "box") + int(d.hero_setup.get("hero_markers", 0))
        _need(0 <= p.hero_markers_free <= 5 - used, f"{at}.hero_markers_free",
              f"{p.hero_markers_free} free with {used} in use is more than 5 hero markers")
        tokens = {n: t for n, _st, t in d.npcs}
        for n, npc in p.npc.items():
            _need(n in tokens, f"{at}.npc.{n}", f"{n!r} is not one of {p.detective}'s NPCs ({', '.join(tokens)})")
            _need(npc.favor_supply >= 0 and npc.favor_supply + p.npc_favors.get(n, 0) == tokens[n],
                  f"{at}.npc.{n}.favor_supply", f"{npc.favor_supply} by the sheet and {p.npc_favors.get(n, 0)} gained "
                  f"make not {tokens[n]} favor tokens")
        bad_npc = [n for n in p.npc_favors if n not in tokens]
        _need(not bad_npc, f"{at}.npc_favors", f"{', '.join(bad_npc)}: not {p.detective}'s NPCs")
        for word, value in (("trauma", p.trauma), ("dropship_passes", p.dropship_passes), *p.favors.items(), *p.tokens.items()):
            _need(value >= 0, f"{at}.{word}", f"{value} is below 0")
    for sus, st in state.suspects.items():
        for f, toks in st.files.items():
            for i, tok in enumerate(toks):
                _need(f in LEAD_TYPES and tok.kind in EVIDENCE and tok.placed_by in state.players,
                      f"suspects.{sus}.files.{f}.{i}", f"{tok.kind!r} placed by {tok.placed_by!r}: expected an evidence "
                      f"kind ({', '.join(EVIDENCE)}) placed by a seat")
        _need(st.hits >= 0 and st.alibis >= 0, f"suspects.{sus}", "hits and alibis are counts of 0 or more")
    pz = state.puzzle
    for s, pile in pz.markers.items():
        _need(s in state.players and pile in (*PILES, "box"), f"puzzle.markers.{s}", f"{pile!r}: expected one of "
              f"{', '.join((*PILES, 'box'))}")
    seen: list[str] = [*pz.discarded, *(x.piece for x in pz.placed.values()), *(x for v in pz.piles.values() for x in v)]
    twice = sorted({x for x in seen if seen.count(x) > 1})
    _need(not twice, "puzzle", f"piece(s) {', '.join(twice)} in two places")
    center = data.puzzle.center_cell
    for cell, placement in pz.placed.items():
        rc = parse_cell(cell)
        inside = rc is not None and 0 <= rc[0] < data.puzzle.rows and 0 <= rc[1] < data.puzzle.cols
        piece = placement.piece
        _need(inside and (piece in data.puzzle.pieces or (cell == center and piece == "center")),
              f"puzzle.placed.{cell}", f"{piece!r} at {cell}: a piece of the data set inside the area")
    for kind, pieces in pz.piles.items():
        wrong = [x for x in pieces if x not in data.puzzle.pieces or data.puzzle.pieces[x].type != kind]
        _need(kind in PILES and not wrong, f"puzzle.piles.{kind}", f"{', '.join(wrong) or kind}: not {kind} pieces")
