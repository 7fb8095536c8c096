"""Android's data set (spec §7.4): map, detectives, suspects, murders, calendar, cards and puzzle, in
one TOML text. :func:`parse_data` validates every reference and refuses a bad set with
``android/setup/invalid_data``, naming the table, the record and the field. Pure: text in, values out.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from referee.engine.datafile import load_toml
from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from .codes import Code

LEAD_TYPES = ("testimony", "physical", "document")
FAVOR_TYPES = ("corp", "political", "society", "street")
LOCATION_TYPES = ("business", "civic", "nightlife", "religious", "residential")
QUALITIES = ("ritzy", "normal", "seedy")
BODIES = ("earth", "moon", "beanstalk")
PILES = ("shift", "favor", "baggage")
PORTS = ("N", "E", "S", "W")
CALENDAR_ITEMS = ("general_event", "specific_event", "plot_resolution")
#: evidence kinds (§1.8): count and value
EVIDENCE: dict[str, tuple[int, int]] = {
    "plus_5": (1, 5), "plus_4": (4, 4), "plus_3": (6, 3), "plus_2": (11, 2), "plus_1": (11, 1),
    "minus_1": (7, -1), "minus_2": (7, -2), "minus_3": (4, -3), "minus_4": (1, -4),
    "surprise_witness": (4, -5), "perjury": (4, 0),
}
#: bank sizes (§1.2)
BANKS: dict[str, int] = {
    "corp_favor": 12, "political_favor": 12, "society_favor": 12, "street_favor": 12, "alibi": 12, "hit": 13,
    "trauma": 28, "dropship_pass": 5, "baggage": 45, "haas": 6, "jinteki": 6, "conspiracy": 12,
}
BEANSTALK_INTERIOR = 3  # the three middle locations of the five


@dataclass(frozen=True)
class Ability:
    text: str
    time: int
    favors: dict[str, int]
    effect: str  # gain_favor | own_good_baggage | alibi | manual
    favor_type: str = ""


@dataclass(frozen=True)
class Location:
    id: str
    name: str
    body: str
    district: str
    type: str
    quality: str
    major: bool
    restricted: bool
    x: int
    y: int
    coord: str = ""
    bank: str = ""
    ability: Ability | None = None
    #: explicit reach (``reach_check=explicit``): ruler class -> destinations; ``"*"`` for every ruler
    reach: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the Russian name ("" when the data gives none: the English one is read in every language)
    name_ru: str = ""


@dataclass(frozen=True)
class MapData:
    map_id: str
    name: str
    locations: dict[str, Location]
    order: tuple[str, ...]
    beanstalk: tuple[str, ...]
    districts: dict[str, str]


@dataclass(frozen=True)
class Detective:
    id: str
    name: str
    title: str
    hand_limit: int
    base_time: int
    ruler_length: int
    start_location: str
    leads: dict[str, str]
    track_light: int
    track_dark: int
    npcs: tuple[tuple[str, str, int], ...]  # (id, start status, favor tokens)
    plots: tuple[tuple[str, bool], ...]  # (id, eligible at start)
    hero_setup: dict[str, Any]
    time_bonus: dict[str, int]
    memory_cards: tuple[str, ...]
    ruler_class: str = ""
    #: the Russian name ("" when the data gives none: the English one is read in every language)
    name_ru: str = ""


@dataclass(frozen=True)
class SuspectData:
    id: str
    name: str
    strong_file: str
    weak_file: str
    #: the Russian name ("" when the data gives none: the English one is read in every language)
    name_ru: str = ""


@dataclass(frozen=True)
class Murder:
    id: str
    name: str
    crime_scene: str
    suspects: tuple[str, ...]
    testimony_leads: dict[str, str]
    lily: tuple[str, str]
    jimmy: tuple[str, str]
    specific_events: tuple[str, ...]
    #: the Russian name ("" when the data gives none: the English one is read in every language)
    name_ru: str = ""


@dataclass(frozen=True)
class Card:
    id: str
    detective: str
    deck: str  # light | dark
    cost: int | None
    persistent: bool
    name: str
    #: the Russian name ("" when the data gives none: the English one is read in every language)
    name_ru: str = ""


@dataclass(frozen=True)
class EventCard:
    id: str
    kind: str
    name: str
    murder: str = ""
    grants: Ability | None = None
    grant_location: str = ""
    uses: str = "first_only"
    #: the Russian name ("" when the data gives none: the English one is read in every language)
    name_ru: str = ""


@dataclass(frozen=True)
class Piece:
    id: str
    type: str
    ports: tuple[str, ...]
    bonuses: tuple[str, ...]


@dataclass(frozen=True)
class PuzzleData:
    rows: int
    cols: int
    center_cell: str
    center_ports: tuple[str, ...]
    rotation_allowed: bool
    pieces: dict[str, Piece]


@dataclass(frozen=True)
class DataSet:
    name: str
    maps: dict[str, MapData]
    map_order: tuple[str, ...]
    detectives: dict[str, Detective]
    suspects: dict[str, SuspectData]
    murders: dict[str, Murder]
    murder_order: tuple[str, ...]
    days: tuple[tuple[str, ...], ...]  # end-of-day items per day (index 0 = day 1)
    days_per_week: int
    cards: dict[str, Card]
    events: dict[str, EventCard]
    puzzle: PuzzleData
    npcs: frozenset[str] = field(default_factory=frozenset)

    @property
    def last_day(self) -> int:
        return len(self.days)


CARD_TABLES = {"map": "map_id", "detective": "id", "suspect": "id", "murder": "id", "calendar": "",
               "twilight_card": "id", "event_card": "id", "puzzle": ""}


class _Reader:
    def __init__(self, name: str) -> None:
        self.name = name

    def bad(self, where: str, what: str) -> ConfigError:
        return ConfigError.said(Code.SETUP_INVALID_DATA, N_("data set {name!r}: {where}: {what}"),
                                name=self.name, where=where, what=what)

    def get(self, rec: Any, key: str, where: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if not isinstance(rec, dict):
            raise self.bad(where, "must be a table")
        if key not in rec:
            if default is ...:
                raise self.bad(where, f"field {key!r} is missing")
            return default
        value = rec[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.bad(where, f"field {key!r} must be a whole number, not {value!r}")
        if not isinstance(value, kind):
            raise self.bad(where, f"field {key!r} has the wrong type ({type(value).__name__})")
        return value

    def word(self, rec: Any, key: str, where: str, choices: tuple[str, ...] | None = None, default: Any = ...) -> str:
        if isinstance(rec, dict) and key not in rec and default is not ...:
            return str(default)
        value = self.get(rec, key, where, str, default)
        if choices is not None and value not in choices:
            raise self.bad(where, f"field {key!r} is {value!r}; expected one of {', '.join(choices)}")
        return str(value)

    def table(self, data: dict[str, Any], key: str) -> list[Any]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.bad(key, "must be an array of tables ([[" + key + "]])")
        return value


#: the effects the referee applies itself, by where they are printed (any other is declared: "manual")
LOCATION_EFFECTS = ("gain_favor", "own_good_baggage", "manual")
EVENT_EFFECTS = ("alibi", "manual")


def _ability(r: _Reader, raw: Any, where: str, effects: tuple[str, ...]) -> Ability:
    favors = r.get(raw, "favors", where, dict, {})
    for k, v in favors.items():
        if k not in FAVOR_TYPES or isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise r.bad(where, f"favors.{k} must be a favor type with a count")
    effect = r.word(raw, "effect", where, effects, "manual")
    ftype = r.word(raw, "favor_type", where, FAVOR_TYPES, "political") if effect == "gain_favor" else ""
    return Ability(text=r.word(raw, "text", where, None, ""), time=r.get(raw, "time", where, int, 1),
                   favors=dict(favors), effect=effect, favor_type=ftype)


def _reach(r: _Reader, loc: dict[str, Any], where: str) -> dict[str, tuple[str, ...]]:
    """``reach = [ids]`` (every ruler) or ``reach = {<ruler class> = [ids], ...}`` (spec §7.4)."""
    raw = loc.get("reach")
    if raw is None:
        return {}
    table = {"*": raw} if isinstance(raw, list) else raw
    if not isinstance(table, dict):
        raise r.bad(where, "field 'reach' must be a list of location ids, or a table of them by ruler class")
    out: dict[str, tuple[str, ...]] = {}
    for cls, ids in sorted(table.items()):
        if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
            raise r.bad(where, f"field 'reach{'' if cls == '*' else '.' + cls}' must be a list of location ids")
        out[str(cls)] = tuple(ids)
    return out


def parse_data(text: str, name: str) -> DataSet:
    """A data set from its TOML text, read table by table in the file's order (maps, detectives,
    suspects, event cards, murders, the calendar, twilight cards, the puzzle); the first fault is named."""
    r = _Reader(name or "(inline)")
    try:
        data = load_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise r.bad("file", f"not valid TOML: {exc}") from None
    maps = _maps(r, data)
    any_locs = set().union(*(set(m.locations) for m in maps.values()))
    detectives = _detectives(r, data, any_locs)
    suspects = _suspects(r, data)
    events = _events(r, data, any_locs)
    murders = _murders(r, data, any_locs, suspects, events)
    days, dpw = _calendar(r, data)
    cards = _cards(r, data, detectives)
    puzzle = _puzzle(r, data)
    npc_ids = frozenset(n for d in detectives.values() for n, _s, _t in d.npcs)
    return DataSet(name or "(inline)", maps, tuple(maps), detectives, suspects, murders, tuple(murders), days, dpw,
                   cards, events, puzzle, npc_ids)


def _maps(r: _Reader, data: dict[str, Any]) -> dict[str, MapData]:
    """The ``[[map]]`` tables: districts, locations (with their abilities and reach), the beanstalk."""
    maps: dict[str, MapData] = {}
    for i, m in enumerate(r.table(data, "map")):
        mid = r.word(m, "map_id", f"map[{i}]")
        where = f"map {mid}"
        districts = {r.word(d, "id", f"{where}.district[{j}]"): r.word(d, "body", f"{where}.district[{j}]", BODIES)
                     for j, d in enumerate(r.table(m, "district"))}
        locs: dict[str, Location] = {}
        order = []
        for j, loc in enumerate(r.table(m, "location")):
            lid = r.word(loc, "id", f"{where}.location[{j}]")
            lw = f"{where}.location {lid}"
            if lid in locs:
                raise r.bad(lw, "duplicate id")
            district = r.word(loc, "district", lw)
            if district not in districts:
                raise r.bad(lw, f"district {district!r} is not one of the map's districts")
            major = bool(r.get(loc, "major", lw, bool, False))
            ability = None
            if "ability" in loc:
                if not major:
                    raise r.bad(lw, "only a major location has an ability")
                ability = _ability(r, loc["ability"], lw + ".ability", LOCATION_EFFECTS)
            bank = r.word(loc, "bank", lw, tuple(BANKS), "")
            coord = r.word(loc, "coord", lw, None, "")
            if coord and not (len(coord) in (2, 3) and "A" <= coord[0] <= "L" and coord[1:].isdigit()
                              and 1 <= int(coord[1:]) <= 8):
                raise r.bad(lw, f"coord {coord!r} is outside A1-L8")
            locs[lid] = Location(
                id=lid, name=r.word(loc, "name", lw, None, lid), name_ru=r.word(loc, "name_ru", lw, None, ""), body=r.word(loc, "body", lw, BODIES),
                district=district, type=r.word(loc, "type", lw, LOCATION_TYPES),
                quality=r.word(loc, "quality", lw, QUALITIES), major=major,
                restricted=bool(r.get(loc, "restricted", lw, bool, False)),
                x=r.get(loc, "x", lw, int), y=r.get(loc, "y", lw, int), coord=coord, bank=bank, ability=ability,
                reach=_reach(r, loc, lw))
            order.append(lid)
        for lid in order:
            for cls, dests in locs[lid].reach.items():
                for dest in dests:
                    if dest not in locs or dest == lid:
                        raise r.bad(f"{where}.location {lid}", f"reach{'' if cls == '*' else '.' + cls} names {dest!r}, "
                                    "which is not another location of this map")
        bean = tuple(r.get(m, "beanstalk", where, list))
        if len(bean) != 5 or any(b not in locs for b in bean):
            raise r.bad(where, "beanstalk must list five locations of the map, Earth end first")
        maps[mid] = MapData(mid, r.word(m, "name", where, None, mid), locs, tuple(order), bean, districts)
    if not maps:
        raise r.bad("map", "the data set holds no [[map]] (AMB-01: a match needs a map)")
    return maps


def _detectives(r: _Reader, data: dict[str, Any], any_locs: set[str]) -> dict[str, Detective]:
    detectives: dict[str, Detective] = {}
    for i, d in enumerate(r.table(data, "detective")):
        did = r.word(d, "id", f"detective[{i}]")
        w = f"detective {did}"
        leads = r.get(d, "leads", w, dict)
        track = r.get(d, "twilight_track", w, dict, {"light": 5, "dark": 5})
        npcs = tuple((r.word(n, "id", w + ".npcs"), r.word(n, "start_status", w + ".npcs", ("alive", "dead"), "alive"),
                      r.get(n, "favor_tokens", w + ".npcs", int, 0)) for n in r.table(d, "npcs"))
        plots = tuple((r.word(p, "id", w + ".plots"), bool(r.get(p, "eligible_at_start", w + ".plots", bool, True)))
                      for p in r.table(d, "plots"))
        for key in ("start_location",):
            if d.get(key) not in any_locs:
                raise r.bad(w, f"{key} {d.get(key)!r} is not a location of the map")
        for lt in ("physical", "document"):
            if leads.get(lt) not in any_locs:
                raise r.bad(w, f"leads.{lt} {leads.get(lt)!r} is not a location of the map")
        detectives[did] = Detective(
            id=did, name=r.word(d, "name", w, None, did), title=r.word(d, "title", w, None, ""),
            hand_limit=r.get(d, "hand_limit", w, int, 6), base_time=r.get(d, "base_time", w, int, 6),
            ruler_length=r.get(d, "ruler_length", w, int), start_location=str(d["start_location"]),
            leads={"physical": str(leads["physical"]), "document": str(leads["document"])},
            track_light=int(track.get("light", 5)), track_dark=int(track.get("dark", 5)), npcs=npcs, plots=plots,
            hero_setup=dict(r.get(d, "hero_setup", w, dict, {})), time_bonus=dict(r.get(d, "time_bonus", w, dict, {})),
            memory_cards=tuple(r.get(d, "memory_cards", w, list, [])), ruler_class=r.word(d, "ruler_class", w, None, ""),
            name_ru=r.word(d, "name_ru", w, None, ""))
    return detectives


def _suspects(r: _Reader, data: dict[str, Any]) -> dict[str, SuspectData]:
    suspects: dict[str, SuspectData] = {}
    for i, s in enumerate(r.table(data, "suspect")):
        sid = r.word(s, "id", f"suspect[{i}]")
        w = f"suspect {sid}"
        strong, weak = r.word(s, "strong_file", w, LEAD_TYPES), r.word(s, "weak_file", w, LEAD_TYPES)
        if strong == weak:
            raise r.bad(w, "strong_file and weak_file must differ")
        suspects[sid] = SuspectData(sid, r.word(s, "name", w, None, sid), strong, weak, r.word(s, "name_ru", w, None, ""))
    return suspects


def _events(r: _Reader, data: dict[str, Any], any_locs: set[str]) -> dict[str, EventCard]:
    events: dict[str, EventCard] = {}
    for i, e in enumerate(r.table(data, "event_card")):
        eid = r.word(e, "id", f"event_card[{i}]")
        w = f"event_card {eid}"
        grants = None
        loc, uses = "", "first_only"
        if "grants" in e:
            grants = _ability(r, e["grants"], w + ".grants", EVENT_EFFECTS)
            loc = r.word(e["grants"], "location", w + ".grants")
            if loc not in any_locs:
                raise r.bad(w, f"grants.location {loc!r} is not a location of the map")
            uses = r.word(e["grants"], "uses", w + ".grants", ("first_only", "unlimited"), "first_only")
        events[eid] = EventCard(eid, r.word(e, "kind", w, ("general", "specific")), r.word(e, "name", w, None, eid),
                                r.word(e, "murder", w, None, ""), grants, loc, uses, r.word(e, "name_ru", w, None, ""))
    return events


def _murders(r: _Reader, data: dict[str, Any], any_locs: set[str], suspects: dict[str, SuspectData],
             events: dict[str, EventCard]) -> dict[str, Murder]:
    murders: dict[str, Murder] = {}
    for i, m in enumerate(r.table(data, "murder")):
        mid = r.word(m, "id", f"murder[{i}]")
        w = f"murder {mid}"
        sus = tuple(r.get(m, "suspects", w, list))
        for s in sus:
            if s not in suspects:
                raise r.bad(w, f"suspect {s!r} is not a [[suspect]]")
        tl = r.get(m, "testimony_leads", w, dict)
        for s in sus:
            if tl.get(s) not in any_locs:
                raise r.bad(w, f"testimony_leads.{s} is not a location of the map")
        lily, jimmy = r.get(m, "lily", w, dict), r.get(m, "jimmy", w, dict)
        spec = tuple(r.get(m, "specific_events", w, list))
        for ev in spec:
            if ev not in events or events[ev].kind != "specific":
                raise r.bad(w, f"specific event {ev!r} is not a specific [[event_card]]")
        if m.get("crime_scene") not in any_locs:
            raise r.bad(w, "crime_scene is not a location of the map")
        murders[mid] = Murder(mid, r.word(m, "name", w, None, mid), str(m["crime_scene"]), sus, dict(tl),
                              (str(lily.get("week1")), str(lily.get("week2", lily.get("week1")))),
                              (str(jimmy.get("week1")), str(jimmy.get("week2", jimmy.get("week1")))), spec,
                              r.word(m, "name_ru", w, None, ""))
    if not murders:
        raise r.bad("murder", "the data set holds no [[murder]]")
    return murders


def _calendar(r: _Reader, data: dict[str, Any]) -> tuple[tuple[tuple[str, ...], ...], int]:
    """The ``[calendar]``: each day's end-of-day items, and the days in a week."""
    cal = data.get("calendar")
    if not isinstance(cal, dict):
        raise r.bad("calendar", "missing [calendar] table")
    dpw = r.get(cal, "days_per_week", "calendar", int)
    weeks = r.get(cal, "weeks", "calendar", int, 2)
    days_raw = sorted(r.table(cal, "days"), key=lambda d: int(d.get("day", 0)))
    days = tuple(tuple(r.get(d, "end_of_day", "calendar.days", list, [])) for d in days_raw)
    if len(days) != dpw * weeks or dpw < 1:
        raise r.bad("calendar", f"days must list weeks x days_per_week = {dpw * weeks} days, not {len(days)}")
    for d in days:
        for item in d:
            if item not in CALENDAR_ITEMS:
                raise r.bad("calendar", f"end-of-day item {item!r}; expected one of {', '.join(CALENDAR_ITEMS)}")
    return days, dpw


def _cards(r: _Reader, data: dict[str, Any], detectives: dict[str, Detective]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for i, c in enumerate(r.table(data, "twilight_card")):
        cid = r.word(c, "id", f"twilight_card[{i}]")
        w = f"twilight_card {cid}"
        det = r.word(c, "detective", w)
        if det not in detectives:
            raise r.bad(w, f"detective {det!r} is not a [[detective]]")
        cost = c.get("cost")
        cards[cid] = Card(cid, det, r.word(c, "deck", w, ("light", "dark")),
                          None if cost is None else r.get(c, "cost", w, int),
                          bool(r.get(c, "persistent", w, bool, False)), r.word(c, "name", w, None, cid),
                          r.word(c, "name_ru", w, None, ""))
    return cards


def _puzzle(r: _Reader, data: dict[str, Any]) -> PuzzleData:
    pz = data.get("puzzle")
    if not isinstance(pz, dict):
        raise r.bad("puzzle", "missing [puzzle] table")
    pieces = {}
    for i, p in enumerate(r.table(pz, "piece")):
        pid = r.word(p, "id", f"puzzle.piece[{i}]")
        ports = tuple(r.get(p, "ports", f"puzzle.piece {pid}", list))
        if any(x not in PORTS for x in ports):
            raise r.bad(f"puzzle.piece {pid}", "ports are N, E, S, W")
        pieces[pid] = Piece(pid, r.word(p, "type", f"puzzle.piece {pid}", PILES), ports,
                            tuple(r.get(p, "bonuses", f"puzzle.piece {pid}", list, [])))
    puzzle = PuzzleData(r.get(pz, "rows", "puzzle", int), r.get(pz, "cols", "puzzle", int),
                        r.word(pz, "center_cell", "puzzle"), tuple(r.get(pz, "center_ports", "puzzle", list)),
                        bool(r.get(pz, "rotation_allowed", "puzzle", bool, True)), pieces)
    return puzzle


def cell(row: int, col: int) -> str:
    return f"r{row}c{col}"


def parse_cell(text: str) -> tuple[int, int] | None:
    if not text.startswith("r") or "c" not in text:
        return None
    a, _, b = text[1:].partition("c")
    if not (a.isdigit() and b.isdigit()):
        return None
    return int(a), int(b)
