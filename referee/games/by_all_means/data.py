"""Card-definition data (rules spec, section 7.1): a TOML text parsed into frozen Structs.

The rulebook prints no card list, so cards are data: ``[set]``, ``[[card]]`` (with
``[[card.ability]]``), ``[[combination]]`` (the symbol pair -> effect table) and ``[[deck]]``.
Validation errors name the card and the field ("TR4: price_hand must be an integer or '-'") and are
raised as :class:`ConfigError` with code ``by_all_means/cards_invalid``. Parsing reads text only: the
service reads files and stores the text with the match.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import msgspec

from referee.engine.datafile import load_toml
from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from .codes import Code

CARD_TYPES = ("territory", "agent", "graffiti_agent", "graffiti", "plot")
AGENT_TYPES = ("agent", "graffiti_agent")
KEYWORDS = ("operative", "utilization", "discard_this")
ABILITY_KINDS = ("static", "on_enter", "on_leave", "activated", "activated_free", "trigger")
ARROWS = ("up", "down", "left", "right")
DISCARD_ZONES = ("hand", "buffer", "field")
PLACEMENTS = ("any", "own", "opponent")
SYMBOL_EFFECTS = (
    "slander", "info_leak", "expose", "mutual_strike", "blackmail", "boost_potential", "restoration",
    "foresight", "download", "power_management", "inspire", "intimidate", "sabotage", "destroy_plans",
    "remove_agent",
)
DEFAULT_SYMBOLS = ("s1", "s2", "s3", "s4", "s5")

#: the reference table of section 4.6 (used when the card set gives no [[combination]])
REFERENCE_TABLE: tuple[tuple[str, str, str], ...] = (
    ("s1", "s1", "slander"), ("s1", "s2", "info_leak"), ("s1", "s3", "expose"),
    ("s1", "s4", "mutual_strike"), ("s1", "s5", "blackmail"), ("s2", "s2", "boost_potential"),
    ("s2", "s3", "restoration"), ("s2", "s4", "foresight"), ("s2", "s5", "download"),
    ("s3", "s3", "power_management"), ("s3", "s4", "inspire"), ("s3", "s5", "intimidate"),
    ("s4", "s4", "sabotage"), ("s4", "s5", "destroy_plans"), ("s5", "s5", "remove_agent"),
)

_CELL_LIKE = re.compile(r"^[A-Da-d][1-4]$")
_ID = re.compile(r"^[A-Za-z0-9_\-]+$")
ERR = Code.CARDS_INVALID


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    kind: str
    text: str = ""
    timing: str | None = None


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One card's printed data. A price of ``None`` is the dash: not playable from that zone."""

    id: str
    name: str
    #: the Russian name (empty: the English one is read in every language)
    name_ru: str = ""
    type: str
    price_hand: int | None
    price_buffer: int | None
    digit: int | None = None
    symbols: tuple[str, ...] = ()
    influence: int = 0
    loyalty: int = 0
    impact_own: int = 0
    impact_opp: int = 0
    arrows: tuple[str, ...] = ()
    efficiency: int = 0
    resilience: int = 0
    keywords: tuple[str, ...] = ()
    discard_zones: tuple[str, ...] | None = None
    placement: str = "any"
    stays_attached: bool = False
    deploy_condition: str | None = None
    text: str = ""
    abilities: tuple[Ability, ...] = ()

    def price(self, zone: str) -> int | None:
        return self.price_hand if zone == "hand" else self.price_buffer

    def ability(self, ability_id: str) -> Ability | None:
        for a in self.abilities:
            if a.id == ability_id:
                return a
        return None


class Combination(msgspec.Struct, frozen=True, kw_only=True):
    pair: tuple[str, str]
    effect: str
    own_delta: int | None = None


class CardSet(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    version: int
    active_symbols: tuple[str, ...]
    neutral_symbol: str
    cards: dict[str, Card]
    combinations: tuple[Combination, ...]
    decks: dict[str, tuple[str, ...]]
    deck_order: tuple[str, ...]

    @property
    def symbols(self) -> tuple[str, ...]:
        return (*self.active_symbols, self.neutral_symbol)


def _fail(message: str) -> ConfigError:
    return ConfigError.said(ERR, N_("card set: {message}"), message=message)


def _int(where: str, field: str, value: Any, *, minimum: int | None = None, dash: bool = False) -> int | None:
    if dash and value in ("-", "–"):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        extra = " or '-'" if dash else ""
        raise _fail(f"{where}: {field} must be an integer{extra}, not {value!r}")
    if minimum is not None and value < minimum:
        raise _fail(f"{where}: {field} must be at least {minimum}, not {value}")
    return value


def _str_list(where: str, field: str, value: Any, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(f"{where}: {field} must be a list of strings, not {value!r}")
    if allowed is not None:
        for v in value:
            if v not in allowed:
                raise _fail(f"{where}: {field} has {v!r}; expected any of {', '.join(allowed)}")
    return tuple(value)


_CARD_FIELDS = {
    "id", "name", "name_ru", "type", "price_hand", "price_buffer", "digit", "symbols", "influence", "loyalty",
    "impact_own", "impact_opp", "arrows", "efficiency", "resilience", "keywords", "discard_zones",
    "placement", "stays_attached", "deploy_condition", "text", "ability",
}


def _card(raw: Any, index: int, symbols: tuple[str, ...]) -> Card:
    if not isinstance(raw, dict):
        raise _fail(f"card #{index} must be a table ([[card]])")
    cid = raw.get("id")
    if not isinstance(cid, str) or not _ID.match(cid):
        raise _fail(f"card #{index}: id must be a word of letters, digits, '_' or '-', not {cid!r}")
    where = cid
    if _CELL_LIKE.match(cid) or re.match(r"^buf\d+$", cid):
        raise _fail(f"{where}: id must not look like a cell name (A1..D4) or a buffer slot (buf1)")
    unknown = sorted(set(raw) - _CARD_FIELDS)
    if unknown:
        raise _fail(f"{where}: unknown field(s) {', '.join(unknown)}")
    for field in ("name", "type", "price_hand", "price_buffer"):
        if field not in raw:
            raise _fail(f"{where}: {field} is required")
    for field in ("name", "name_ru"):
        if not isinstance(raw.get(field, ""), str):
            raise _fail(f"{where}: {field} must be a string")
    ctype = raw["type"]
    if ctype not in CARD_TYPES:
        raise _fail(f"{where}: type must be one of {', '.join(CARD_TYPES)}, not {ctype!r}")
    if ctype == "territory" and "loyalty" not in raw:
        raise _fail(f"{where}: loyalty is required for a territory")
    if ctype in AGENT_TYPES:
        for field in ("efficiency", "resilience"):
            if field not in raw:
                raise _fail(f"{where}: {field} is required for {ctype}")
    digit = raw.get("digit")
    abilities = []
    seen_ab: set[str] = set()
    for j, ab in enumerate(raw.get("ability", []), start=1):
        if not isinstance(ab, dict) or not isinstance(ab.get("id"), str):
            raise _fail(f"{where}: ability #{j} needs an id")
        if ab["id"] in seen_ab:
            raise _fail(f"{where}: ability id {ab['id']!r} appears twice")
        seen_ab.add(ab["id"])
        if ab.get("kind") not in ABILITY_KINDS:
            raise _fail(f"{where}: ability {ab['id']}: kind must be one of {', '.join(ABILITY_KINDS)}")
        timing = ab.get("timing")
        if timing is not None and timing not in ("turn_start", "turn_end"):
            raise _fail(f"{where}: ability {ab['id']}: timing must be turn_start or turn_end")
        extra = sorted(set(ab) - {"id", "kind", "text", "timing"})
        if extra:
            raise _fail(f"{where}: ability {ab['id']}: unknown field(s) {', '.join(extra)}")
        abilities.append(Ability(id=ab["id"], kind=ab["kind"], text=str(ab.get("text", "")), timing=timing))
    placement = raw.get("placement", "any")
    if placement not in PLACEMENTS:
        raise _fail(f"{where}: placement must be one of {', '.join(PLACEMENTS)}, not {placement!r}")
    stays = raw.get("stays_attached", False)
    if not isinstance(stays, bool):
        raise _fail(f"{where}: stays_attached must be true or false")
    cond = raw.get("deploy_condition")
    if cond is not None and not isinstance(cond, str):
        raise _fail(f"{where}: deploy_condition must be a string")
    zones = raw.get("discard_zones")
    return Card(
        id=cid,
        name=raw["name"],
        name_ru=raw.get("name_ru", ""),
        type=ctype,
        price_hand=_int(where, "price_hand", raw["price_hand"], minimum=0, dash=True),
        price_buffer=_int(where, "price_buffer", raw["price_buffer"], minimum=0, dash=True),
        digit=None if digit is None else _int(where, "digit", digit, minimum=0),
        symbols=_str_list(where, "symbols", raw.get("symbols", []), symbols),
        influence=_int(where, "influence", raw.get("influence", 0)) or 0,
        loyalty=_int(where, "loyalty", raw.get("loyalty", 0)) or 0,
        impact_own=_int(where, "impact_own", raw.get("impact_own", 0)) or 0,
        impact_opp=_int(where, "impact_opp", raw.get("impact_opp", 0)) or 0,
        arrows=_str_list(where, "arrows", raw.get("arrows", []), ARROWS),
        efficiency=_int(where, "efficiency", raw.get("efficiency", 0), minimum=0) or 0,
        resilience=_int(where, "resilience", raw.get("resilience", 0), minimum=0) or 0,
        keywords=_str_list(where, "keywords", raw.get("keywords", []), KEYWORDS),
        discard_zones=None if zones is None else _str_list(where, "discard_zones", zones, DISCARD_ZONES),
        placement=placement,
        stays_attached=stays,
        deploy_condition=cond,
        text=str(raw.get("text", "")),
        abilities=tuple(abilities),
    )


#: the card file's top-level tables and the field keying their entries ("": given whole)
CARD_TABLES = {"set": "", "card": "id", "combination": "", "deck": ""}


@functools.lru_cache(maxsize=32)
def parse_card_set(text: str) -> CardSet:
    """Parse and validate a card-definition TOML text (a pure function of the text: memoised, so a
    server binding many matches of one card set parses it once)."""
    import tomllib  # (imported here: a match of the bundled cards alone reads no card file)

    try:
        data = load_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(f"not valid TOML: {exc}") from None
    unknown = sorted(set(data) - set(CARD_TABLES))
    if unknown:
        raise _fail(f"unknown section(s) {', '.join(unknown)}; expected [set], [[card]], [[combination]], [[deck]]")
    head = data.get("set", {})
    if not isinstance(head, dict):
        raise _fail("[set] must be a table")
    active = head.get("active_symbols", list(DEFAULT_SYMBOLS))
    if not isinstance(active, list) or len(active) != 5 or not all(isinstance(s, str) and _ID.match(s) for s in active):
        raise _fail(f"[set] active_symbols must be a list of 5 symbol ids, not {active!r}")
    if len(set(active)) != 5:
        raise _fail(f"[set] active_symbols must be 5 different ids, not {active!r}")
    neutral = head.get("neutral_symbol", "lilac")
    if not isinstance(neutral, str) or neutral in active:
        raise _fail(f"[set] neutral_symbol must be an id different from the active symbols, not {neutral!r}")
    symbols = (*active, neutral)
    cards: dict[str, Card] = {}
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list) or not raw_cards:
        raise _fail("no cards: a card set needs [[card]] tables")
    for i, raw in enumerate(raw_cards, start=1):
        card = _card(raw, i, symbols)
        if card.id in cards:
            raise _fail(f"{card.id}: the id appears twice")
        cards[card.id] = card
    combos: list[Combination] = []
    seen_pairs: set[tuple[str, str]] = set()
    for i, raw in enumerate(data.get("combination", []), start=1):
        if not isinstance(raw, dict):
            raise _fail(f"combination #{i} must be a table")
        pair = raw.get("pair")
        if not isinstance(pair, list) or len(pair) != 2 or any(p not in active for p in pair):
            raise _fail(f"combination #{i}: pair must be two of the active symbols {', '.join(active)}, not {pair!r}")
        key = (min(pair), max(pair))
        if key in seen_pairs:
            raise _fail(f"combination #{i}: the pair {pair[0]}+{pair[1]} is given twice")
        seen_pairs.add(key)
        effect = raw.get("effect")
        if effect not in SYMBOL_EFFECTS:
            raise _fail(f"combination #{i}: effect must be one of {', '.join(SYMBOL_EFFECTS)}, not {effect!r}")
        own_delta = raw.get("own_delta")
        if own_delta is not None:
            if effect != "inspire":
                raise _fail(f"combination #{i}: own_delta is for inspire only")
            _int(f"combination #{i}", "own_delta", own_delta)
        combos.append(Combination(pair=(pair[0], pair[1]), effect=effect, own_delta=own_delta))
    decks: dict[str, tuple[str, ...]] = {}
    order: list[str] = []
    for i, raw in enumerate(data.get("deck", []), start=1):
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise _fail(f"deck #{i} needs an id")
        did = raw["id"]
        if did in decks:
            raise _fail(f"deck {did}: the id appears twice")
        decks[did] = _str_list(f"deck {did}", "cards", raw.get("cards", []))
        order.append(did)
    return CardSet(
        id=str(head.get("id", "cards")),
        name=str(head.get("name", head.get("id", "cards"))),
        version=int(head.get("version", 1)) if isinstance(head.get("version", 1), int) else 1,
        active_symbols=tuple(active),
        neutral_symbol=neutral,
        cards=cards,
        combinations=tuple(combos),
        decks=decks,
        deck_order=tuple(order),
    )


def combination_table(cards: CardSet, source: str) -> dict[tuple[str, str], Combination]:
    """The unordered symbol pair -> effect table: the card set's, or the reference table."""
    if source == "card_set":
        combos = cards.combinations
    else:
        if tuple(cards.active_symbols) != DEFAULT_SYMBOLS:
            raise ConfigError.said(ERR, N_(
                "the reference combination table uses the symbols s1..s5; this card set names its symbols {symbols}, "
                "so it needs a [[combination]] table (option combination_table=card_set)"),
                symbols=", ".join(cards.active_symbols))
        combos = tuple(Combination(pair=(a, b), effect=e) for a, b, e in REFERENCE_TABLE)
    table: dict[tuple[str, str], Combination] = {}
    for c in combos:
        a, b = sorted(c.pair)
        table[(a, b)] = c
    return table


def validate_deck(cards: CardSet, seat: str, deck_id: str, deck_size: int, max_copies: int) -> tuple[str, ...]:
    """The deck's card list, or ConfigError ``by_all_means/deck_invalid`` naming what is wrong."""
    if deck_id not in cards.decks:
        known = ", ".join(cards.deck_order) or "none"
        raise ConfigError.said(Code.DECK_INVALID, N_("{seat}: no deck {deck!r} in card set {cards} (decks: {known})"),
                               seat=seat, deck=deck_id, cards=cards.id, known=known)
    deck = cards.decks[deck_id]
    if len(deck) != deck_size:
        raise ConfigError.said(Code.DECK_INVALID, N_("{seat}: deck {deck} has {n} cards; a deck has exactly {size}"),
                               seat=seat, deck=deck_id, n=len(deck), size=deck_size)
    counts: dict[str, int] = {}
    for cid in deck:
        if cid not in cards.cards:
            raise ConfigError.said(Code.DECK_INVALID, N_("{seat}: deck {deck} names unknown card {card!r}"),
                                   seat=seat, deck=deck_id, card=cid)
        counts[cid] = counts.get(cid, 0) + 1
    for cid in sorted(counts):
        if counts[cid] > max_copies:
            raise ConfigError.said(Code.DECK_INVALID, N_(
                "{seat}: deck {deck} has {n} copies of {card}; at most {most} are allowed"),
                seat=seat, deck=deck_id, n=counts[cid], card=cid, most=max_copies)
    return deck

