"""Declared change ops (spec §4.26): the changes a player declares for card text the referee does not
have. Each op is checked against the state as it is after the ops before it; the first invalid op
refuses the whole intent with ``manual_change_invalid`` (nothing is applied: the decision's working
copy is thrown away). An op never puts a card in two places, creates a card with no copy left, takes
a counter below 0, or acts for a defeated seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from referee.engine.dispatch import Handlers

from . import flow, named
from . import model as m
from .data import BUCKETS
from .options import pay_order
from .txn import Tx

CODE = "manual_change_invalid"
PLAYER_ZONES = ("hand", "deck", "discard", "play", "vigilant")
PILES = ("defeated_characters", "defeated_conspiracy", "strike_discard")


def bad(tx: Tx, op: Any, why: str) -> NoReturn:
    tx.fail(CODE, f"op {op.__struct_config__.tag}: {why}", "§4.26")


def seat_ok(tx: Tx, op: Any, seat: str) -> None:
    if seat not in tx.d["players"]:
        bad(tx, op, f"{seat!r} is not a seat")
    if tx.player(seat)["defeated"]:
        bad(tx, op, f"{seat} has been defeated")


def card_ok(tx: Tx, op: Any, card: str) -> None:
    if card not in tx.rules.cards:
        bad(tx, op, f"unknown card {card!r}")


def take_from(tx: Tx, op: Any, card: str, zone: str) -> None:
    """Remove one copy of ``card`` from ``zone``; refuse if it is not there."""
    parts = zone.split(".")
    if parts[0] == "players" and len(parts) == 3 and parts[1] in tx.d["players"] and parts[2] in PLAYER_ZONES:
        cards = tx.player(parts[1])[parts[2]]
        if parts[2] == "play":
            entry = next((x for x in cards if x["card"] == card), None)
            if entry is None:
                bad(tx, op, f"{card} is not in {zone}")
            cards.remove(entry)
            return
        if card not in cards:
            bad(tx, op, f"{card} is not in {zone}")
        cards.remove(card)
        return
    if parts[0] in PILES and len(parts) == 1:
        if card not in tx.d[zone]:
            bad(tx, op, f"{card} is not in {zone}")
        tx.d[zone].remove(card)
        return
    if parts[0] in ("shadows", "bureau") and len(parts) == 2 and parts[1] in flow.SLOTS:
        slot = tx.d[parts[0]][parts[1]]
        if slot["card"] != card or slot["state"] == "empty":
            bad(tx, op, f"{card} is not at {zone}")
        flow.remove_at(tx, zone, card)
        return
    if parts[0] == "sector" and len(parts) == 2 and parts[1].isdigit():
        i = int(parts[1]) - 1
        if not 0 <= i < len(tx.d["sector"]) or tx.d["sector"][i] != card:
            bad(tx, op, f"{card} is not at {zone}")
        tx.d["sector"].pop(i)
        return
    if zone == "box":
        if tx.copies_left(card) < 1:
            bad(tx, op, f"no copy of {card} is left outside the game")
        return
    if zone == "special_agents":
        if card not in tx.d["special_agents"]["cards"]:
            bad(tx, op, f"{card} is not in the Special Agent stack")
        tx.d["special_agents"]["cards"].remove(card)
        return
    if zone == "academy_deck":
        if tx.d["academy_deck"]["count"] < 1 or tx.copies_left(card) < 1:
            bad(tx, op, f"{card} cannot come from the Academy deck")
        tx.d["academy_deck"]["count"] -= 1
        return
    bad(tx, op, f"{zone!r} is not a zone a card can be taken from")


def put_into(tx: Tx, op: Any, card: str, zone: str) -> None:
    parts = zone.split(".")
    if parts[0] == "players" and len(parts) == 3 and parts[1] in tx.d["players"] and parts[2] in PLAYER_ZONES:
        seat_ok(tx, op, parts[1])
        p = tx.player(parts[1])
        if parts[2] == "play":
            p["play"].append({"card": card, "activated": False, "virtual_of": ""})
        else:
            p[parts[2]] = sorted([*p[parts[2]], card])
        return
    if parts[0] in PILES and len(parts) == 1:
        tx.d[zone].append(card)
        if zone != "defeated_conspiracy":
            tx.d[zone].sort()
        return
    if parts[0] in ("shadows", "bureau") and len(parts) == 2 and parts[1] in flow.SLOTS:
        slot = tx.d[parts[0]][parts[1]]
        if slot["state"] != "empty":
            bad(tx, op, f"{zone} already holds a card")
        if parts[0] == "shadows" and right_of_end_game(tx, int(parts[1])):
            bad(tx, op, f"no card may lie right of an End Game card (R36)")
        slot.update({"state": "revealed", "card": card, "origin": "placed", "revealed_before": True})
        return
    if zone == "box":
        return
    if zone == "special_agents":
        tx.d["special_agents"]["cards"] = sorted([*tx.d["special_agents"]["cards"], card])
        return
    if zone == "academy_deck":
        tx.d["academy_deck"]["count"] += 1
        return
    if zone == "conspiracy_deck":
        tx.d["conspiracy_deck"]["segments"].insert(0, {"label": "placed", "seasons": [], "remaining": 1, "quota": {},
                                                       "seen": {}, "cards": [card]})
        return
    bad(tx, op, f"{zone!r} is not a zone a card can be put into")


def right_of_end_game(tx: Tx, s: int) -> bool:
    for k in range(1, s):
        slot = tx.d["shadows"][str(k)]
        if slot["state"] != "empty" and flow.is_end_game(tx, flow.slot_card(slot)):
            return True
    return False


def defeat_destination(tx: Tx, card: str) -> str:
    t = tx.card(card).type
    if t in ("starting", "special_agent", "academy_character", "ally"):
        return "defeated_characters"
    if t in ("enemy", "syndicate_agent", "informant", "leader", "event", "end_game"):
        return "defeated_conspiracy"
    if t == "strike":
        return "strike_discard"
    return "box"


def _leader_from_box(tx: Tx, card: str, from_: str, to: str) -> bool:
    """True if the op brings a Leader from outside the game into play: only X's fourth Leader may."""
    if from_ != "box" or tx.card(card).type != "leader" or to.split(".")[0] not in ("shadows", "sector"):
        return False
    named.leader_from_box(tx, card)
    return True


def said_so_far(tx: Tx) -> None:
    """What the declared ops changed so far, said as a declared effect of its own (before a fact an op
    brings about, so that fact says only itself)."""
    if tx.unsaid():
        tx.say(m.ManualEffectApplied, seat=tx.seat, card=tx.source if tx.source in tx.rules.cards else "",
               text=tx.source)


def apply_ops(tx: Tx, ops: Sequence[Any]) -> None:
    for op in ops:
        apply_op(tx, op)


def declare(tx: Tx, ops: Sequence[Any], source: str, text_only: bool) -> None:
    """The changes a player declares for SOURCE's text (§4.26): applied and said as one declared effect,
    which keeps its paths; a text the referee does not have counts as resting on a declaration."""
    apply_ops(tx, ops)
    if text_only:
        tx.declared()
    if ops or text_only:
        tx.say(m.ManualEffectApplied, seat=tx.seat, card=source if source in tx.rules.cards else "", text=source)


#: the ops that bring about a fact of the game's (a scar and what follows it, a Belief or Doubt gained, End
#: Game damage, a player defeated, the game lost): what the ops before them changed is said first
BRING_ABOUT = (m.OpAddScar, m.OpGainBelief, m.OpGainDoubt, m.OpEndGameDamage, m.OpDefeatPlayer, m.OpLoseGame)


def apply_op(tx: Tx, op: Any) -> None:
    """Checks ``op`` against the working state and applies it; a bad op refuses the intent."""
    handler = HANDLERS.get(type(op))
    if handler is None:  # pragma: no cover - the union is closed
        bad(tx, op, "unknown op")
    if isinstance(op, BRING_ABOUT):
        said_so_far(tx)
    handler(tx, op)


#: one handler per kind of op, in the spec's order
HANDLERS: Handlers[Callable[[Tx, Any], None]] = Handlers("xfiles_encounters ops")
_on = HANDLERS.on


def _slot_at(tx: Tx, op: Any, location: str, zones: tuple[str, ...]) -> dict[str, Any]:
    """The slot ``location`` names in one of ``zones`` (``shadows.3``), or the op is refused."""
    zone, _, n = location.partition(".")
    if zone not in zones or n not in flow.SLOTS:
        bad(tx, op, f"{location!r} is not a slot")
    slot: dict[str, Any] = tx.d[zone][n]
    return slot


def _wound(tx: Tx, op: m.OpHeal | m.OpScar) -> str:
    """The k-th wound of the op's player, taken off."""
    seat_ok(tx, op, op.player)
    wounds = tx.player(op.player)["wounds"]
    if not 1 <= op.k <= len(wounds):
        bad(tx, op, f"{op.player} has {len(wounds)} wound(s); k={op.k}")
    card: str = wounds.pop(op.k - 1)
    return card


def _deck_seat(zone: str, tx: Tx) -> str | None:
    """The seat whose deck ``zone`` is (``players.<seat>.deck``), else None."""
    parts = zone.split(".")
    if len(parts) == 3 and parts[0] == "players" and parts[1] in tx.d["players"] and parts[2] == "deck":
        return parts[1]
    return None


@_on(m.OpMove)
def _move(tx: Tx, op: m.OpMove) -> None:
    card_ok(tx, op, op.card)
    x_leader = _leader_from_box(tx, op.card, op.from_, op.to)
    take_from(tx, op, op.card, op.from_)
    put_into(tx, op, op.card, op.to)
    if x_leader:
        named.mark_x_leader(tx, op.card)


@_on(m.OpGain)
def _gain(tx: Tx, op: m.OpGain) -> None:
    seat_ok(tx, op, op.player)
    card_ok(tx, op, op.card)
    take_from(tx, op, op.card, op.from_)
    put_into(tx, op, op.card, f"players.{op.player}.discard")


@_on(m.OpDefeat)
def _defeat(tx: Tx, op: m.OpDefeat) -> None:
    card_ok(tx, op, op.card)
    take_from(tx, op, op.card, op.from_)
    t = tx.card(op.card).type
    if t == "belief":
        tx.d["belief_stack"] += 1
    elif t == "doubt":
        tx.d["doubt_stack"] += 1
    else:
        put_into(tx, op, op.card, defeat_destination(tx, op.card))


@_on(m.OpDiscard)
def _discard(tx: Tx, op: m.OpDiscard) -> None:
    seat_ok(tx, op, op.player)
    card_ok(tx, op, op.card)
    take_from(tx, op, op.card, f"players.{op.player}.hand")
    put_into(tx, op, op.card, f"players.{op.player}.discard")


@_on(m.OpDraw)
def _draw(tx: Tx, op: m.OpDraw) -> None:
    seat_ok(tx, op, op.player)
    if op.n < 1:
        bad(tx, op, "draws at least 1 card")
    tx.push_back({"kind": "draw", "seat": op.player, "count": op.n})


@_on(m.OpPoints)
def _points(tx: Tx, op: m.OpPoints) -> None:
    pool = tx.turn[op.kind]
    if op.amount >= 0:
        pool[op.bucket] += op.amount
    else:
        need = -op.amount
        if sum(pool.values()) < need:
            bad(tx, op, f"takes {need} {op.kind}; the pool holds {sum(pool.values())}")
        for b in pay_order(tx.opt):
            use = min(pool[b], need)
            pool[b] -= use
            need -= use
    if op.bucket not in BUCKETS:  # pragma: no cover - typed by the notation
        bad(tx, op, f"bucket {op.bucket!r}")


@_on(m.OpHeal)
def _heal(tx: Tx, op: m.OpHeal) -> None:
    card = _wound(tx, op)
    tx.d["strike_discard"] = sorted([*tx.d["strike_discard"], card])


@_on(m.OpScar)
def _scar(tx: Tx, op: m.OpScar) -> None:
    card = _wound(tx, op)
    tx.player(op.player)["scars"].append(card)


@_on(m.OpAddScar)
def _add_scar(tx: Tx, op: m.OpAddScar) -> None:
    seat_ok(tx, op, op.player)
    if not flow.blind_scar(tx, op.player):
        flow.lose(tx, "strikes_exhausted")
        return
    flow.check_defeat(tx, op.player)


@_on(m.OpStrike)
def _strike(tx: Tx, op: m.OpStrike) -> None:
    seat_ok(tx, op, op.player)
    tx.push_back({"kind": "strike", "seat": op.player, "source": "effect", "strike_no": 1, "strikes": 1,
                  "reason": "effect"})


@_on(m.OpReveal)
def _reveal(tx: Tx, op: m.OpReveal) -> None:
    zone, _, n = op.location.partition(".")
    if zone not in ("shadows", "bureau", "evidence") or n not in flow.SLOTS or (zone == "evidence" and n > "3"):
        bad(tx, op, f"{op.location!r} is not a slot")
    slot = tx.d[zone][n]
    if slot["state"] not in ("hidden", "undiscovered"):
        bad(tx, op, f"no hidden card at {op.location}")
    tx.push_back({"kind": "reveal", "seat": tx.current, "location": op.location,
                  "origin": slot.get("origin", "effect")})


@_on(m.OpHide)
def _hide(tx: Tx, op: m.OpHide) -> None:
    zone, _, n = op.location.partition(".")
    if zone not in ("shadows", "bureau") or n not in flow.SLOTS or tx.d[zone][n]["state"] != "revealed":
        bad(tx, op, f"no face-up card in a slot at {op.location}")
    tx.d[zone][n]["state"] = "hidden"
    for c in tx.d[zone][n]["beneath"]:
        tx.d["defeated_conspiracy"].append(c)
    tx.d[zone][n]["beneath"] = []


@_on(m.OpPlace)
def _place(tx: Tx, op: m.OpPlace) -> None:
    card_ok(tx, op, op.card)
    x_leader = _leader_from_box(tx, op.card, op.from_, op.location)
    take_from(tx, op, op.card, op.from_)
    zone, _, n = op.location.partition(".")
    if zone == "shadows" and n in flow.SLOTS:
        if right_of_end_game(tx, int(n)) and op.card != "clone":
            bad(tx, op, "no card may lie right of an End Game card (R36)")
        face = "hidden" if op.from_ in ("conspiracy_deck", "academy_deck", "special_agents") else "revealed"
        obj = {"state": face, "card": op.card, "origin": "placed", "beneath": [], "revealed_before": face == "revealed",
               "via_x": False}
        said_so_far(tx)  # the cards pushed on are facts of their own, after what was declared before them
        flow.put(tx, obj, flow.make_room(tx, obj, int(n)), None)
    else:
        put_into(tx, op, op.card, op.location)
    if x_leader:
        named.mark_x_leader(tx, op.card)


@_on(m.OpAttach, m.OpBeneath)
def _attach(tx: Tx, op: m.OpAttach | m.OpBeneath) -> None:
    card_ok(tx, op, op.card)
    slot = _slot_at(tx, op, op.location, ("shadows", "bureau"))
    if isinstance(op, m.OpBeneath) and slot["state"] == "empty":
        bad(tx, op, f"no card at {op.location} to put it beneath")
    take_from(tx, op, op.card, op.from_)
    slot["attached" if isinstance(op, m.OpAttach) else "beneath"].append(op.card)


@_on(m.OpGainBelief)
def _gain_belief(tx: Tx, op: m.OpGainBelief) -> None:
    seat_ok(tx, op, op.player)
    flow.gain_belief(tx, op.player)


@_on(m.OpGainDoubt)
def _gain_doubt(tx: Tx, op: m.OpGainDoubt) -> None:
    seat_ok(tx, op, op.player)
    flow.gain_doubt(tx, op.player)


@_on(m.OpBeliefText, m.OpDoubtText)
def _text_resolved(tx: Tx, op: m.OpBeliefText | m.OpDoubtText) -> None:
    seat_ok(tx, op, op.player)
    flag = "belief_text_resolved" if isinstance(op, m.OpBeliefText) else "doubt_resolved"
    if tx.turn[flag]:
        bad(tx, op, f"{flag} is already set this turn")
    tx.turn[flag] = True


@_on(m.OpCounter)
def _counter(tx: Tx, op: m.OpCounter) -> None:
    seat_ok(tx, op, op.player)
    if op.value < 0:
        bad(tx, op, "a counter is at least 0")
    if not named.symptoms_tracked(tx):
        bad(tx, op, "Symptoms are tracked only while Infection is face up (R45)")
    tx.player(op.player)["symptoms"] = op.value


@_on(m.OpGrant)
def _grant(tx: Tx, op: m.OpGrant) -> None:
    if op.player not in tx.d["players"]:
        bad(tx, op, f"{op.player!r} is not a seat")
    tx.turn["grants"].append(f"{op.kind}:{op.player}")


@_on(m.OpSwitchAvatars)
def _switch_avatars(tx: Tx, op: m.OpSwitchAvatars) -> None:
    seat_ok(tx, op, op.player)
    seat_ok(tx, op, op.with_)
    one, two = tx.player(op.player), tx.player(op.with_)
    for field in ("avatar", "wounds", "scars", "symptoms"):
        one[field], two[field] = two[field], one[field]


@_on(m.OpShuffle)
def _shuffle(tx: Tx, op: m.OpShuffle) -> None:
    seat = _deck_seat(op.zone, tx)
    if seat is not None:
        tx.player(seat)["known_top"] = []
    elif op.zone not in ("academy_deck", "special_agents", "strike_deck", "defeated_conspiracy", "conspiracy_deck"):
        bad(tx, op, f"{op.zone!r} is not a deck")


@_on(m.OpPeek)
def _peek(tx: Tx, op: m.OpPeek) -> None:
    seat = _deck_seat(op.zone, tx)
    if seat is None:
        bad(tx, op, "peek reads a player's deck (players.<seat>.deck)")
    p = tx.player(seat)
    top = p.get("known_top", [])
    if top.count(op.card) + 1 > p["deck"].count(op.card):
        bad(tx, op, f"{op.card} is not in {op.zone}")
    p["known_top"] = [*top, op.card]


@_on(m.OpLock)
def _lock(tx: Tx, op: m.OpLock) -> None:
    zone, _, n = op.location.partition(".")
    if zone != "evidence" or n not in ("1", "2", "3"):
        bad(tx, op, f"{op.location!r} is not evidence.1-3")
    tx.d["evidence"][n]["locked"] = True


@_on(m.OpEndGameDamage)
def _end_game_damage(tx: Tx, op: m.OpEndGameDamage) -> None:
    card_ok(tx, op, op.card)
    if tx.card(op.card).type != "end_game" or not flow.locate(tx, op.card) or op.n < 0:
        bad(tx, op, f"{op.card} is not an End Game card in play (or n < 0)")
    flow.end_game_damaged(tx, op.card, op.n)


@_on(m.OpDefeatPlayer)
def _defeat_player(tx: Tx, op: m.OpDefeatPlayer) -> None:
    seat_ok(tx, op, op.player)
    flow.defeat_player(tx, op.player)


@_on(m.OpLoseGame)
def _lose_game(tx: Tx, op: m.OpLoseGame) -> None:
    flow.lose(tx, "declared_loss")
