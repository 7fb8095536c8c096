"""The checks of a starting position (§8.0 stage 3, §1.2 invariants) that name what a scenario's author
got wrong: every id a position writes is one of the data set's, every counter is in its range, and the
supplies a position lists add up. :func:`seats` runs before the bookkeeping is completed (it needs the
seats), :func:`check` after. A failure raises the game's position refusal naming the path (:func:`refused`,
said through the catalog). Pure."""

from __future__ import annotations


from typing import Any

from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from .codes import Code
from .data import EVIDENCE, LEAD_TYPES, PILES, parse_cell
from .model import State
from .txn import BoundRules


def refused(template: str, /, **values: Any) -> ConfigError:
    """A starting position refused (the game's position code): ``template`` (marked ``N_``) said with ``values``."""
    return ConfigError.said(Code.SETUP_INVALID_POSITION, template, **values)


def _need(ok: bool, path: str, template: str, /, **values: Any) -> None:
    """Refuse the position at ``path`` unless ``ok``: ``template`` (marked ``N_``, starting with the path)
    says why, with ``values``."""
    if not ok:
        raise refused(template, path=path, **values)


def seats(rules: BoundRules, state: State) -> None:
    """The seats a position names (the turn's bookkeeping is completed from them)."""
    known = set(rules.players)
    for path, seat in (("active_seat", state.active_seat), ("time_sheet_holder", state.time_sheet_holder),
                       ("first_player", state.first_player), ("scene.hero", state.scene.hero)):
        _need(seat is None or seat in known, path, N_("position path '{path}': {seat!r} is not a seat ({seats})"),
              seat=seat, seats=", ".join(rules.players))
    for path, group in (("turn_order", state.turn_order), ("turns_done", state.turns_done)):
        bad = [s for s in group if s not in known]
        _need(not bad and len(set(group)) == len(group), path,
              N_("position path '{path}': {group} must name each seat at most once"), group=list(group))
    if state.turn_order:
        _need(sorted(state.turn_order) == sorted(rules.players) and state.turn_order == rules.rotation(state.turn_order[0]),
              "turn_order", N_("position path '{path}': {order} is not the seats clockwise from one of them"),
              order=list(state.turn_order))
    if state.phase != "setup":
        _need(1 <= state.day <= rules.data.last_day, "day",
              N_("position path '{path}': {day} is not a day of the calendar (1..{last})"), day=state.day,
              last=rules.data.last_day)
    _need(state.time_left >= 0, "time_left", N_("position path '{path}': {value} is below 0"), value=state.time_left)


def check(rules: BoundRules, state: State) -> None:  # noqa: C901 - one block per part of the table
    data, locs = rules.data, rules.map.locations
    for where, loc in (("scene.location", state.scene.location), ("lily_lockwell", state.lily_lockwell),
                       ("jimmy_the_snitch", state.jimmy_the_snitch)):
        _need(loc is None or loc in locs, where, N_("position path '{path}': {location!r} is not a location of map {map}"),
              location=loc, map=rules.map.map_id)
    for t, row in state.leads.items():
        for owner, loc in row.items():
            _need(t in LEAD_TYPES and (loc == "box" or loc in locs), f"leads.{t}.{owner}",
                  N_("position path '{path}': {location!r} is not a location or box"), location=loc)
    for s, p in state.players.items():
        at = f"players.{s}"
        if not p.detective:
            continue
        d = data.detectives[p.detective]
        _need(p.location in locs, f"{at}.location",
              N_("position path '{path}': {location!r} is not a location of map {map}"), location=p.location,
              map=rules.map.map_id)
        lo, hi = rules.track(p.detective)
        _need(lo <= p.twilight <= hi, f"{at}.twilight",
              N_("position path '{path}': {value} is off the twilight track ({lo}..{hi})"), value=p.twilight, lo=lo,
              hi=hi)
        unknown = [c for c in p.hand if c not in data.cards]
        _need(not unknown, f"{at}.hand", N_("position path '{path}': {cards}: not twilight cards of the data set"),
              cards=", ".join(unknown))
        mem = {c for x in data.detectives.values() for c in x.memory_cards}
        _need(p.memory_card is None or p.memory_card in mem, f"{at}.memory_card",
              N_("position path '{path}': {card!r} is not a memory card"), card=p.memory_card)
        _need(p.plot is None or p.plot.current in {x for x, _e in d.plots}, f"{at}.plot.current",
              N_("position path '{path}': {plot!r} is not a plot of {detective}"),
              plot=p.plot.current if p.plot else "", detective=p.detective)
        _need(p.warrant_supply >= 0 and p.warrant_supply + len(p.warrants) == 2, f"{at}.warrant_supply",
              N_("position path '{path}': {unplaced} unplaced and {placed} placed make not 2 warrants"),
              unplaced=p.warrant_supply, placed=len(p.warrants))
        _need(all(w in locs for w in p.warrants), f"{at}.warrants",
              N_("position path '{path}': {warrants}: not all locations"), warrants=list(p.warrants))
        used = (state.scene.hero == s) + (state.puzzle.markers.get(s, "box") != "box") + int(d.hero_setup.get("hero_markers", 0))
        _need(0 <= p.hero_markers_free <= 5 - used, f"{at}.hero_markers_free",
              N_("position path '{path}': {free} free with {used} in use is more than 5 hero markers"),
              free=p.hero_markers_free, used=used)
        tokens = {n: t for n, _st, t in d.npcs}
        for n, npc in p.npc.items():
            _need(n in tokens, f"{at}.npc.{n}", N_("position path '{path}': {npc!r} is not one of {detective}'s NPCs ({npcs})"),
                  npc=n, detective=p.detective, npcs=", ".join(tokens))
            _need(npc.favor_supply >= 0 and npc.favor_supply + p.npc_favors.get(n, 0) == tokens[n],
                  f"{at}.npc.{n}.favor_supply", N_("position path '{path}': {supply} by the sheet and {gained} gained "
                                                   "make not {tokens} favor tokens"),
                  supply=npc.favor_supply, gained=p.npc_favors.get(n, 0), tokens=tokens[n])
        bad_npc = [n for n in p.npc_favors if n not in tokens]
        _need(not bad_npc, f"{at}.npc_favors", N_("position path '{path}': {npcs}: not {detective}'s NPCs"),
              npcs=", ".join(bad_npc), detective=p.detective)
        for word, value in (("trauma", p.trauma), ("dropship_passes", p.dropship_passes), *p.favors.items(), *p.tokens.items()):
            _need(value >= 0, f"{at}.{word}", N_("position path '{path}': {value} is below 0"), value=value)
    for sus, st in state.suspects.items():
        for f, toks in st.files.items():
            for i, tok in enumerate(toks):
                _need(f in LEAD_TYPES and tok.kind in EVIDENCE and tok.placed_by in state.players,
                      f"suspects.{sus}.files.{f}.{i}", N_(
                          "position path '{path}': {kind!r} placed by {seat!r}: expected an evidence kind ({kinds}) "
                          "placed by a seat"), kind=tok.kind, seat=tok.placed_by, kinds=", ".join(EVIDENCE))
        _need(st.hits >= 0 and st.alibis >= 0, f"suspects.{sus}",
              N_("position path '{path}': hits and alibis are counts of 0 or more"))
    pz = state.puzzle
    for s, pile in pz.markers.items():
        _need(s in state.players and pile in (*PILES, "box"), f"puzzle.markers.{s}",
              N_("position path '{path}': {pile!r}: expected one of {piles}"), pile=pile, piles=", ".join((*PILES, "box")))
    seen: list[str] = [*pz.discarded, *(x.piece for x in pz.placed.values()), *(x for v in pz.piles.values() for x in v)]
    twice = sorted({x for x in seen if seen.count(x) > 1})
    _need(not twice, "puzzle", N_("position path '{path}': piece(s) {pieces} in two places"), pieces=", ".join(twice))
    center = data.puzzle.center_cell
    for cell, placement in pz.placed.items():
        rc = parse_cell(cell)
        inside = rc is not None and 0 <= rc[0] < data.puzzle.rows and 0 <= rc[1] < data.puzzle.cols
        piece = placement.piece
        _need(inside and (piece in data.puzzle.pieces or (cell == center and piece == "center")),
              f"puzzle.placed.{cell}", N_("position path '{path}': {piece!r} at {cell}: a piece of the data set inside "
                                          "the area"), piece=piece, cell=cell)
    for kind, pieces in pz.piles.items():
        wrong = [x for x in pieces if x not in data.puzzle.pieces or data.puzzle.pieces[x].type != kind]
        _need(kind in PILES and not wrong, f"puzzle.piles.{kind}", N_("position path '{path}': {pieces}: not {kind} pieces"),
              pieces=", ".join(wrong) or kind, kind=kind)
