"""Cards and offices as data (spec §5.1): a data set (TOML) holds the card catalogue, the board's
offices and the baseline setup facts the spec's positions start from. Validated with errors naming
the entry and the field.

Schema::

    [set]        name = "..."                      # optional
    [baseline]   street = [11 ids]  street_2p = [11 ids]  first_office = "a1_reuse"
    [[starter]]  key, name, color, effect = {kind, n}, numbers = [9, ...]   # one entry per kind;
                 expanded for the sets A-D into A09 ... D18
    [[card]]     id, number (int, or absent for a doctorate), stage ("I"-"V"), key, name, color,
                 cost, effect = {kind, n}
    [[office]]   id, name, source ("board" | "normal" | "additional"), players ("3-4" | "4", normal
                 cards), department (1-5, additional cards), color, effect = {kind, n}

Effect kinds are those of §1.8; a kind the referee does not know is refused (write ``manual`` for an
effect to be declared when played).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

import msgspec

from referee.engine.datafile import load_toml
from referee.engine.protocol import ConfigError
from referee.engine.suggest import did_you_mean

from .codes import Code

COLORS = ("purple", "blue", "yellow", "green", "yellow_green", "gray", "red")
#: effect kind -> whether it takes a number ``n``
KINDS: Mapping[str, bool] = {
    "gain_workers": True, "trash_for_worker": False, "extra_placement": False, "elbow_placement": False,
    "draw_cards": True, "donations": False, "card_exchange": True, "gain_coins": True, "double_coins": False,
    "trash_for_coins": True, "buy": True, "special_buy": False, "gain_vp": True, "double_tokens": False,
    "coins_to_vp": False, "coin_or_vp": False, "reuse_card": False, "reuse_office": False, "copy_card": False,
    "keep_cards": False, "none": False, "manual": False,
}
STAGE_NAMES = ("I", "II", "III", "IV", "V")
SETS = ("A", "B", "C", "D")
CARD_TABLES: Mapping[str, str] = {"set": "", "baseline": "", "starter": "key", "card": "id", "office": "id"}


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    key: str
    name: str
    #: the Russian name (empty: the English one is read in every language)
    name_ru: str = ""
    color: str
    kind: str
    n: int = 0
    cost: int = 0
    number: int | None = None
    stage: str | None = None
    set: str | None = None


class OfficeCard(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    #: the Russian name (empty: the English one is read in every language)
    name_ru: str = ""
    source: str
    color: str
    kind: str
    n: int = 0
    players: str | None = None
    department: int | None = None


class DataSet(msgspec.Struct, frozen=True, kw_only=True):
    cards: dict[str, Card]
    offices: dict[str, OfficeCard]
    street: tuple[str, ...]
    street_2p: tuple[str, ...]
    first_office: str


def _fail(message: str) -> ConfigError:
    return ConfigError(Code.INVALID_CARD_DATA, message)


def _effect(where: str, entry: Mapping[str, Any]) -> tuple[str, int]:
    effect = entry.get("effect")
    if not isinstance(effect, dict):
        raise _fail(f"{where}: effect must be a table {{kind = \"...\", n = N}}")
    kind = str(effect.get("kind"))
    if kind not in KINDS:
        raise _fail(f"{where}: effect kind {kind!r} is not one of {', '.join(KINDS)}")
    n = effect.get("n", 0)
    if KINDS[kind] and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
        raise _fail(f"{where}: effect {kind} needs a whole number n >= 1, got {n!r}")
    return str(kind), int(n) if KINDS[kind] else 0


def _str(where: str, entry: Mapping[str, Any], field: str, choices: tuple[str, ...] = ()) -> str:
    value = entry.get(field)
    if not isinstance(value, str) or not value:
        raise _fail(f"{where}: {field} must be a non-empty string")
    if choices and value not in choices:
        raise _fail(f"{where}: {field} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _russian(where: str, entry: Mapping[str, Any]) -> str:
    """The entry's Russian name (``name_ru``), empty when it gives none."""
    value = entry.get("name_ru", "")
    if not isinstance(value, str):
        raise _fail(f"{where}: name_ru must be a string")
    return value


def _int(where: str, entry: Mapping[str, Any], field: str, default: int | None = None) -> int:
    value = entry.get(field, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(f"{where}: {field} must be a whole number >= 0, got {value!r}")
    return value


def parse_data(text: str, source: str = "") -> DataSet:
    try:
        raw = load_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(f"card data {source or '(inline)'} is not valid TOML: {exc}") from None
    unknown = sorted(set(raw) - set(CARD_TABLES))
    if unknown:
        raise _fail(f"card data: unknown table {unknown[0]!r}; tables are {', '.join(CARD_TABLES)}")
    cards: dict[str, Card] = {}
    for entry in raw.get("starter", []):
        where = f"starter {entry.get('key', '?')}"
        key = _str(where, entry, "key")
        kind, n = _effect(where, entry)
        numbers = entry.get("numbers")
        if not isinstance(numbers, list) or not all(isinstance(x, int) and 1 <= x <= 99 for x in numbers):
            raise _fail(f"{where}: numbers must be a list of card numbers")
        for letter in SETS:
            for number in numbers:
                cid = f"{letter}{number:02d}"
                if cid in cards:
                    raise _fail(f"{where}: starter card {cid} is given twice")
                cards[cid] = Card(id=cid, key=key, name=_str(where, entry, "name"),
                                  name_ru=_russian(where, entry), color=_str(where, entry, "color", COLORS),
                                  kind=kind, n=n, cost=0,
                                  number=number, set=letter)
    for entry in raw.get("card", []):
        where = f"card {entry.get('id', '?')}"
        cid = _str(where, entry, "id")
        if cid in cards:
            raise _fail(f"{where}: id given twice")
        stage = _str(where, entry, "stage", STAGE_NAMES)
        kind, n = _effect(where, entry)
        number = entry.get("number")
        if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 0):
            raise _fail(f"{where}: number must be a whole number (or left out for a doctorate)")
        if number is None and stage != "V":
            raise _fail(f"{where}: only doctorates (stage V) go without a number")
        cards[cid] = Card(id=cid, key=_str(where, entry, "key"), name=_str(where, entry, "name"),
                          name_ru=_russian(where, entry), color=_str(where, entry, "color", COLORS), kind=kind, n=n,
                          cost=_int(where, entry, "cost", 0),
                          number=number, stage=stage)
    if not any(c.set for c in cards.values()):
        raise _fail("card data: no [[starter]] cards (each seat needs a starter set)")
    offices: dict[str, OfficeCard] = {}
    for entry in raw.get("office", []):
        where = f"office {entry.get('id', '?')}"
        oid = _str(where, entry, "id")
        if oid in offices or oid in cards:
            raise _fail(f"{where}: id given twice")
        source = _str(where, entry, "source", ("board", "normal", "additional"))
        kind, n = _effect(where, entry)
        players = department = None
        if source == "normal":
            players = _str(where, entry, "players", ("3-4", "4"))
        if source == "additional":
            department = _int(where, entry, "department")
            if not 1 <= department <= 5:
                raise _fail(f"{where}: department must be 1 to 5, got {department}")
        offices[oid] = OfficeCard(id=oid, name=_str(where, entry, "name"), name_ru=_russian(where, entry),
                                  source=source,
                                  color=_str(where, entry, "color", COLORS), kind=kind, n=n, players=players,
                                  department=department)
    if not any(o.source == "additional" and o.department == 1 for o in offices.values()):
        raise _fail("card data: no additional office of department 1 (the first office comes from there)")
    base = raw.get("baseline", {})
    street = tuple(base.get("street", ()))
    street_2p = tuple(base.get("street_2p", ()))
    for name, row in (("street", street), ("street_2p", street_2p)):
        if len(row) != 11 or any(c not in cards for c in row):
            raise _fail(f"baseline.{name} must list 11 card ids of the catalogue")
    first = str(base.get("first_office", ""))
    if first not in offices:
        raise _fail(f"baseline.first_office {first!r} is not an office of the data set")
    return DataSet(cards=cards, offices=offices, street=street, street_2p=street_2p, first_office=first)


def first_ids(items: Mapping[str, Card] | Mapping[str, OfficeCard]) -> dict[str, str]:
    """Each name -> the first id that bears it (copies of a card share its name)."""
    out: dict[str, str] = {}
    for iid, item in items.items():
        out.setdefault(item.name, iid)
    return out


def card_hint(cards: Mapping[str, Card], card: str) -> str:
    """`` (did you mean K06?)``: the ids closest to ``card``, or the id of a card whose name is close."""
    return did_you_mean(card, cards, names=first_ids(cards))


def unknown_card(cards: Mapping[str, Card], card: str) -> str:
    """The refusal's words for a card id the set lacks, with the closest ids (or the id of a close name)."""
    return f"unknown card id {card!r}{card_hint(cards, card)}"


def unknown_office(offices: Mapping[str, OfficeCard], office: str) -> str:
    """The refusal's words for an office id the set lacks, with the closest ids (or the id of a close name)."""
    return f"unknown office id {office!r}{did_you_mean(office, offices, names=first_ids(offices))}"
