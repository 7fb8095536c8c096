"""How Android's table is drawn (the ``boards`` hook): the city map as it lies (New Angeles on Earth,
the Beanstalk up to Heinlein on the Moon) with every location placed by its point in the map data, its
qualities and VP, who stands there, the leads and warrants, the scene of the crime, Lily and Jimmy; the suspect sheets with their files (face-down tokens as the role sees them); the conspiracy
grid; then the seats' tableaux. Built from one role's view and the public map data only."""

from __future__ import annotations

from typing import Any

from referee.engine import speech
from referee.engine.present import grid_of, placed, seat_tableau
from referee.engine.present import sections as default_sections
from referee.engine.speech import gettext, ngettext, per_reader, pgettext, worded, worded_or
from schemas.board import Area, Board, Link, Piece

from .data import cell
from .txn import BoundRules


def boards(rules: BoundRules, view: dict[str, Any]) -> tuple[Board, ...]:
    players = view.get("players")
    seats = {s: players[s] for s in rules.players if s in players} if isinstance(players, dict) else None
    tableau = seat_tableau({"players": _sorted(seats)}, words=player_words(seats)) if seats else None
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
            put(p.get("location"), gettext("detective {seat} ({detective})", seat=seat, detective=p.get("detective")),
                Piece(kind="detective", name=seat, owner=seat, notes=(str(p.get("detective")),)))
    for t, row in sorted((view.get("leads") or {}).items()):
        for owner, loc in sorted(row.items()):
            if loc != "box":
                put(loc, gettext("lead {type} ({owner})", type=_lead(t), owner=owner), Piece(kind="lead", name=t, notes=(owner,)))
    for seat in sorted(players):
        p = players[seat]
        for lid in (p.get("warrants") or ()) if isinstance(p, dict) else ():
            put(lid, gettext("warrant ({seat})", seat=seat), Piece(kind="warrant", name=seat, owner=seat))
    scene = view.get("scene") or {}
    put(scene.get("location"), gettext("scene of the crime (hero: {seat})", seat=scene["hero"]) if scene.get("hero")
        else gettext("scene of the crime"),
        Piece(kind="scene of the crime", name=str(scene.get("hero") or ""), owner=str(scene.get("hero") or "")))
    for who, said in (("lily_lockwell", gettext("lily lockwell")), ("jimmy_the_snitch", gettext("jimmy the snitch"))):
        put(view.get(who), said, Piece(name=who.replace("_", " ")))
    for a in (view.get("events") or {}).get("active") or []:
        put(a.get("location"), gettext("event ability {event}", event=a.get("event")), Piece(kind="event ability", name=str(a.get("event"))))
    token_vp = rules.options.get("token_vp") or {}
    areas = []
    for lid in rules.map.order:
        loc = rules.loc(lid)
        worth = (gettext("{vp} VP each", vp="-1") if loc.bank == "trauma" else
                 gettext("{vp} VP each", vp=f"{int(token_vp.get(loc.bank, 1)):+d}") if loc.bank in _VP_BANKS else "")
        bank = _bank(loc.bank) + (f" ({worth})" if worth else "") if loc.bank else ""
        label = ", ".join(x for x in (loc.coord, _type(loc.type), _quality(loc.quality),
                                      pgettext("a location", "major") if loc.major else "",
                                      pgettext("a location", "restricted") if loc.restricted else "", bank) if x)
        facts: list[tuple[str, str]] = [(pgettext("a table's label", "district"), loc.district.replace("_", " "))]
        if loc.ability is not None:
            facts.append((pgettext("a table's label", "ability"), loc.ability.text))
        areas.append(Area(id=lid, label=label, lines=tuple(lines.get(lid, ())), pieces=tuple(pieces.get(lid, ())),
                          facts=tuple(facts)))
    bean = rules.map.beanstalk
    links = [Link(a=a, b=b, kind="beanstalk") for a, b in zip(bean, bean[1:])]
    at = grid_of((lid, rules.loc(lid).x, rules.loc(lid).y) for lid in rules.map.order)
    title = gettext("New Angeles, the Beanstalk and Heinlein (map {map})", map=rules.map.map_id)
    return placed(title, areas, at, links=links, covers=("leads", "scene", "lily_lockwell", "jimmy_the_snitch"),
                  kinds={"beanstalk": pgettext("a border", "beanstalk")})


@worded
def _lead() -> dict[str, str]:
    """A lead's type (and a suspect's file of that type) in the reader's words."""
    return {"testimony": pgettext("a lead", "testimony"), "physical": pgettext("a lead", "physical"),
            "document": pgettext("a lead", "document")}


@worded
def _type() -> dict[str, str]:
    """A location's type in the reader's words."""
    return {"business": pgettext("a location", "business"), "civic": pgettext("a location", "civic"),
            "nightlife": pgettext("a location", "nightlife"), "religious": pgettext("a location", "religious"),
            "residential": pgettext("a location", "residential")}


@worded
def _quality() -> dict[str, str]:
    """A location's quality in the reader's words."""
    return {"ritzy": pgettext("a location", "ritzy"), "normal": pgettext("a location", "normal"),
            "seedy": pgettext("a location", "seedy")}


@worded_or(lambda bank: gettext("{bank} bank", bank=bank.replace("_", " ")))
def _bank() -> dict[str, str]:
    """The bank a location holds, in the reader's words."""
    return {"trauma": gettext("trauma bank"), "haas": gettext("haas bank"), "jinteki": gettext("jinteki bank"),
            "conspiracy": gettext("conspiracy bank"), "corp_favor": gettext("corp favor bank"),
            "political_favor": gettext("political favor bank"), "society_favor": gettext("society favor bank"),
            "street_favor": gettext("street favor bank"), "dropship_pass": gettext("dropship pass bank"),
            "hit": gettext("hit bank"), "alibi": gettext("alibi bank"), "baggage": gettext("baggage bank")}


@per_reader
def _player_fields() -> dict[str, str]:
    return {"abilities_used": pgettext("a table's label", "abilities_used"),
            "declared": pgettext("a table's label", "declared"), "detective": pgettext("a table's label", "detective"),
            "drawn_evidence": pgettext("a table's label", "drawn_evidence"),
            "dropship_passes": pgettext("a table's label", "dropship_passes"), "hand": pgettext("a table's label", "hand"),
            "hand_count": pgettext("a table's label", "hand_count"),
            "hero_markers_free": pgettext("a table's label", "hero_markers_free"),
            "hunches.guilty": pgettext("a table's label", "hunches.guilty"),
            "hunches.innocent": pgettext("a table's label", "hunches.innocent"),
            "in_play": pgettext("a table's label", "in_play"), "location": pgettext("a table's label", "location"),
            "memory_card": pgettext("a table's label", "memory_card"), "plot.bad_baggage": pgettext("a table's label", "plot.bad_baggage"),
            "plot.current": pgettext("a table's label", "plot.current"), "plot.good_baggage": pgettext("a table's label", "plot.good_baggage"),
            "special": pgettext("a table's label", "special"), "time_modifier": pgettext("a table's label", "time_modifier"),
            "tokens.conspiracy": pgettext("a table's label", "tokens.conspiracy"),
            "tokens.haas": pgettext("a table's label", "tokens.haas"), "tokens.jinteki": pgettext("a table's label", "tokens.jinteki"),
            "trauma": pgettext("a table's label", "trauma"), "twilight": pgettext("a table's label", "twilight"),
            "vp": pgettext("a table's label", "vp"), "warrant_supply": pgettext("a table's label", "warrant_supply"),
            "warrants": pgettext("a table's label", "warrants"),
            "favors.corp": pgettext("a table's label", "favors.corp"),
            "favors.political": pgettext("a table's label", "favors.political"),
            "favors.society": pgettext("a table's label", "favors.society"),
            "favors.street": pgettext("a table's label", "favors.street"),
            "hand_origins": pgettext("a table's label", "hand_origins")}


def player_words(seats: dict[str, Any] | None = None) -> dict[str, str]:
    """A player's fields in the reader's words (in English the paths themselves, as the tableau has always
    shown them), with the paths through the ``seats``' records' NPCs and hand origins."""
    out = dict(_player_fields())
    for record in (seats or {}).values():
        if not isinstance(record, dict):
            continue
        for npc in record.get("npc") or {}:
            out[f"npc.{npc}.favor_supply"] = pgettext("a table's label", "npc.{npc}.favor_supply", npc=npc)
            out[f"npc.{npc}.status"] = pgettext("a table's label", "npc.{npc}.status", npc=npc)
        for key in record.get("special") or {}:  # a detective's own counter, by its data's id
            out[f"special.{key}"] = pgettext("a table's label", "special.{key}", key=key)
        for npc in record.get("npc_favors") or {}:
            out[f"npc_favors.{npc}"] = pgettext("a table's label", "npc_favors.{npc}", npc=npc)
        for detective, decks in (record.get("hand_origins") or {}).items():
            for deck in decks if isinstance(decks, dict) else ():
                out[f"hand_origins.{detective}.{deck}"] = (
                    pgettext("a table's label", "hand_origins.{detective}.dark", detective=detective) if deck == "dark"
                    else pgettext("a table's label", "hand_origins.{detective}.light", detective=detective)
                    if deck == "light" else f"hand_origins.{detective}.{deck}")
    return out


def sections(drawn: tuple[Board, ...], view: dict[str, Any]) -> tuple[Board, ...]:
    """The seats' tableau and the rest of the view in the reader's words."""
    phases = {"setup": pgettext("a phase", "setup"), "day": pgettext("a phase", "day"),
              "end_of_day": pgettext("a phase", "end_of_day"), "closing": pgettext("a phase", "closing"),
              "over": pgettext("a phase", "over")}
    return default_sections(drawn, view, _match_words(), {"phase": phases})


@per_reader
def _match_words() -> dict[str, str]:
    """The day's and the match's fields (and their paths' starts) in the reader's words, as the engine's
    ``label`` reads them in English."""
    return {"active_seat": pgettext("a table's label", "active seat"),
            "active_suspects": pgettext("a table's label", "active suspects"),
            "audit_flags": pgettext("a table's label", "audit flags"), "banks": pgettext("a table's label", "banks"),
            "box": pgettext("a table's label", "box"), "case": pgettext("a table's label", "case"),
            "case.discarded": pgettext("a table's label", "case discarded"),
            "case.totals": pgettext("a table's label", "case totals"), "case.killer": pgettext("a table's label", "case killer"),
            "climax": pgettext("a table's label", "climax"), "day": pgettext("a table's label", "day"),
            "decks": pgettext("a table's label", "decks"), "draws": pgettext("a table's label", "draws"),
            "end_of_day_queue": pgettext("a table's label", "end of day queue"),
            "events.active": pgettext("a table's label", "events active"),
            "events.general_deck": pgettext("a table's label", "events general deck"),
            "events.general_discard": pgettext("a table's label", "events general discard"),
            "events.specific": pgettext("a table's label", "events specific"),
            "events.specific_revealed": pgettext("a table's label", "events specific revealed"),
            "evidence_pile": pgettext("a table's label", "evidence pile"),
            "evidence_pile_count": pgettext("a table's label", "evidence pile count"),
            "first_player": pgettext("a table's label", "first player"),
            "free_draw_window": pgettext("a table's label", "free draw window"),
            "last_action": pgettext("a table's label", "last action"), "murder": pgettext("a table's label", "murder"),
            "pending": pgettext("a table's label", "pending"), "phase": pgettext("a table's label", "phase"),
            "setup": pgettext("a table's label", "setup"), "setup_step": pgettext("a table's label", "setup step"),
            "time_left": pgettext("a table's label", "time left"),
            "time_sheet_holder": pgettext("a table's label", "time sheet holder"),
            "turn_order": pgettext("a table's label", "turn order"), "turns_done": pgettext("a table's label", "turns done"),
            "week": pgettext("a table's label", "week")}


def suspects(view: dict[str, Any]) -> Board | None:
    sus = view.get("suspects")
    if not isinstance(sus, dict) or not sus:
        return None
    areas = []
    for sid, s in sorted(sus.items()):
        for file, tokens in sorted((s.get("files") or {}).items()):
            lines = tuple(gettext("{kind} (up, {seat})", kind=t.get("kind"), seat=t.get("placed_by")) if t.get("face_up")
                          else gettext("{kind} (down, {seat})", kind=t.get("kind"), seat=t.get("placed_by")) for t in tokens)
            areas.append(Area(id=f"{sid}.{file}", row=sid, col=_lead(file), lines=lines))
        extra = [gettext("alibis {n}", n=s.get("alibis", 0)), gettext("hits {n}", n=s.get("hits", 0))] + (
            [] if s.get("alive", True) else [gettext("killed")])
        areas.append(Area(id=f"{sid}.sheet", row=sid, col=gettext("sheet"), lines=tuple(extra)))
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
            lines = (f"{at['piece']} @{at.get('rotation', 0)}",) if at else ()  # notation: the piece and its turn
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
