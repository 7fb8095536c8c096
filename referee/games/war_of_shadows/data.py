"""Board data and card catalogues (spec §1.8), read from TOML text and validated.

The rulebook prints neither the map nor the card texts, so both are data. A data file holds one or
more boards and, optionally, a card catalogue::

    [set]                      # what the file is
    id = "TM-1"
    name = "..."

    [[board]]                  # one table per board (a single [board] table works too)
    board_id = "TM-1"
    empire_order = ["bear", "lion", "horse", "elephant", "eagle"]
    land_borders = [["bear_1", "bear_2"], ...]
    sea_borders = [["lion_2", "eagle_2"], ...]
    [[board.regions]]
    id = "bear_1"
    home = "bear"              # omitted: an uncoloured region (AMB-27)
    name = "..."               # optional: the printed name people read (else the id)
    cities = 1
    farm = false
    fort = false
    start_banners = 2
    start_banner_empire = "bear"     # optional, default = home
    [board.council_actions.bear]
    sheriff = [{ type = "add_banners", count = 2 }, { type = "attack" }]
    ...

    [[card]]                   # the catalogue: ids <empire>_c1 .. <empire>_c8
    id = "bear_c1"
    empire = "bear"
    name = "optional printed name"
    [[card.abilities]]
    index = 1
    cost = ["bear"]
    effect = { primitive = "mutual_annihilation" }   # or { manual = true }
    timing = ["during"]        # optional: the windows printed on the card

The game never reads files: the service reads the file and hands its text over (``cards_text``), and
the match stores that text, so a later edit of a file cannot change an old match. Every problem is a
:class:`ConfigError` naming the board or card and the field.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.engine.datafile import load_toml
from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from .codes import Code

EMPIRES: tuple[str, ...] = ("bear", "lion", "horse", "elephant", "eagle")
POSITIONS: tuple[str, ...] = ("sheriff", "seneschal", "marshal", "chancellor")
SLOTS: tuple[str, ...] = ("fanaticism", "devotion", "involvement", "indifference", "opposition")
MULTIPLIER: dict[str, int] = {"fanaticism": 4, "devotion": 3, "involvement": 2, "indifference": 0, "opposition": -1}
SOCIETIES: tuple[str, ...] = ("pale_raven", "humble_spider", "rat_cult", "endless_serpent")
SYMBOLS: tuple[str, ...] = ("city", "farm", "fort", "banner_symbol")
ACTION_TYPES: tuple[str, ...] = ("add_banners", "attack", "take_cards", "move_agent")
PRIMITIVES: tuple[str, ...] = (
    "mutual_annihilation", "disband", "relocate_agent", "reinforcement", "borrow_action", "move_banners",
)
TIMINGS: tuple[str, ...] = ("before", "during", "after")
CARDS_PER_EMPIRE = 8
BANNERS_PER_EMPIRE = 20
AGENTS = 9  # agents per player
ROUNDS = 4
HAND_LIMIT = 5
SUPPLY_LIMIT = 4  # banners of one empire in a region after its empire phase (§4.16)
SUPPLY_LIMIT_FARM = 6  # the same in a farm region
ALL_CARDS: tuple[str, ...] = tuple(f"{e}_c{i}" for e in EMPIRES for i in range(1, CARDS_PER_EMPIRE + 1))


def card_empire(card: str) -> str | None:
    """The empire of a card id (``bear_c3`` -> ``bear``), None if it is not a card id."""
    if card in _CARD_SET:
        return card.split("_c", 1)[0]
    return None


_CARD_SET = frozenset(ALL_CARDS)


def split(pid: str) -> tuple[str, str]:
    """``bear.sheriff`` -> (``bear``, ``sheriff``)."""
    e, p = pid.split(".", 1)
    return e, p


@dataclass(frozen=True)
class Region:
    id: str
    home: str | None
    cities: int
    farm: bool
    fort: bool
    start_banners: int
    start_banner_empire: str | None
    #: the printed name ("" when the data gives none: then the id is its name)
    name: str = ""
    #: the Russian name ("" when the data gives none: then the English one, or the id)
    name_ru: str = ""

    def symbols(self, symbol: str) -> int:
        """How many of a printed symbol this region shows (for per-symbol draws)."""
        if symbol == "city":
            return self.cities
        if symbol == "farm":
            return 1 if self.farm else 0
        if symbol == "fort":
            return 1 if self.fort else 0
        return self.start_banners


@dataclass(frozen=True)
class ActionSpec:
    type: str
    count: int | None = None  # add_banners
    qualifier: str | None = None  # add_banners (carried, not enforced: AMB-05)
    mode: str | None = None  # take_cards: fixed | per_symbol
    n: int | None = None
    symbol: str | None = None
    divisor: int | None = None

    def describe(self) -> str:
        if self.type == "add_banners":
            return f"add_banners(count {self.count})" + (f" [{self.qualifier}]" if self.qualifier else "")
        if self.type == "take_cards":
            if self.mode == "fixed":
                return f"take_cards(fixed {self.n})"
            return f"take_cards(per_symbol {self.symbol}/{self.divisor})"
        return self.type


@dataclass(frozen=True)
class Board:
    board_id: str
    empire_order: tuple[str, ...]
    regions: tuple[Region, ...]
    land: frozenset[tuple[str, str]]
    sea: frozenset[tuple[str, str]]
    council_actions: Mapping[str, tuple[ActionSpec, ...]]  # "bear.sheriff" -> actions
    neighbours: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # land, in board order
    by_id: Mapping[str, Region] = field(default_factory=dict)
    region_ids: tuple[str, ...] = ()

    def region(self, rid: str) -> Region:
        return self.by_id[rid]

    def adjacent(self, a: str, b: str) -> bool:
        return (a, b) in self.land

    def across_sea(self, a: str, b: str) -> bool:
        return (a, b) in self.sea


@dataclass(frozen=True)
class Ability:
    index: int
    cost: tuple[str, ...]
    effect: str  # "manual" or a primitive id
    timing: tuple[str, ...] | None = None  # None: the effect's own windows


@dataclass(frozen=True)
class CardDef:
    id: str
    empire: str
    name: str
    abilities: Mapping[int, Ability]
    #: the Russian name ("" when the data gives none)
    name_ru: str = ""


@dataclass(frozen=True)
class DataSet:
    set_id: str
    boards: Mapping[str, Board]
    board_order: tuple[str, ...]
    catalogue: Mapping[str, CardDef] | None


def _bad(what: str, message: str, code: str = Code.INVALID_BOARD_DATA) -> ConfigError:
    return ConfigError(code, f"{what}: {message}")


def _want(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any = ...,
          code: str = Code.INVALID_BOARD_DATA) -> Any:
    if key not in table:
        if default is ...:
            raise _bad(where, f"field {key} is missing", code)
        return default
    value = table[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise _bad(where, f"field {key}: expected {' or '.join(k.__name__ for k in kinds)}, got {value!r}", code)
    if not isinstance(value, kinds):
        raise _bad(where, f"field {key}: expected {' or '.join(k.__name__ for k in kinds)}, got {value!r}", code)
    return value


def _snake(text: str) -> bool:
    return bool(text) and all(c.islower() or c.isdigit() or c == "_" for c in text) and text[0].isalpha()


def _action(spec: Any, where: str) -> ActionSpec:
    if not isinstance(spec, Mapping):
        raise _bad(where, f"an action_spec must be a table like {{type = \"attack\"}}, got {spec!r}")
    kind = _want(spec, "type", str, where)
    known = {"type"}
    if kind == "add_banners":
        count = _want(spec, "count", int, where)
        if count not in (1, 2):
            raise _bad(where, f"field count: add_banners prints 1 or 2 banners, got {count}")
        qualifier = _want(spec, "qualifier", str, where, None)
        known |= {"count", "qualifier"}
        out = ActionSpec("add_banners", count=count, qualifier=qualifier)
    elif kind in ("attack", "move_agent"):
        out = ActionSpec(kind)
    elif kind == "take_cards":
        mode = _want(spec, "mode", str, where)
        known |= {"mode"}
        if mode == "fixed":
            n = _want(spec, "n", int, where)
            if n != 1:
                raise _bad(where, f"field n: a fixed draw takes 1 card, got {n}")
            known |= {"n"}
            out = ActionSpec("take_cards", mode="fixed", n=1)
        elif mode == "per_symbol":
            symbol = _want(spec, "symbol", str, where)
            if symbol not in SYMBOLS:
                raise _bad(where, f"field symbol: expected one of {', '.join(SYMBOLS)}, got {symbol!r}")
            divisor = _want(spec, "divisor", int, where)
            if divisor not in (2, 3):
                raise _bad(where, f"field divisor: expected 2 or 3, got {divisor}")
            known |= {"symbol", "divisor"}
            out = ActionSpec("take_cards", mode="per_symbol", symbol=symbol, divisor=divisor)
        else:
            raise _bad(where, f"field mode: expected fixed or per_symbol, got {mode!r}")
    else:
        raise _bad(where, f"field type: expected one of {', '.join(ACTION_TYPES)}, got {kind!r}")
    extra = sorted(set(spec) - known)
    if extra:
        raise _bad(where, f"unknown field(s) {', '.join(extra)} for a {kind} action")
    return out


def _pairs(raw: Any, what: str, where: str, ids: set[str]) -> list[tuple[str, str]]:
    if not isinstance(raw, list):
        raise _bad(where, f"field {what}: expected a list of [region_a, region_b] pairs")
    out = []
    for pair in raw:
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise _bad(where, f"field {what}: {pair!r} is not a pair [region_a, region_b]")
        a, b = pair
        for x in (a, b):
            if x not in ids:
                raise _bad(where, f"field {what}: {a}–{b} names an unknown region {x!r}")
        if a == b:
            raise _bad(where, f"field {what}: {a}–{b} borders itself")
        out.append((a, b))
    return out


def parse_board(table: Any) -> Board:
    if not isinstance(table, Mapping):
        raise _bad("board", "expected a [[board]] table")
    bid = _want(table, "board_id", str, "board")
    where = f"board {bid}"
    order = _want(table, "empire_order", list, where, list(EMPIRES))
    if sorted(order) != sorted(EMPIRES) or len(order) != 5:
        raise _bad(where, f"field empire_order: expected the five empires {', '.join(EMPIRES)} once each, got {order!r}")
    if order[0] != "bear":
        raise _bad(where, f"field empire_order: the empire phases start with the bear, got {order[0]!r} first")
    raw_regions = _want(table, "regions", list, where)
    if not raw_regions:
        raise _bad(where, "field regions: the board has no regions")
    regions: list[Region] = []
    seen: set[str] = set()
    for i, r in enumerate(raw_regions, start=1):
        if not isinstance(r, Mapping):
            raise _bad(where, f"region #{i} is not a table")
        rid = _want(r, "id", str, f"{where}: region #{i}")
        rw = f"{where}: region {rid}"
        if not _snake(rid):
            raise _bad(rw, "field id: use snake_case (letters, digits, _), starting with a letter")
        if rid in seen:
            raise _bad(rw, "field id: the id is used twice")
        seen.add(rid)
        home = _want(r, "home", str, rw, None)
        if home is not None and home not in EMPIRES:
            raise _bad(rw, f"field home: expected one of {', '.join(EMPIRES)}, got {home!r}")
        cities = _want(r, "cities", int, rw, 0)
        if cities < 0:
            raise _bad(rw, f"field cities: expected 0 or more, got {cities}")
        farm = _want(r, "farm", bool, rw, False)
        fort = _want(r, "fort", bool, rw, False)
        start = _want(r, "start_banners", int, rw, 0)
        if start < 0:
            raise _bad(rw, f"field start_banners: expected 0 or more, got {start}")
        sbe = _want(r, "start_banner_empire", str, rw, home)
        if sbe is not None and sbe not in EMPIRES:
            raise _bad(rw, f"field start_banner_empire: expected one of {', '.join(EMPIRES)}, got {sbe!r}")
        if start and sbe is None:
            raise _bad(rw, "field start_banner_empire: an uncoloured region with banner symbols must say their colour")
        extra = sorted(set(r) - {"id", "home", "cities", "farm", "fort", "start_banners", "start_banner_empire", "name", "name_ru"})
        if extra:
            raise _bad(rw, f"unknown field(s) {', '.join(extra)}")
        regions.append(Region(rid, home, cities, farm, fort, start, sbe, _want(r, "name", str, rw, ""),
                              _want(r, "name_ru", str, rw, "")))
    land = _pairs(table.get("land_borders", []), "land_borders", where, seen)
    sea = _pairs(table.get("sea_borders", []), "sea_borders", where, seen)
    land_set = {(a, b) for a, b in land} | {(b, a) for a, b in land}
    sea_set = {(a, b) for a, b in sea} | {(b, a) for a, b in sea}
    for a, b in sea:
        if (a, b) in land_set:
            raise _bad(where, f"{a}–{b} is both a land and a sea border")
    for e in EMPIRES:
        total = sum(r.start_banners for r in regions if r.start_banner_empire == e)
        if total > BANNERS_PER_EMPIRE:
            raise _bad(where, f"the {e} has {total} starting banners, more than its {BANNERS_PER_EMPIRE}")
    raw_actions = _want(table, "council_actions", dict, where)
    actions: dict[str, tuple[ActionSpec, ...]] = {}
    for e in EMPIRES:
        council = raw_actions.get(e)
        if not isinstance(council, Mapping):
            raise _bad(where, f"council_actions.{e} is missing")
        extra = sorted(set(council) - set(POSITIONS))
        if extra:
            raise _bad(where, f"council_actions.{e}: unknown position(s) {', '.join(extra)}")
        for p in POSITIONS:
            specs = council.get(p)
            pw = f"{where}: council_actions.{e}.{p}"
            if not isinstance(specs, list) or not specs:
                raise _bad(pw, "every council position needs at least one action_spec")
            actions[f"{e}.{p}"] = tuple(_action(s, pw) for s in specs)
    extra = sorted(set(raw_actions) - set(EMPIRES))
    if extra:
        raise _bad(where, f"council_actions: unknown empire(s) {', '.join(extra)}")
    extra = sorted(set(table) - {"board_id", "name", "empire_order", "regions", "land_borders", "sea_borders", "council_actions"})
    if extra:
        raise _bad(where, f"unknown field(s) {', '.join(extra)}")
    ids = [r.id for r in regions]
    neighbours = {rid: tuple(x for x in ids if (rid, x) in land_set) for rid in ids}
    return Board(bid, tuple(order), tuple(regions), frozenset(land_set), frozenset(sea_set), actions, neighbours,
                 {r.id: r for r in regions}, tuple(ids))


def _card_error(where: str, message: str) -> ConfigError:
    return _bad(where, message, Code.INVALID_CARD_DATA)


def parse_card(raw: Any, i: int) -> CardDef:
    code = Code.INVALID_CARD_DATA
    if not isinstance(raw, Mapping):
        raise _card_error(f"card #{i}", "expected a [[card]] table")
    cid = _want(raw, "id", str, f"card #{i}", code=code)
    where = f"card {cid}"
    if cid not in _CARD_SET:
        raise _card_error(where, f"field id: card ids are <empire>_c1 .. <empire>_c{CARDS_PER_EMPIRE} (e.g. bear_c1)")
    empire = _want(raw, "empire", str, where, card_empire(cid), code=code)
    if empire != card_empire(cid):
        raise _card_error(where, f"field empire: {cid} belongs to the {card_empire(cid)} deck, not {empire!r}")
    name = _want(raw, "name", str, where, "", code=code)
    name_ru = _want(raw, "name_ru", str, where, "", code=code)
    abilities_raw = _want(raw, "abilities", list, where, code=code)
    if not abilities_raw:
        raise _card_error(where, "field abilities: a card has at least one ability")
    abilities: dict[int, Ability] = {}
    for j, a in enumerate(abilities_raw, start=1):
        if not isinstance(a, Mapping):
            raise _card_error(where, f"ability #{j} is not a table")
        index = _want(a, "index", int, f"{where}: ability #{j}", j, code=code)
        aw = f"{where}: ability {index}"
        if index in abilities:
            raise _card_error(aw, "field index: used twice")
        cost = _want(a, "cost", list, aw, code=code)
        for c in cost:
            if c not in EMPIRES:
                raise _card_error(aw, f"field cost: {c!r} is not an empire symbol ({', '.join(EMPIRES)})")
        if empire not in cost:
            raise _card_error(aw, f"field cost: the played card pays one {empire} symbol, so the cost must contain {empire}")
        if index == 1 and list(cost) != [empire]:
            raise _card_error(aw, f"field cost: a card's first ability costs only the card itself ([{empire!r}])")
        effect_raw = _want(a, "effect", dict, aw, code=code)
        if effect_raw.get("manual") is True and "primitive" not in effect_raw:
            effect = "manual"
        elif isinstance(effect_raw.get("primitive"), str):
            effect = effect_raw["primitive"]
            if effect not in PRIMITIVES:
                raise _card_error(aw, f"field effect.primitive: expected one of {', '.join(PRIMITIVES)}, got {effect!r}")
        else:
            raise _card_error(aw, "field effect: expected { manual = true } or { primitive = \"<id>\" }")
        timing = a.get("timing")
        if timing is not None:
            if not isinstance(timing, list) or not timing or any(t not in TIMINGS for t in timing):
                raise _card_error(aw, f"field timing: expected a list of {', '.join(TIMINGS)}, got {timing!r}")
            timing = tuple(t for t in TIMINGS if t in timing)
        extra = sorted(set(a) - {"index", "cost", "effect", "timing", "text"})
        if extra:
            raise _card_error(aw, f"unknown field(s) {', '.join(extra)}")
        abilities[index] = Ability(index, tuple(cost), effect, timing)
    extra = sorted(set(raw) - {"id", "empire", "name", "name_ru", "abilities", "text"})
    if extra:
        raise _card_error(where, f"unknown field(s) {', '.join(extra)}")
    return CardDef(cid, empire, name, abilities, name_ru)


#: the data file's top-level tables and the field keying their entries ("": given whole)
CARD_TABLES = {"set": "", "board": "board_id", "card": "id"}


def parse_data(text: str, name: str = "") -> DataSet:
    """A whole data file (boards and an optional catalogue)."""
    what = f"data set {name!r}" if name else "the data file"
    try:
        raw = load_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError.said(Code.INVALID_BOARD_DATA, N_("{what} is not valid TOML: {reason}"),
                               what=what, reason=str(exc)) from None
    set_table = raw.get("set", {})
    set_id = str(set_table.get("id", name)) if isinstance(set_table, Mapping) else name
    boards_raw = raw.get("board", [])
    if isinstance(boards_raw, Mapping):
        boards_raw = [boards_raw]
    boards: dict[str, Board] = {}
    order: list[str] = []
    for b in boards_raw:
        board = parse_board(b)
        if board.board_id in boards:
            raise _bad(f"board {board.board_id}", f"{what} defines this board twice")
        boards[board.board_id] = board
        order.append(board.board_id)
    catalogue: dict[str, CardDef] | None = None
    if "card" in raw:
        cards_raw = raw["card"]
        if not isinstance(cards_raw, list):
            raise _card_error(what, "card: expected [[card]] tables")
        catalogue = {}
        for i, c in enumerate(cards_raw, start=1):
            card = parse_card(c, i)
            if card.id in catalogue:
                raise _card_error(f"card {card.id}", "the card is listed twice")
            catalogue[card.id] = card
    extra = sorted(set(raw) - set(CARD_TABLES))
    if extra:
        raise ConfigError.said(Code.INVALID_BOARD_DATA, N_(
            "{what}: unknown top-level key(s) {keys}; expected [set], [[board]], [[card]]"),
            what=what, keys=", ".join(extra))
    return DataSet(set_id, boards, tuple(order), catalogue)
