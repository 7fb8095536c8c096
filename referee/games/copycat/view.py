"""Views, hidden ids and positions.

* ``view``: the full view of §1.5 (every path in every phase; ``street`` keyed ``"1"``…``"11"``;
  derived ``coins_available``, ``supply.count``, ``office_deck.count``); a seat sees its own hand, kept
  cards and order card, and of every deck, the supply and the office deck only how many cards they
  hold (``?`` per card).
* ``hidden_ids``: the card and office ids a seat cannot see (other hands, kept and order cards, every
  deck, the supply, the office deck).
* Positions (§8.0): a position not in phase ``setup`` starts from its player count's baseline (B2,
  B3, B4: the data set's baseline facts); naming a card or office card somewhere moves it there, a
  card that a zone given explicitly held and the position places nowhere else goes to the box.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import msgspec

from referee.engine.position import Placed, PositionShape
from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from .codes import Code
from .fold import PLAYER_ZONES, laid_out, sort
from .model import SLOTS, LaidOut, State, Turn
from .txn import BoundRules

HIDDEN = "?"
PHASES = ("setup", "planning", "actions", "buying", "cleanup", "game_over")


def coins_available(p: Any) -> int:
    return int(p.coins.doublable * (1 + p.coin_doublings) + p.coins.plain - p.coins.spent)


def view(rules: BoundRules, state: State, seat: str | None) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["street"] = {s: state.street.get(s) for s in SLOTS}
    # maps in one order whatever order the fold or a snapshot built them in
    data["offices"] = {oid: {**o, "uses": dict(sorted(o["uses"].items()))} for oid, o in sorted(data["offices"].items())}
    data["players"] = {s: data["players"][s] for s in rules.players}
    data["worker_supply"] = {s: data["worker_supply"].get(s, 0) for s in rules.players}
    for record in data["players"].values():
        record["card_uses"] = dict(sorted(record["card_uses"].items()))
    data["supply"]["count"] = sum(len(b.cards) for b in state.supply.bands)
    data["office_deck"]["count"] = sum(len(b.cards) for b in state.office_deck.bands)
    for name, p in state.players.items():
        record = data["players"][name]
        record["coins_available"] = coins_available(p)
        if seat is not None:
            record["deck"] = [HIDDEN] * len(p.deck)
            if name != seat:
                record["hand"] = [HIDDEN] * len(p.hand)
                record["kept"] = [HIDDEN] * len(p.kept)
                record["order_card"] = HIDDEN if p.order_card is not None else None
    if seat is not None:
        for band in data["supply"]["bands"]:
            band["cards"] = [HIDDEN] * len(band["cards"])
        for band in data["office_deck"]["bands"]:
            band["cards"] = [HIDDEN] * len(band["cards"])
    return data


def hidden_ids(state: State, seat: str | None) -> frozenset[str]:
    if seat is None:
        return frozenset()
    out: set[str] = set()
    for name, p in state.players.items():
        out |= set(p.deck)
        if name != seat:
            out |= set(p.hand) | set(p.kept)
            if p.order_card is not None:
                out.add(p.order_card)
    for band in state.supply.bands:
        out |= set(band.cards)
    for dept in state.office_deck.bands:
        out |= set(dept.cards)
    return frozenset(out)


# -- positions -----------------------------------------------------------------------------------------------

POSITION_SHAPE = PositionShape(
    derived=("players.*.coins_available", "supply.count", "office_deck.count", "outcome"),
    seat_maps=("players", "worker_supply", "offices.*.uses"),
    open_maps=("offices", "offices.*", "players.*.card_uses", "offices.*.uses"),
)


def position_base(rules: BoundRules, state: State, overrides: Mapping[str, Any]) -> State:
    if overrides.get("phase", "planning") == "setup":
        return state
    data = rules.data
    n = len(rules.players)
    street = data.street_2p if n == 2 else data.street
    doctors = sorted(c.id for c in rules.cards.values() if c.stage == "V")[:n]
    return laid_out(rules, LaidOut(street=street, doctorates=tuple(doctors), first_office=data.first_office,
                                   bus=rules.players))


def _locations(state: State) -> list[tuple[str, str]]:
    """(card or office id, where) for every id placed anywhere."""
    out: list[tuple[str, str]] = []
    for name, p in state.players.items():
        for zone in PLAYER_ZONES:
            out += [(c, f"players.{name}.{zone}") for c in getattr(p, zone)]
        if p.order_card is not None:
            out.append((p.order_card, f"players.{name}.order_card"))
    out += [(c, f"street.{s}") for s, c in state.street.items() if c is not None]
    out += [(c, "supply") for b in state.supply.bands for c in b.cards]
    out += [(c, "box") for c in state.box]
    out += [(o, f"offices.{o}") for o in state.offices]
    out += [(o, "office_deck") for b in state.office_deck.bands for o in b.cards]
    return out


def _drop(state: State, item: str, where: str) -> State:
    replace = msgspec.structs.replace
    if where.startswith("players."):
        _, name, zone = where.split(".")
        p = state.players[name]
        if zone == "order_card":
            p = replace(p, order_card=None)
        else:
            cards = list(getattr(p, zone))
            cards.remove(item)
            p = replace(p, **{zone: tuple(cards)})
        return replace(state, players={**state.players, name: p})
    if where.startswith("street."):
        return replace(state, street={**state.street, where[7:]: None})
    if where == "supply":
        return replace(state, supply=replace(state.supply, bands=tuple(
            replace(b, cards=tuple(c for c in b.cards if c != item)) for b in state.supply.bands)))
    if where == "box":
        return replace(state, box=tuple(c for c in state.box if c != item))
    if where.startswith("offices."):
        return replace(state, offices={k: v for k, v in state.offices.items() if k != item})
    return replace(state, office_deck=replace(state.office_deck, bands=tuple(
        replace(b, cards=tuple(c for c in b.cards if c != item)) for b in state.office_deck.bands)))


def _refused(template: str, /, **values: Any) -> ConfigError:
    """A starting position refused (the game's position code): ``template`` (marked ``N_``) said with ``values``."""
    return ConfigError.said(Code.INVALID_POSITION, template, **values)


def complete_position(rules: BoundRules, state: State, placed: Placed) -> State:
    replace = msgspec.structs.replace
    seats = rules.players
    if state.phase not in PHASES:
        raise _refused(N_("phase: one of {phases}, not {phase!r}"), phases=", ".join(PHASES), phase=state.phase)
    if sorted(state.bus) != sorted(seats):
        raise _refused(N_("bus: a permutation of the seats {seats}, not {bus}"), seats=", ".join(seats),
                       bus=", ".join(state.bus))
    if state.current is not None and state.current not in seats:
        raise _refused(N_("current: {seat!r} is not a seat"), seat=state.current)
    if sorted(state.street) != sorted(SLOTS):
        raise _refused(N_("street: slots are \"1\" to \"11\""))
    for oid in state.offices:
        if oid not in rules.offices:
            raise _refused(N_("offices.{office}: unknown office id"), office=oid)
    # every card and office card in exactly one place: a listed place wins over the baseline's
    found: dict[str, list[str]] = {}
    for item, where in _locations(state):
        if item not in rules.cards and item not in rules.offices:
            raise _refused(N_("{where}: unknown id {item!r}"), where=where, item=item)
        found.setdefault(item, []).append(where)
    for item, places in sorted(found.items()):
        if len(places) < 2:
            continue
        listed = [w for w in places if w in placed or (w == "office_deck" and "office_deck" in placed)]
        if len(listed) > 1 or len(set(places)) < len(places) and len(listed) != 1:
            raise _refused(N_("{item} is named twice ({places})"), item=item, places=", ".join(places))
        keep = listed[0] if listed else places[0]
        dropped = False
        for where in places:
            if where == keep and not dropped:
                dropped = True
                continue
            state = _drop(state, item, where)
    present = {item for item, _ in _locations(state)}
    missing = [c for c in (*rules.cards, *rules.offices) if c not in present]
    state = replace(state, box=sort((*state.box, *missing)))
    # counters non-negative
    for name, p in state.players.items():
        for field in ("score", "workers_available", "extra_workers", "vp_tokens", "vp_pending", "buys_left",
                      "coin_doublings", "token_doublings", "round_vp"):
            if getattr(p, field) < 0:
                raise _refused(N_("players.{seat}.{field}: a counter cannot be negative"), seat=name, field=field)
    for oid, o in state.offices.items():
        if o.vp_tokens < 0 or any(w not in seats for w in o.workers):
            raise _refused(N_("offices.{office}: workers are seats and tokens are not negative"), office=oid)
    # zones sorted; order flags; the turn at its start; seats before the current one done (buying)
    players = {}
    for name, p in state.players.items():
        changes: dict[str, Any] = {z: sort(getattr(p, z)) for z in PLAYER_ZONES}
        if p.order_card is not None:
            changes["order_chosen"] = True
        players[name] = replace(p, **changes)
    state = replace(state, players=players,
                    supply=replace(state.supply, bands=tuple(replace(b, cards=sort(b.cards)) for b in state.supply.bands)),
                    office_deck=replace(state.office_deck, bands=tuple(replace(b, cards=sort(b.cards))
                                                                       for b in state.office_deck.bands)))
    if state.phase == "actions" and "turn" not in placed:
        state = replace(state, turn=Turn(placements_left=1))
    if state.phase == "buying" and state.current is not None:
        players = dict(state.players)
        for name in state.bus[: state.bus.index(state.current)]:
            if f"players.{name}.done" not in placed:
                players[name] = replace(players[name], done=True)
        state = replace(state, players=players)
    if state.phase in ("planning",) and state.round >= 1:
        players = dict(state.players)
        for name, p in players.items():
            if p.hand and f"players.{name}.drawn_this_round" not in placed:
                players[name] = replace(p, drawn_this_round=True)
        state = replace(state, players=players)
    counts = Counter(item for item, _ in _locations(state))
    twice = sorted(c for c, k in counts.items() if k > 1)
    if twice:
        raise _refused(N_("{item} is named twice"), item=twice[0])
    return state
