"""How Android's table is drawn (the ``boards`` hook): the city map as it lies (New Angeles on Earth,
the Beanstalk up to Heinlein on the Moon) with every location placed by its point in the map data, its
qualities and VP, who stands there, the leads and warrants, the scene of the crime, Lily and Jimmy; the suspect sheets with their files (face-down tokens as the role sees them); the conspiracy
grid; then the seats' tableaux. Built from one role's view and the public map data only."""

from __future__ import annotations

from typing import Any

from referee.engine import speech
from referee.engine.present import grid_of, placed, seat_tableau
from referee.engine.speech import gettext, pgettext
from schemas.board import Area, Board, Link, Piece

from .data import cell
from .txn import BoundRules


def boards(rules: BoundRules, view: dict[str, Any]) -> tuple[Board, ...]:
    players = view.get("players")
    seats = {s: players[s] for s in rules.players if s in players} if isinstance(players, dict) else None
    tableau = seat_tableau({"players": _sorted(seats)}) if seats else None
    out = [b for b in (city(rules, view), suspects(view), conspiracy(rules, view), tableau) if b is not None]
    return tuple(out)


#: the banks whose counters are worth VP at the end (§6.3): trauma costs 1 VP a unit; the tokens are worth
#: the option ``token_vp`` each
_VP_BANKS = ("trauma", "haas", "jinteki", "conspiracy")


def city(rules: BoundRules, view: dict[str, Any]) -> Board | None:
    """The map as it lies on the table: every location placed by its point in the map data (x to the
    east, y towards the Moon), so New Angeles' districts, the Beanstalk's line and Heinlein keep their
    shape; each with its qualities (type, quality, major, restricted), the bank it holds and what its
    counters are worth in VP, and who and what is there: detectives, leads, warrants, the scene of the
    crime, Lily and Jimmy, event abilities."""
    players = view.get("players")
    if not isinstance(players, dict) or not view.get("leads"):
        return None
    pieces: dict[str, list[Piece]] = {}
    lines: dict[str, list[str]] = {}

    def put(lid: Any, line: str, piece: Piece) -> None:
        if isinstance(lid, str) and lid:
            lines.setdefault(lid, []).append(line)
            pieces.setdefault(lid, []).append(piece)

    for seat in sorted(players):
        p = players[seat]
        if isinstance(p, dict):
            put(p.get("location"), f"detective {seat} ({p.get('detective')})",
                Piece(kind="detective", name=seat, owner=seat, notes=(str(p.get("detective")),)))
    for t, row in sorted((view.get("leads") or {}).items()):
        for owner, loc in sorted(row.items()):
            if loc != "box":
                put(loc, f"lead {t} ({owner})", Piece(kind="lead", name=t, notes=(owner,)))
    for seat in sorted(players):
        p = players[seat]
        for lid in (p.get("warrants") or ()) if isinstance(p, dict) else ():
            put(lid, f"warrant ({seat})", Piece(kind="warrant", name=seat, owner=seat))
    scene = view.get("scene") or {}
    put(scene.get("location"), "scene of the crime" + (f" (hero: {scene['hero']})" if scene.get("hero") else ""),
        Piece(kind="scene of the crime", name=str(scene.get("hero") or ""), owner=str(scene.get("hero") or "")))
    for who in ("lily_lockwell", "jimmy_the_snitch"):
        put(view.get(who), who.replace("_", " "), Piece(name=who.replace("_", " ")))
    for a in (view.get("events") or {}).get("active") or []:
        put(a.get("location"), f"event ability {a.get('event')}", Piece(kind="event ability", name=str(a.get("event"))))
    token_vp = rules.options.get("token_vp") or {}
    areas = []
    for lid in rules.map.order:
        loc = rules.loc(lid)
        worth = ("-1 VP each" if loc.bank == "trauma" else
                 f"{int(token_vp.get(loc.bank, 1)):+d} VP each" if loc.bank in _VP_BANKS else "")
        bank = f"{loc.bank.replace('_', ' ')} bank" + (f" ({worth})" if worth else "") if loc.bank else ""
        label = ", ".join(x for x in (loc.coord, loc.type, loc.quality, "major" if loc.major else "",
                                      "restricted" if loc.restricted else "", bank) if x)
        facts: list[tuple[str, str]] = [("district", loc.district.replace("_", " "))]
        if loc.ability is not None:
            facts.append(("ability", loc.ability.text))
        areas.append(Area(id=lid, label=label, lines=tuple(lines.get(lid, ())), pieces=tuple(pieces.get(lid, ())),
                          facts=tuple(facts)))
    bean = rules.map.beanstalk
    links = [Link(a=a, b=b, kind="beanstalk") for a, b in zip(bean, bean[1:])]
    at = grid_of((lid, rules.loc(lid).x, rules.loc(lid).y) for lid in rules.map.order)
    title = gettext("New Angeles, the Beanstalk and Heinlein (map {map})", map=rules.map.map_id)
    return placed(title, areas, at, links=links, covers=("leads", "scene", "lily_lockwell", "jimmy_the_snitch"))


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
    return Board(title=gettext("Suspects"), layout="grid", areas=tuple(areas), covers=("suspects",))


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
    return Board(title=pgettext("Android's puzzle", "Conspiracy"), layout="grid", areas=tuple(areas), covers=("puzzle",))


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
            return speech.name(found) if found.name and found.name != id or found.name_ru else None
    return None
