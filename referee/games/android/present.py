"""How Android's table is drawn (the ``boards`` hook): the city map as its districts (Earth, the
Beanstalk, the Moon) with every location, who stands there, the leads, the scene of the crime, Lily and
Jimmy; the suspect sheets with their files (face-down tokens as the role sees them); the conspiracy
grid; then the seats' tableaux. Built from one role's view and the public map data only."""

from __future__ import annotations

from typing import Any

from referee.engine.present import seat_tableau
from schemas.board import Area, Board

from .data import cell
from .txn import BoundRules


def boards(rules: BoundRules, view: dict[str, Any]) -> tuple[Board, ...]:
    players = view.get("players")
    seats = {s: players[s] for s in rules.players if s in players} if isinstance(players, dict) else None
    tableau = seat_tableau({"players": _sorted(seats)}) if seats else None
    out = [b for b in (city(rules, view), suspects(view), conspiracy(rules, view), tableau) if b is not None]
    return tuple(out)


def city(rules: BoundRules, view: dict[str, Any]) -> Board | None:
    players = view.get("players")
    if not isinstance(players, dict) or not view.get("leads"):
        return None
    here: dict[str, list[str]] = {}
    for seat in sorted(players):
        p = players[seat]
        if isinstance(p, dict) and p.get("location"):
            here.setdefault(p["location"], []).append(f"{seat} ({p.get('detective')})")
    leads: dict[str, list[str]] = {}
    for t, row in sorted((view.get("leads") or {}).items()):
        for owner, loc in sorted(row.items()):
            if loc != "box":
                leads.setdefault(loc, []).append(f"lead {t} ({owner})")
    scene = view.get("scene") or {}
    areas = []
    for lid in rules.map.order:
        loc = rules.loc(lid)
        lines = [f"detective {x}" for x in here.get(lid, [])] + leads.get(lid, [])
        if scene.get("location") == lid:
            lines.append("scene of the crime" + (f" (hero: {scene['hero']})" if scene.get("hero") else ""))
        for who in ("lily_lockwell", "jimmy_the_snitch"):
            if view.get(who) == lid:
                lines.append(who.replace("_", " "))
        for a in (view.get("events") or {}).get("active") or []:
            if a.get("location") == lid:
                lines.append(f"event ability {a.get('event')}")
        label = ", ".join(x for x in (loc.coord, loc.district, loc.type, loc.quality,
                                      "major" if loc.major else "", "restricted" if loc.restricted else "") if x)
        areas.append(Area(id=lid, label=label, lines=tuple(lines)))
    return Board(title=f"New Angeles and Heinlein (map {rules.map.map_id})", layout="regions", areas=tuple(areas),
                 covers=("leads", "scene", "lily_lockwell", "jimmy_the_snitch"))


def suspects(view: dict[str, Any]) -> Board | None:
    sus = view.get("suspects")
    if not isinstance(sus, dict) or not sus:
        return None
    areas = []
    for sid, s in sorted(sus.items()):
        for file, tokens in sorted((s.get("files") or {}).items()):
            lines = tuple(f"{t.get('kind')} ({'up' if t.get('face_up') else 'down'}, {t.get('placed_by')})" for t in tokens)
            areas.append(Area(id=f"{sid}.{file}", row=sid, col=file, lines=lines))
        extra = [f"alibis {s.get('alibis', 0)}", f"hits {s.get('hits', 0)}"] + ([] if s.get("alive", True) else ["killed"])
        areas.append(Area(id=f"{sid}.sheet", row=sid, col="sheet", lines=tuple(extra)))
    return Board(title="Suspects", layout="grid", areas=tuple(areas), covers=("suspects",))


def conspiracy(rules: BoundRules, view: dict[str, Any]) -> Board | None:
    pz = view.get("puzzle")
    if not isinstance(pz, dict) or not pz.get("placed"):
        return None
    p = rules.data.puzzle
    areas = []
    for r in range(p.rows):
        for c in range(p.cols):
            at = (pz.get("placed") or {}).get(cell(r, c))
            lines = (f"{at['piece']} @{at.get('rotation', 0)}",) if at else ()
            areas.append(Area(id=cell(r, c), row=f"r{r}", col=f"c{c}", lines=lines))
    return Board(title="Conspiracy", layout="grid", areas=tuple(areas), covers=("puzzle",))


def _sorted(value: Any) -> Any:
    """A view's mappings in key order (a state decoded from a snapshot and a live one order them alike)."""
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    return value


def name_of(rules: BoundRules, id: str) -> str | None:
    """The printed name of a location of the match's map, a detective, a suspect, a card, an event card
    or a murder (the data set's public facts); None for an id with none."""
    d = rules.data
    for table in (rules.map.locations, d.detectives, d.suspects, d.cards, d.events, d.murders):
        found = table.get(id)
        if found is not None:
            return str(found.name) if found.name and found.name != id else None
    return None
