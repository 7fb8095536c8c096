"""Card data (spec §5.1): a TOML file of ``[[card]]`` tables, read from text and validated.

The rulebook prints almost no cards, so every card is data. Unknown fields, fields that do not apply
to a card's type and values out of range are refused with the card and field named. A set that
declares ``complete = true`` is also checked against the component totals of §1.2. Pure: text in,
:class:`CardSet` out (the service reads files; the match stores the text).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from typing import Any

import msgspec

from referee.engine.datafile import load_toml
from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from .codes import Code

CLASSES: tuple[str, ...] = ("intelligence", "leadership", "science", "tech", "will")
BUCKETS: tuple[str, ...] = ("none", *CLASSES)
ENEMY_TYPES = ("alien", "construct", "creature", "human", "spirit")
TYPES = ("avatar", "starting", "special_agent", "academy_character", "ally", "belief", "doubt", "enemy",
         "syndicate_agent", "event", "informant", "leader", "end_game", "evidence", "strike", "climax")
CHARACTER_TYPES = ("starting", "special_agent", "academy_character", "ally")
AVATARS = ("mulder", "scully", "skinner", "doggett", "reyes")
ACADEMY = ("mulder", "scully", "skinner", "doggett", "reyes", "follmer", "pendrell", "lone_gunmen", "burks")
KEYWORDS = ("coordinate", "sacrifice", "vigilant", "ambush", "apprehend", "double_strike", "triple_strike",
            "elude", "ferocious", "frightening", "lethal", "maul", "range", "ravage", "runner", "stationary",
            "stealth", "swift")
TRIGGERS = ("on_play", "on_activate", "class_condition", "on_reveal", "on_first_reveal", "on_reveal_in_shadows",
            "ongoing", "in_shadows", "in_sector", "on_cleanup", "on_draw", "on_defeat", "on_first_defeat",
            "on_strike", "on_strike_instead", "at_end", "sacrifice", "vigilant", "elude", "belief_text",
            "doubt_text", "discover", "collect")
#: text-only abilities with these triggers create a pending effect when they trigger (§5.1)
PENDING_TRIGGERS = ("on_play", "on_reveal", "on_first_reveal", "on_reveal_in_shadows", "on_cleanup", "on_draw",
                    "on_defeat", "on_first_defeat", "on_strike", "on_strike_instead", "at_end", "elude")
SOLO_RULES = ("self_cancel_if_belief", "grants_cancel", "playable_on_own_turn", "fight_yourself",
              "swap_with_box_avatar", "doubt_forbids_coordinate")
CLIMAX_KINDS = ("unexpected_help", "got_too_close", "this_time_they_may_have_won")

#: the fields each type may carry (besides id, name, type, copies, keywords, ability)
_FIELDS: dict[str, tuple[str, ...]] = {
    "avatar": ("rank", "defense", "health", "solo_rules"),
    "starting": ("class", "attack", "recruit", "star"),
    "special_agent": ("class", "attack", "recruit", "star", "cost"),
    "academy_character": ("character", "class", "attack", "recruit", "star", "cost", "play_restriction", "solo_rules"),
    "ally": ("season", "class", "attack", "recruit", "star"),
    "belief": (), "doubt": (),
    "enemy": ("season", "enemy_type", "fight", "fight_star", "fight_currency", "immunity", "vulnerability"),
    "syndicate_agent": ("enemy_type", "fight", "fight_star", "fight_currency", "immunity", "vulnerability"),
    "event": ("season", "solo_rules"),
    "informant": (), "leader": (),
    "end_game": ("defense", "health", "immunity", "vulnerability"),
    "evidence": ("priority",),
    "strike": ("damage", "miss", "solo_rules"),
    "climax": ("avatar", "climax_kind"),
}
_COMMON = ("id", "name", "name_ru", "type", "copies", "keywords", "ability")
_INTS = ("copies", "season", "priority", "attack", "recruit", "cost", "fight", "defense", "health", "rank", "damage")
_BOOLS = ("star", "fight_star", "miss")

#: component totals of §1.2 checked for a complete set: type -> copies
TOTALS = {"avatar": 5, "special_agent": 5, "informant": 15, "leader": 12, "evidence": 27, "belief": 17,
          "doubt": 17, "strike": 40, "syndicate_agent": 20, "end_game": 9, "climax": 21}


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    trigger: str
    class_condition: str = ""
    attack: int = 0
    recruit: int = 0
    draw: int = 0
    discard_self: bool = False
    grants: tuple[str, ...] = ()
    text: str = ""

    @property
    def machine(self) -> bool:
        return bool(self.attack or self.recruit or self.draw or self.discard_self)

    @property
    def text_only(self) -> bool:
        return not self.machine and not self.grants


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    #: the Russian name (empty: the English one is read in every language)
    name_ru: str = ""
    type: str
    copies: int = 1
    season: int = 0
    character: str = ""
    avatar: str = ""
    climax_kind: str = ""
    priority: int = 0
    cls: str = "none"
    attack: int = 0
    recruit: int = 0
    star: bool = False
    cost: int = 0
    enemy_type: str = ""
    fight: int = 0
    fight_star: bool = False
    fight_currency: str = "attack"
    defense: int = 0
    health: int = 0
    rank: int = 0
    damage: int = 0
    miss: bool = False
    keywords: tuple[str, ...] = ()
    immunity: tuple[str, ...] = ()
    vulnerability: tuple[str, ...] = ()
    play_restriction: str = ""
    solo_rules: tuple[str, ...] = ()
    abilities: tuple[Ability, ...] = ()

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def ability(self, trigger: str) -> Ability | None:
        return next((a for a in self.abilities if a.trigger == trigger), None)

    @property
    def letter(self) -> str:
        return "ABC"[(self.season - 1) % 3] if self.season else ""


#: the card types a conspiracy segment deals face down
DEALT = ("end_game", "informant", "leader", "enemy", "event", "ally")


class CardSet:
    """The cards of a match by id, with the lookups the rules need."""

    def __init__(self, cards: dict[str, Card], set_id: str) -> None:
        self.cards = cards
        self.id = set_id
        self.copies = {c.id: c.copies for c in cards.values()}
        #: the cards a conspiracy segment's hidden card may be (the types it deals), in the set's order
        self.dealt = tuple(c for c in cards.values() if c.type in DEALT)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def of_type(self, *types: str) -> list[Card]:
        return [c for c in self.cards.values() if c.type in types]

    def name(self, card_id: str) -> str:
        card = self.cards.get(card_id)
        return card.name if card is not None else card_id


def _err(where: str, message: str) -> ConfigError:
    return ConfigError.said(Code.BAD_CARD_DATA, N_("card data: {where}: {message}"), where=where, message=message)


def _ability(where: str, raw: Any) -> Ability:
    if not isinstance(raw, dict):
        raise _err(where, "each [[card.ability]] is a table")
    unknown = sorted(set(raw) - {"trigger", "class_condition", "effect", "grants", "text"})
    if unknown:
        raise _err(where, f"unknown field(s) {', '.join(unknown)} (fields: trigger, class_condition, effect, grants, text)")
    trigger = raw.get("trigger")
    if trigger not in TRIGGERS:
        raise _err(where, f"trigger is one of {', '.join(TRIGGERS)}, not {trigger!r}")
    cc = raw.get("class_condition", "")
    if cc and cc not in CLASSES:
        raise _err(where, f"class_condition is one of {', '.join(CLASSES)}, not {cc!r}")
    effect = raw.get("effect", {})
    if not isinstance(effect, dict) or set(effect) - {"attack", "recruit", "draw", "discard_self"}:
        raise _err(where, "effect is a table of attack, recruit, draw (whole numbers) and discard_self (true/false)")
    for k in ("attack", "recruit", "draw"):
        if k in effect and (not isinstance(effect[k], int) or isinstance(effect[k], bool) or effect[k] < 0):
            raise _err(where, f"effect.{k} is a whole number >= 0, not {effect[k]!r}")
    if "discard_self" in effect and not isinstance(effect["discard_self"], bool):
        raise _err(where, "effect.discard_self is true or false")
    grants = raw.get("grants", [])
    if not isinstance(grants, list) or any(g not in ("avoid", "cancel") for g in grants):
        raise _err(where, "grants is a list of avoid, cancel")
    text = raw.get("text", "")
    if not isinstance(text, str):
        raise _err(where, "text is a string")
    return Ability(trigger=trigger, class_condition=cc, attack=effect.get("attack", 0), recruit=effect.get("recruit", 0),
                   draw=effect.get("draw", 0), discard_self=effect.get("discard_self", False),
                   grants=tuple(grants), text=text)


def _card(raw: Any, n: int) -> Card:
    if not isinstance(raw, dict):
        raise _err(f"card #{n}", "each [[card]] is a table")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid or not cid.replace("_", "a").isalnum() or cid.lower() != cid:
        raise _err(f"card #{n}", f"id is a snake_case word, not {cid!r}")
    ctype = raw.get("type")
    if ctype not in TYPES:
        raise _err(cid, f"type is one of {', '.join(TYPES)}, not {ctype!r}")
    allowed = set(_COMMON) | set(_FIELDS[ctype])
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise _err(cid, f"field(s) {', '.join(unknown)} do not apply to a {ctype} card "
                        f"(it may have: {', '.join(sorted(allowed))})")
    for k in _INTS:
        if k in raw and (not isinstance(raw[k], int) or isinstance(raw[k], bool) or raw[k] < 0):
            raise _err(cid, f"{k} is a whole number >= 0, not {raw[k]!r}")
    for k in _BOOLS:
        if k in raw and not isinstance(raw[k], bool):
            raise _err(cid, f"{k} is true or false, not {raw[k]!r}")
    name = raw.get("name", cid)
    if not isinstance(name, str):
        raise _err(cid, "name is a string")
    name_ru = raw.get("name_ru", "")
    if not isinstance(name_ru, str):
        raise _err(cid, "name_ru is a string")

    def words(key: str, choices: tuple[str, ...]) -> tuple[str, ...]:
        value = raw.get(key, [])
        if not isinstance(value, list) or any(v not in choices for v in value):
            raise _err(cid, f"{key} is a list of {', '.join(choices)}, not {value!r}")
        return tuple(value)

    def word(key: str, choices: tuple[str, ...], default: str) -> str:
        value = raw.get(key, default)
        if value not in choices:
            raise _err(cid, f"{key} is one of {', '.join(choices)}, not {value!r}")
        return str(value)

    if raw.get("copies", 1) < 1:
        raise _err(cid, "copies is at least 1")
    if "season" in raw and not 1 <= raw["season"] <= 9:
        raise _err(cid, f"season is 1-9, not {raw['season']}")
    if "priority" in raw and not 1 <= raw["priority"] <= 3:
        raise _err(cid, f"priority is 1-3, not {raw['priority']}")
    abilities = raw.get("ability", [])
    if not isinstance(abilities, list):
        raise _err(cid, "ability is a list of [[card.ability]] tables")
    return Card(
        id=cid, name=name, name_ru=name_ru, type=ctype, copies=raw.get("copies", 1), season=raw.get("season", 0),
        character=word("character", ("", *ACADEMY), "") if ctype == "academy_character" else "",
        avatar=word("avatar", ("", *AVATARS), "") if ctype == "climax" else "",
        climax_kind=word("climax_kind", ("", *CLIMAX_KINDS), "") if ctype == "climax" else "",
        priority=raw.get("priority", 0), cls=word("class", BUCKETS, "none"), attack=raw.get("attack", 0),
        recruit=raw.get("recruit", 0), star=raw.get("star", False), cost=raw.get("cost", 0),
        enemy_type=word("enemy_type", ("", *ENEMY_TYPES), ""), fight=raw.get("fight", 0),
        fight_star=raw.get("fight_star", False), fight_currency=word("fight_currency", ("attack", "recruit"), "attack"),
        defense=raw.get("defense", 0), health=raw.get("health", 0), rank=raw.get("rank", 0),
        damage=raw.get("damage", 0), miss=raw.get("miss", False), keywords=words("keywords", KEYWORDS),
        immunity=words("immunity", CLASSES), vulnerability=words("vulnerability", CLASSES),
        play_restriction=word("play_restriction", ("", "other_players_turns"), ""),
        solo_rules=words("solo_rules", SOLO_RULES),
        abilities=tuple(_ability(f"{cid}.ability[{i}]", a) for i, a in enumerate(abilities)),
    )


def parse_cards(text: str) -> CardSet:
    """The card set in ``text`` (TOML), validated; ConfigError naming the card and field otherwise."""
    try:
        data = load_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError.said(Code.BAD_CARD_DATA, N_("card data is not valid TOML: {reason}"), reason=str(exc)) from None
    unknown = sorted(set(data) - {"set", "card", "game", "title"})
    if unknown:
        raise _err("file", f"unknown table(s) {', '.join(unknown)} (a card file holds [set] and [[card]] tables)")
    meta = data.get("set", {})
    if not isinstance(meta, dict):
        raise _err("[set]", "is a table (id, complete)")
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list) or not raw_cards:
        raise _err("file", "no [[card]] tables")
    cards: dict[str, Card] = {}
    for n, raw in enumerate(raw_cards, 1):
        card = _card(raw, n)
        if card.id in cards:
            raise _err(card.id, "the id is used twice")
        cards[card.id] = card
    if meta.get("complete", False):
        _check_complete(cards)
    _check_playable(cards)
    return CardSet(cards, str(meta.get("id", "")))


def _check_playable(cards: dict[str, Card]) -> None:
    """What every match needs whatever the set: the two starting cards, the supply stacks."""
    for cid in ("field_agent", "strike_team", "belief", "doubt"):
        if cid not in cards:
            raise _err("file", f"the set has no {cid!r} card (every match needs it)")
    if not any(c.type == "strike" for c in cards.values()):
        raise _err("file", "the set has no Strike cards")


def _check_complete(cards: dict[str, Card]) -> None:
    count: Counter[str] = Counter()
    for c in cards.values():
        count[c.type] += c.copies
    for ctype, want in TOTALS.items():
        if count[ctype] != want:
            raise _err("file", f"a complete set has {want} {ctype} cards (§1.2), this one {count[ctype]}")
    for season in range(1, 10):
        got: Counter[str] = Counter()
        for c in cards.values():
            if c.season == season and c.type in ("enemy", "event", "ally"):
                got[c.type] += c.copies
        if (got["enemy"], got["event"], got["ally"]) != (10, 3, 1):
            raise _err("file", f"season {season} has {got['enemy']} enemies, {got['event']} events, {got['ally']} "
                               "allies; a complete set has 10, 3 and 1 (§1.2)")
    for ch in ACADEMY:
        n = sum(c.copies for c in cards.values() if c.type == "academy_character" and c.character == ch)
        if n != 14:
            raise _err("file", f"Academy character {ch} has {n} cards; a complete set has 14 (§1.2)")
