"""What a role sees (§1.8), the ids it must not see, and positions (§8.0 "Position loading"). The
intents a seat could play now are in ``legal.py``, events in words in ``words.py``, the boards in
``present.py``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from referee.engine.position import Placed, PositionError, PositionShape
from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from . import flow
from . import model as m
from .data import BUCKETS, CLASSES
from .txn import BoundRules, copy, known_cards
from .codes import Code

HIDDEN = "?"


# -- views ---------------------------------------------------------------------------------------------------


def view(rules: BoundRules, state: m.State, seat: str | None) -> dict[str, Any]:
    import msgspec

    d: dict[str, Any] = copy(msgspec.to_builtins(state))
    t = d["turn"]
    t["attack_total"] = sum(t["attack"].values())
    t["recruit_total"] = sum(t["recruit"].values())
    d["awaiting"] = d["pending"][0]["kind"] if d["pending"] else ""
    d["conspiracy_deck"]["count"] = sum(int(g["remaining"]) for g in d["conspiracy_deck"]["segments"])
    d["strike_deck"]["count"] = len(d["strike_deck"]["cards"]) - int(d["strike_deck"]["blind"])
    d["special_agents"]["count"] = len(d["special_agents"]["cards"])
    for p in d["players"].values():
        p["damage"] = sum(rules.cards[w].damage for w in p["wounds"]) + len(p["scars"])
        p["health"] = rules.cards[p["avatar"]].health if p["avatar"] in rules.cards else 0
    if seat is None:
        return d
    for zone in ("shadows", "bureau"):
        for slot in d[zone].values():
            if slot["state"] == "hidden" and slot["card"] != "clone":
                slot["card"] = ""
    for g in d["conspiracy_deck"]["segments"]:
        g["cards"] = [c if c == "clone" else HIDDEN for c in g.get("cards", [])]
    for e in d["evidence"].values():
        if e["state"] == "undiscovered":
            e["card"] = ""
    d["strike_deck"]["cards"] = [HIDDEN] * len(d["strike_deck"]["cards"])
    d["special_agents"]["cards"] = [HIDDEN] * len(d["special_agents"]["cards"])
    for name, p in d["players"].items():
        if name == seat:
            continue
        p["deck"] = [HIDDEN] * len(p["deck"])
        p["known_top"] = [HIDDEN] * len(p["known_top"])
        if not d["options"]["open_hands"]:
            p["hand"] = [HIDDEN] * len(p["hand"])
    return d


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)


def hidden_ids(rules: BoundRules, state: m.State, seat: str | None) -> frozenset[str]:
    """Card ids somewhere this role cannot look and nowhere it can (§1.8)."""
    if seat is None:
        return frozenset()
    import msgspec

    full = msgspec.to_builtins(state)
    hidden: set[str] = set()
    for zone in ("shadows", "bureau"):
        for slot in full[zone].values():
            if slot["state"] == "hidden" and slot["card"] and slot["card"] != "clone":
                hidden.add(slot["card"])
    for g in full["conspiracy_deck"]["segments"]:
        hidden.update(c for c in g.get("cards", []) if c != "clone")
    for e in full["evidence"].values():
        if e["state"] == "undiscovered" and e["card"]:
            hidden.add(e["card"])
    for name, p in full["players"].items():
        if name == seat:
            continue
        hidden.update(p["deck"])
        if not full["options"]["open_hands"]:
            hidden.update(p["hand"])
    hidden.update(full["special_agents"]["cards"])
    seen: set[str] = set()
    _strings(view(rules, state, seat), seen)
    return frozenset(c for c in hidden if c and c not in seen and c in rules.cards)


# -- positions (§8.0) ----------------------------------------------------------------------------------------

DERIVED = ("turn.attack_total", "turn.recruit_total", "awaiting", "conspiracy_deck.count", "strike_deck.count",
           "special_agents.count", "players.*.damage", "players.*.health")
SLOT_DEFAULTS = flow.empty_slot()
EVIDENCE_DEFAULTS = {"state": "undiscovered", "card": "", "leader": "", "in_end_game": False, "locked": False}
PLAY_DEFAULTS = {"card": "", "activated": False, "virtual_of": ""}


def _refused(template: str, /, **values: Any) -> ConfigError:
    """A position refused (the game's position code): ``template`` (marked ``N_``) said with ``values``."""
    return ConfigError.said(Code.INVALID_POSITION, template, **values)


class PositionMixin:
    position_shape = PositionShape(derived=DERIVED, seat_maps=("players", "turn.coordinated"),
                                   open_maps=("end_game_damage", "end_game_strikes"))
    position_refusal: str = Code.INVALID_POSITION

    def position_value(self, path: str, value: Any, data: dict[str, Any]) -> Any:
        parts = path.split(".")
        if parts[0] in ("shadows", "bureau") and len(parts) == 2:
            if not isinstance(value, dict):
                raise _refused(N_("{path}: a slot is a table, e.g. {{ state = \"hidden\", origin = \"A\" }}"), path=path)
            return _record(path, value, SLOT_DEFAULTS)
        if parts[0] == "evidence" and len(parts) == 2:
            if not isinstance(value, dict):
                raise _refused(N_("{path}: an evidence slot is a table"), path=path)
            return _record(path, value, EVIDENCE_DEFAULTS)
        if path == "conspiracy_deck.segments":
            if not isinstance(value, list) or not all(isinstance(g, dict) for g in value):
                raise _refused(N_("{path}: a list of segment tables"), path=path)
            return [{"seasons": [], "remaining": 0, "quota": {}, "seen": {}, "cards": [], **g} for g in value]
        if path == "pending" and isinstance(value, list):
            from .txn import pending_item
            try:
                return [pending_item(**i) for i in value]
            except TypeError as exc:
                raise PositionError(f"{path}: {exc}") from None
        if len(parts) == 3 and parts[0] == "players" and parts[2] == "play" and isinstance(value, list):
            return [{**PLAY_DEFAULTS, **x} if isinstance(x, dict) else {**PLAY_DEFAULTS, "card": x} for x in value]
        return value

    def complete_position(self, state: m.State, placed: Placed) -> m.State:
        import msgspec

        rules: Any = self
        cards = rules.cards
        d: dict[str, Any] = copy(msgspec.to_builtins(state))
        for name, p in d["players"].items():
            for zone in ("hand", "deck", "discard", "vigilant"):
                p[zone] = sorted(p[zone])
        d["strike_discard"].sort()
        d["defeated_characters"].sort()
        everything = [*d["seats"]]
        for c in _card_ids(d):
            if c not in cards:
                raise _refused(N_("unknown card {card!r} in the position"), card=c)
        if set(d["players"]) != set(everything):
            raise _refused(N_("players: one entry per seat"))
        # supplies the position does not set are recomputed from what it places
        if "strike_deck" not in placed:
            used = Counter(w for p in d["players"].values() for w in p["wounds"])
            used += Counter(s for p in d["players"].values() for s in p["scars"] if s)
            used += Counter(d["strike_discard"])
            for v in d["end_game_strikes"].values():
                used += Counter(v)
            total = Counter({c.id: c.copies for c in cards.of_type("strike")})
            d["strike_deck"] = {"cards": sorted((total - used).elements()),
                                "blind": sum(1 for p in d["players"].values() for s in p["scars"] if not s)}
        if "special_agents" not in placed:
            everywhere = known_cards({**d, "special_agents": {"cards": []}})
            d["special_agents"]["cards"] = sorted(c.id for c in cards.of_type("special_agent")
                                                  for _ in range(max(0, c.copies - everywhere[c.id])))
        for stack, cid in (("belief_stack", "belief"), ("doubt_stack", "doubt")):
            if stack not in placed:
                held = sum(1 for p in d["players"].values() for z in ("hand", "deck", "discard", "vigilant")
                           for c in p[z] if c == cid) + sum(1 for p in d["players"].values() for x in p["play"]
                                                            if x["card"] == cid)
                d[stack] = cards.copies.get(cid, 0) - held
        if "academy_deck.count" not in placed and "academy_deck" not in placed:
            chars = set(d["academy_deck"]["characters"])
            total = sum(c.copies for c in cards.of_type("academy_character") if c.character in chars)
            total += int(d["options"]["syndicate_in_academy"])
            known = known_cards(d)
            outside = sum(n for c, n in known.items() if cards[c].type == "syndicate_agent"
                          or (cards[c].type == "academy_character" and cards[c].character in chars))
            hidden = sum(1 for s in d["bureau"].values() if s["state"] == "hidden" and not s["card"])
            d["academy_deck"]["count"] = total - outside - hidden
        # invariants
        known = known_cards(d)
        for c, n in sorted(known.items()):
            if n > cards.copies.get(c, 0):
                raise _refused(N_("{card}: {n} copies placed, the card set has {copies}"), card=c, n=n,
                                  copies=cards.copies.get(c, 0))
        for name in ("belief_stack", "doubt_stack"):
            if d[name] < 0:
                raise _refused(N_("{stack} would be {n} (more copies placed than the set holds)"), stack=name, n=d[name])
        if d["academy_deck"]["count"] < 0:
            raise _refused(N_("academy_deck.count would be negative"))
        seen_end = False
        for s in flow.SLOTS:
            slot = d["shadows"][s]
            if seen_end and slot["state"] != "empty" and slot["card"] != "clone":
                raise _refused(N_("shadows.{slot}: no card may lie right of an End Game card (R36)"), slot=s)
            if slot["state"] != "empty" and (slot["origin"] == "end_game" or (slot["card"] in cards and
                                                                            cards[slot["card"]].type == "end_game")):
                seen_end = True
        for b in (d["turn"]["attack"], d["turn"]["recruit"]):
            for k in BUCKETS:
                b.setdefault(k, 0)
        for k in CLASSES:
            d["turn"]["played_classes"].setdefault(k, 0)
        return msgspec.convert(d, m.State)


def _record(path: str, value: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(value) - set(defaults))
    if unknown:
        raise _refused(N_("{path}: unknown field(s) {unknown} (fields: {fields})"), path=path, unknown=", ".join(unknown),
                       fields=", ".join(defaults))
    return {**copy(defaults), **value}


def _card_ids(d: dict[str, Any]) -> list[str]:
    return list(known_cards(d))
