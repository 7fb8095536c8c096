"""How an intent is judged: each intent's checks and effects (spec §4.1–§4.25), after the checks every
intent shares (§4.0.3 K1–K4): the actor is not defeated, the intent answers what is pending, the phase
allows it, its locations exist. Every check reads "condition → code"; the first that fails decides.
``DECIDERS`` is the table of deciders by intent (the answers to pending inputs are ``answers.py``'s), with
the shared checks before each and the turn's procedure resumed after; ``RulesBase.decide`` runs it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, cast

from referee.engine.protocol import Deciders

from .codes import Code
from . import answers, flow, named, procedure
from . import model as m
from .data import BUCKETS, CHARACTER_TYPES
from .ops import apply_ops, declare
from .options import pay_order
from .txn import Tx

R = {  # rule citations
    "conspire": "R13, R14, R15, R36, R43", "play": "R16, R17, R18, R19", "virtual": "R42", "activate": "R17, R18",
    "belief": "R19", "doubt": "R19, R45", "scan": "R21, R24, R03", "recruit": "R22, R23", "sa": "R22, R44",
    "fight": "R31, R23, R39, R43", "fight_player": "R44", "evidence": "R29, R30", "sacrifice": "R42",
    "vigilant": "R42", "coordinate": "R42, R46", "ally": "R27", "end": "R13, R16, R32",
    "strike": "R32, R33, R34, R39, R43, R44", "avoid": "R34, R44", "cleanup": "R35, R28, R29, R42, R43",
    "draw": "R35, R44", "reveal": "§2.4, R21, R24, R15, R30, R37, R22", "effect": "R40, R41", "manual": "R40",
    "pending": "§3.2", "phase": "R13",
}

ANSWER_KINDS: dict[type[Any], tuple[str, ...]] = {
    m.Draw: ("draw",), m.Reveal: ("reveal",), m.TakeStrike: ("strike", "end_game_strike"),
    m.AvoidStrike: ("strike", "end_game_strike"), m.GiveAlly: ("ally",), m.ResolveEffect: ("effect",),
    m.ResolveDoubt: ("doubt",),
}
PHASES: dict[type[Any], tuple[str, ...]] = {
    m.Conspire: ("conspiracy",), m.EndActions: ("action",), m.Cleanup: ("cleanup",),
    **{t: ("action",) for t in (m.PlayCard, m.PlayVirtual, m.Activate, m.ActivateBelief, m.ResolveDoubt, m.Scan,
                                m.Recruit, m.RecruitSpecialAgent, m.Fight, m.FightPlayer, m.DiscoverEvidence,
                                m.CollectEvidence, m.Sacrifice, m.UseVigilant)},
}


def describe_front(item: dict[str, Any]) -> str:
    what = item["kind"]
    extra = item["source"] or item["location"]
    return f"{what}{' for ' + extra if extra else ''} from {item['seat'] or 'the current player'}"


def common_checks(tx: Tx, intent: Any) -> None:
    seat = tx.seat
    peek = tx.d.peek  # read only: what every intent checks is not copied for it
    if peek("players")[seat]["defeated"]:
        tx.fail(Code.PLAYER_DEFEATED, f"{seat}'s avatar has been defeated; {seat} no longer plays", "R32")
    pending = peek("pending")
    kinds = ANSWER_KINDS.get(type(intent))
    if pending:
        front = pending[0]
        answerer = front["seat"] or tx.current
        ok = kinds is not None and front["kind"] in kinds and seat == answerer
        if ok and isinstance(intent, m.ResolveEffect) and front["kind"] == "effect":
            pass
        if not ok:
            tx.fail(Code.PENDING_INPUT, f"waiting for {describe_front(front)}; {type(intent).__struct_config__.tag} "
                    "must wait", R["pending"])
    elif kinds is not None and not isinstance(intent, m.ResolveDoubt):
        tx.fail(Code.NOTHING_PENDING, f"nothing is awaited: no {'/'.join(kinds)} is pending", R["pending"])
    phases = PHASES.get(type(intent))
    if isinstance(intent, (m.DiscoverEvidence, m.CollectEvidence)) and tx.opt["evidence_phase"] == "any":
        phases = ("conspiracy", "action", "strike", "cleanup")
    phase = peek("turn")["phase"]
    if phases is not None and not pending and phase not in phases:
        tx.fail(Code.WRONG_PHASE, f"{type(intent).__struct_config__.tag} belongs to the {'/'.join(phases)} phase; "
                f"it is the {phase} phase", R["phase"])
    if phases is not None and pending and isinstance(intent, m.ResolveDoubt) and phase != "action":
        tx.fail(Code.WRONG_PHASE, f"resolve_doubt belongs to the action phase; it is the {phase} phase", R["phase"])


# -- locations (§4.0.2) ----------------------------------------------------------------------------------------


def parse_location(tx: Tx, loc: str, zones: tuple[str, ...]) -> tuple[str, int]:
    zone, _, num = loc.partition(".")
    if zone not in zones or not num.isdigit():
        tx.fail(Code.BAD_LOCATION, f"{loc!r} is not a location this intent can use ({' or '.join(z + '.N' for z in zones)})", "§4.0.2")
    n = int(num)
    limit = {"shadows": 5, "bureau": 5, "evidence": 3, "sector": len(tx.d["sector"])}[zone]
    if not 1 <= n <= limit:
        tx.fail(Code.BAD_LOCATION, f"{loc} does not exist now ({zone} has {limit} place(s))", "§4.0.2")
    return zone, n


def at(tx: Tx, zone: str, n: int) -> tuple[str, str]:
    """(state, card) at a location: a slot's, or a Sector entry's (always revealed)."""
    if zone == "sector":
        card = tx.d["sector"][n - 1]
        return ("revealed" if card else "hidden"), card
    slot = tx.d[zone][str(n)]
    return slot["state"], slot["card"]


# -- payment (§4.0.4) ------------------------------------------------------------------------------------------


def pay(tx: Tx, currency: str, cost: int, immune: tuple[str, ...], given: tuple[m.Pay, ...], rule: str) -> None:
    pool = tx.turn[currency]
    total = sum(pool.values())
    if total < cost:
        tx.check(False, Code.NOT_ENOUGH_ATTACK if currency == "attack" else Code.NOT_ENOUGH_RECRUIT,
                 f"needs {cost} {currency}, {tx.current} has {total}", rule)
        cost = total  # a ruling let it stand: what there is pays
    eligible = [b for b in BUCKETS if b not in immune]
    if sum(pool[b] for b in eligible) < cost:
        tx.fail(Code.IMMUNITY_EXCLUDES_POINTS, f"needs {cost} {currency} from classes other than {', '.join(immune)}; "
                f"only {sum(pool[b] for b in eligible)} qualify", "R43")
    if given:
        named: Counter[str] = Counter()
        for p in given:
            if p.bucket in immune:
                tx.fail(Code.IMMUNITY_EXCLUDES_POINTS, f"pay names {p.bucket}, which the target is immune to", "R43")
            named[p.bucket] += p.amount
        for b, amount in named.items():
            if amount < 0 or pool[b] < amount:
                tx.fail(Code.BAD_PAYMENT, f"pay takes {amount} from {b}, which holds {pool[b]}", "§4.0.4")
        if sum(named.values()) != cost:
            tx.fail(Code.BAD_PAYMENT, f"pay adds up to {sum(named.values())}; the cost is {cost}", "§4.0.4")
        paid = [m.Pay(cast(m.Bucket, b), amount) for b, amount in named.items() if amount]
    else:
        paid, left = [], cost
        for b in pay_order(tx.opt):
            if b in immune or left <= 0:
                continue
            use = min(pool[b], left)
            if use:
                paid.append(m.Pay(cast(m.Bucket, b), use))
            left -= use
    for part in paid:
        pool[part.bucket] -= part.amount
    if cost:
        tx.say(m.PointsSpent, seat=tx.current, n=cost, text=currency, currency=currency, paid=tuple(paid))


def gain_points(tx: Tx, currency: str, n: int, bucket: str, card: str = "") -> None:
    if n:
        tx.turn[currency][bucket] += n
        tx.say(m.PointsGained, seat=tx.current, card=card, n=n, text=f"{currency}:{bucket}", currency=currency,
               bucket=bucket)


# -- the intents -----------------------------------------------------------------------------------------------


def conspire(tx: Tx, intent: m.Conspire) -> None:
    d = tx.d
    movers = [s for s in range(1, 6) if d["shadows"][str(s)]["state"] != "empty"
              and flow.is_end_game(tx, flow.slot_card(d["shadows"][str(s)]))]
    for s in movers:
        slot = d["shadows"][str(s)]
        flow.move_left(tx, s, m.EndGameMoved, card=slot["card"] if slot["state"] == "revealed" else "")
    segments = d["conspiracy_deck"]["segments"]
    seg = next((g for g in segments if g["remaining"] > 0), None)
    if seg is not None:
        label = seg["label"]
        if d["season"] != label:
            old = d["season"]
            d["season"] = label
            if old:
                tx.say(m.SeasonChanged, text=label)
        known = seg["cards"][0] if seg.get("cards") else ""
        obj = {"state": "hidden", "card": known, "origin": label, "beneath": [], "revealed_before": False, "via_x": False}
        to = flow.make_room(tx, obj, 5)
        seg["remaining"] -= 1
        if seg.get("cards"):
            seg["cards"].pop(0)
        flow.put(tx, obj, to, m.ConspiracyCardPlaced, where="shadows.5", text=label)
        if tx.opt["end_game_moves_on_entry"] and label == "end_game":  # B03's other reading
            where = next((int(k) for k, sl in d["shadows"].items() if sl["origin"] == "end_game"
                          and sl["state"] == "hidden"), 0)
            if where:
                flow.move_left(tx, where, m.EndGameMoved)
    tx.turn["step"] = "runners"


def play_card(tx: Tx, intent: m.PlayCard) -> None:
    seat, card = tx.seat, intent.card
    p = tx.player(seat)
    if card not in p["hand"]:
        tx.fail(Code.CARD_NOT_IN_HAND, f"{card} is not in {seat}'s hand", R["play"])
    c = tx.card(card)
    if c.type not in (*CHARACTER_TYPES, "belief"):
        tx.fail(Code.NOT_PLAYABLE, f"{card} is a {c.type}: only characters and Beliefs are played"
                + (" (a Doubt is resolved, never played)" if c.type == "doubt" else ""), R["play"])
    if tx.turn["coordinate_forbidden"] and c.has("coordinate"):
        tx.check(False, Code.COORDINATE_CARDS_FORBIDDEN, "the solo Mulder Doubt forbids Coordinate cards this turn", "R46")
    if c.play_restriction == "other_players_turns" and not tx.solo():
        tx.check(False, Code.NOT_PLAYABLE, f"{card} is played only on other players' turns", "R46")
    p["hand"].remove(card)
    p["play"].append({"card": card, "activated": False, "virtual_of": ""})
    cls = c.cls if c.type != "belief" else ""
    tx.turn["play_log"].append({"card": card, "class": cls})
    counted(tx, card)
    tx.say(m.CardPlayed, seat=seat, card=card, cls=cls, belief=c.type == "belief")
    played(tx, card)


def counted(tx: Tx, card: str) -> None:
    """A card (or a virtual copy) played counts toward its class, or the Beliefs played (§4.2)."""
    c = tx.card(card)
    if c.type == "belief":
        tx.turn["beliefs_played"] += 1
    elif c.cls != "none":
        tx.turn["played_classes"][c.cls] += 1


def played(tx: Tx, card: str) -> None:
    """A card (or a virtual copy) was played: points, on_play abilities (§4.2)."""
    c = tx.card(card)
    if c.type == "belief":
        tx.push_back({"kind": "draw", "seat": tx.current, "count": 1})
        tx.say(m.CardsRequested, seat=tx.current, n=1)
        return
    gain_points(tx, "attack", c.attack, c.cls, card)
    gain_points(tx, "recruit", c.recruit, c.cls, card)
    earlier = [x["class"] for x in tx.turn["play_log"][:-1]]
    for a in c.abilities:
        if a.trigger != "on_play":
            continue
        if a.class_condition and a.class_condition not in earlier:
            continue
        if a.machine:
            gain_points(tx, "attack", a.attack, c.cls, card)
            gain_points(tx, "recruit", a.recruit, c.cls, card)
            if a.draw:
                tx.push_back({"kind": "draw", "seat": tx.current, "count": a.draw})
                tx.say(m.CardsRequested, seat=tx.current, n=a.draw)
        elif a.text_only and tx.opt["require_effect_resolution"]:
            tx.push_back({"kind": "effect", "seat": tx.current, "source": card, "trigger": "on_play",
                          "group": flow.next_group(tx)})


def play_virtual(tx: Tx, intent: m.PlayVirtual) -> None:
    card = tx.turn["coordinated"].get(intent.seat, "")
    if not card:
        tx.fail(Code.NOTHING_COORDINATED, f"{intent.seat} coordinated no card this turn", R["virtual"])
    if intent.seat in tx.turn["virtual_played"]:
        tx.fail(Code.VIRTUAL_ALREADY_PLAYED, f"the copy of {intent.seat}'s {card} was already played", R["virtual"])
    tx.turn["virtual_played"].append(intent.seat)
    tx.player(tx.seat)["play"].append({"card": card, "activated": False, "virtual_of": intent.seat})
    c = tx.card(card)
    tx.turn["play_log"].append({"card": card, "class": c.cls})
    counted(tx, card)
    tx.say(m.VirtualCardPlayed, seat=tx.seat, card=card, text=intent.seat, helper=intent.seat, cls=c.cls,
           belief=c.type == "belief")
    played(tx, card)


def _class_ok(tx: Tx, cls: str, card: str) -> bool:
    log = tx.turn["play_log"]
    idx = max(i for i, x in enumerate(log) if x["card"] == card) if any(x["card"] == card for x in log) else len(log)
    others = [x for i, x in enumerate(log) if i != idx and (tx.opt["class_combo_timing"] == "before_use" or i < idx)]
    return any(x["class"] == cls for x in others)


def activate(tx: Tx, intent: m.Activate) -> None:
    p = tx.player(tx.seat)
    copies = [x for x in p["play"] if x["card"] == intent.card]
    if not copies:
        tx.fail(Code.CARD_NOT_IN_PLAY, f"{intent.card} is not in {tx.seat}'s play area", R["activate"])
    a = tx.card(intent.card).ability("on_activate")
    if a is None:
        tx.fail(Code.NO_ACTIVATE_ABILITY, f"{intent.card} has no «on Activate» ability", "R17")
    fresh = [x for x in copies if not x["activated"]]
    if not fresh or (a.class_condition and len(fresh) < len(copies)):
        tx.fail(Code.ALREADY_ACTIVATED, f"{intent.card}'s ability was already used this turn", R["activate"])
    if a.class_condition and not _class_ok(tx, a.class_condition, intent.card):
        tx.check(False, Code.CLASS_CONDITION_UNMET, f"no other {a.class_condition} card was played this turn", "R18")
    fresh[0]["activated"] = True
    tx.say(m.AbilityActivated, seat=tx.seat, card=intent.card)
    if not a.text_only:
        cls = tx.card(intent.card).cls
        gain_points(tx, "attack", a.attack, cls, intent.card)
        gain_points(tx, "recruit", a.recruit, cls, intent.card)
        if a.draw:
            tx.push_back({"kind": "draw", "seat": tx.seat, "count": a.draw})
            tx.say(m.CardsRequested, seat=tx.seat, n=a.draw)
    declare(tx, intent.ops, intent.card, a.text_only)


def activate_belief(tx: Tx, intent: m.ActivateBelief) -> None:
    p = tx.player(tx.seat)
    belief = next((x for x in p["play"] if x["card"] == "belief" and not x["activated"]), None)
    if belief is None:
        tx.fail(Code.NO_BELIEF_IN_PLAY, f"{tx.seat} has no unactivated Belief in play", R["belief"])
    if tx.turn["belief_card_activated"]:
        tx.check(False, Code.BELIEF_ALREADY_ACTIVATED, "a Belief card was already activated this turn", R["belief"])
    if intent.text == "avatar":
        if tx.turn["belief_text_resolved"]:
            tx.check(False, Code.BELIEF_TEXT_ALREADY_RESOLVED, "the avatar's Belief text was already resolved this turn", R["belief"])
    else:
        if "reincarnation" not in p["climax"]:
            tx.fail(Code.LESSONS_UNAVAILABLE, f"{tx.seat} has no Reincarnation climax card", "R45")
        if tx.turn["lessons_resolved"]:
            tx.check(False, Code.BELIEF_TEXT_ALREADY_RESOLVED, "Lessons from the Past was already resolved this turn", "R45")
    p["play"].remove(belief)
    tx.d["belief_stack"] += 1
    tx.turn["belief_card_activated"] = True
    if intent.text == "avatar":
        tx.turn["belief_text_resolved"] = True
    else:
        tx.turn["lessons_resolved"] = True
        p["climax"].remove("reincarnation")
    tx.say(m.BeliefActivated, seat=tx.seat, text=intent.text)  # the Belief back to its stack
    declare(tx, intent.ops, "belief", True)


def resolve_doubt(tx: Tx, intent: m.ResolveDoubt) -> None:
    p = tx.player(tx.seat)
    if "doubt" not in p["hand"]:
        tx.fail(Code.NO_DOUBT_IN_HAND, f"{tx.seat} has no Doubt in hand", R["doubt"])
    if tx.turn["doubt_resolved"]:
        tx.check(False, Code.DOUBT_ALREADY_RESOLVED, "a Doubt was already resolved this turn", R["doubt"])
    front = tx.pending()[0] if tx.pending() else None
    if front is None or front["kind"] != "doubt" or front["seat"] != tx.seat:
        tx.fail(Code.NOTHING_PENDING, "no Doubt is waiting to be resolved", R["doubt"])
    cassandra = any(s["state"] == "revealed" and s["card"] == "cassandra_spender" for s in tx.d["shadows"].values()) \
        or "cassandra_spender" in tx.d["sector"]
    if cassandra and intent.ops:
        tx.fail(Code.DOUBT_TEXT_SUPPRESSED, "Cassandra Spender is face up: the Doubt is defeated without its text", "R45")
    p["hand"].remove("doubt")
    tx.d["doubt_stack"] += 1
    tx.turn["doubt_resolved"] = True
    tx.d["pending"].pop(0)
    forbids = not cassandra and p["avatar"] == "mulder" and tx.solo()
    if forbids:
        tx.turn["coordinate_forbidden"] = True
    tx.say(m.DoubtResolved, seat=tx.seat, text="suppressed by Cassandra Spender" if cassandra else "",
           suppressed=cassandra, forbids_coordinate=forbids)
    if not cassandra:
        declare(tx, intent.ops, "doubt", True)


def scan(tx: Tx, intent: m.Scan) -> None:
    zone, n = parse_location(tx, intent.location, ("bureau", "shadows"))
    state, _card = at(tx, zone, n)
    if state == "empty":
        tx.fail(Code.SLOT_EMPTY, f"{intent.location} is empty", R["scan"])
    if state != "hidden":
        tx.fail(Code.SLOT_NOT_HIDDEN, f"the card at {intent.location} is already face up", R["scan"])
    if zone == "bureau":
        pay(tx, "recruit", int(tx.opt["bureau_scan_costs"][n - 1]), (), intent.pay, "R21")
    else:
        pay(tx, "attack", int(tx.opt["shadows_scan_costs"][n - 1]), (), intent.pay, "R24")
    slot = tx.d[zone][str(n)]
    tx.push_front({"kind": "reveal", "seat": tx.seat, "location": intent.location, "origin": slot["origin"]})
    tx.say(m.SlotScanned, seat=tx.seat, where=intent.location, origin=slot["origin"])


def recruit(tx: Tx, intent: m.Recruit) -> None:
    _zone, n = parse_location(tx, intent.location, ("bureau",))
    slot = tx.d["bureau"][str(n)]
    if slot["state"] == "empty":
        tx.fail(Code.SLOT_EMPTY, f"{intent.location} is empty", R["recruit"])
    if slot["state"] != "revealed":
        tx.fail(Code.SLOT_NOT_REVEALED, f"the card at {intent.location} is face down (scan it first)", R["recruit"])
    c = tx.card(slot["card"])
    if c.type != "academy_character":
        tx.fail(Code.NOT_RECRUITABLE, f"{c.id} is a {c.type}, not an Academy character"
                + (" (fight it instead)" if c.type == "syndicate_agent" else ""), R["recruit"])
    pay(tx, "recruit", c.cost, (), intent.pay, "R22")
    card = slot["card"]
    flow.remove_at(tx, intent.location, card)
    tx.player(tx.seat)["discard"] = sorted([*tx.player(tx.seat)["discard"], card])
    text = tx.opt["bureau_slot_texts"][n - 1] if n - 1 < len(tx.opt["bureau_slot_texts"]) else ""
    if text and text != "-":
        tx.push_back({"kind": "effect", "seat": tx.seat, "source": f"bureau_slot.{n}", "trigger": "bureau_slot",
                      "group": flow.next_group(tx)})
    tx.say(m.CharacterRecruited, seat=tx.seat, card=card, where=intent.location, slot_text=bool(text and text != "-"))
    flow.refill(tx, str(n))


def recruit_special_agent(tx: Tx, intent: m.RecruitSpecialAgent) -> None:
    if not tx.d["special_agents"]["cards"]:
        tx.fail(Code.SPECIAL_AGENTS_EXHAUSTED, "the Special Agent stack is empty", R["sa"])
    pay(tx, "recruit", 3, (), intent.pay, "R22")
    tx.push_front({"kind": "reveal", "seat": tx.seat, "location": "special_agents", "origin": "special_agents"})
    tx.say(m.SpecialAgentRecruited, seat=tx.seat)


def fight(tx: Tx, intent: m.Fight) -> None:
    zone, n = parse_location(tx, intent.target, ("shadows", "sector", "bureau"))
    state, card = at(tx, zone, n)
    if state == "empty":
        tx.fail(Code.SLOT_EMPTY, f"{intent.target} is empty", R["fight"])
    if state != "revealed":
        tx.fail(Code.SLOT_NOT_REVEALED, f"the card at {intent.target} is face down", R["fight"])
    c = tx.card(card)
    if c.type not in ("enemy", "syndicate_agent", "end_game"):
        tx.fail(Code.NOT_FIGHTABLE, f"{card} is a {c.type}: only Enemies, Syndicate Agents and End Games are fought", R["fight"])
    if zone == "shadows" and c.has("stealth"):
        tx.check(False, Code.STEALTH_IN_SHADOWS, f"{card} has Stealth: it cannot be fought in the Shadows", "R43")
    hand = tx.player(tx.seat)["hand"]
    if c.has("frightening"):
        if not hand:
            tx.fail(Code.FRIGHTENING_EMPTY_HAND, f"{card} is Frightening and {tx.seat}'s hand is empty", "R43")
        if not intent.discard:
            tx.fail(Code.FRIGHTENING_DISCARD_REQUIRED, f"{card} is Frightening: name a card to discard (discard=CARD)", "R43")
        if intent.discard not in hand:
            tx.fail(Code.DISCARD_NOT_IN_HAND, f"{intent.discard} is not in {tx.seat}'s hand", "R43")
    if c.type == "end_game":
        cost = c.defense
        limit = int(tx.opt["end_game_fights_per_turn"])
        if limit and tx.turn["end_game_fights"] >= limit:
            tx.check(False, Code.NOT_FIGHTABLE, f"the End Game may be fought {limit} time(s) per turn", "R39")
    elif c.fight_star:
        if intent.cost is None:
            tx.fail(Code.COST_REQUIRED, f"{card}'s fight value has a star: give cost=N from its text", "R31")
        cost = intent.cost
    else:
        cost = c.fight
    for cls in c.vulnerability:
        cost -= 2 * int(tx.turn["played_classes"][cls])
    cost = max(cost, 0)
    currency = "recruit" if c.has("apprehend") or c.fight_currency == "recruit" else "attack"
    if c.type != "end_game" and c.fight_star:
        tx.declared()
    if c.has("frightening"):
        hand.remove(intent.discard)
        tx.player(tx.seat)["discard"] = sorted([*tx.player(tx.seat)["discard"], intent.discard])
    if c.type == "end_game":
        tx.turn["end_game_fights"] += 1
    tx.say(m.FightDeclared, seat=tx.seat, card=card, where=intent.target, n=cost, end_game=c.type == "end_game",
           discard=intent.discard if c.has("frightening") else "", declared=c.type != "end_game" and c.fight_star)
    pay(tx, currency, cost, c.immunity, intent.pay, "R31")
    if c.has("swift"):
        tx.turn["fight_target"] = f"{intent.target}:{card}"
        tx.turn["step"] = "fight" if not tx.turn["step"] else tx.turn["step"]
        flow.strike(tx, tx.seat, card, "swift")
        if tx.turn["step"] != "fight":
            pass
        return
    flow.conclude_fight(tx, intent.target if zone != "sector" else f"sector.{n}", card)


def fight_player(tx: Tx, intent: m.FightPlayer) -> None:
    grant = f"fight_player:{intent.seat}"
    if grant not in tx.turn["grants"]:
        tx.fail(Code.FIGHT_PLAYER_NOT_GRANTED, f"no effect told {tx.seat} to fight {intent.seat}", R["fight_player"])
    if tx.player(intent.seat)["defeated"]:
        tx.fail(Code.TARGET_PLAYER_DEFEATED, f"{intent.seat} has been defeated", R["fight_player"])
    if intent.seat == tx.seat and not tx.solo():
        tx.check(False, Code.CANNOT_FIGHT_SELF, "fighting yourself is for solo play only", "R46")
    pay(tx, "attack", tx.card(tx.player(intent.seat)["avatar"]).defense, (), intent.pay, R["fight_player"])
    tx.turn["grants"].remove(grant)
    tx.say(m.PlayerFought, seat=intent.seat, text=tx.seat)
    flow.strike(tx, intent.seat, f"player:{tx.seat}", "fight_player")


def _leader_at(tx: Tx, location: str) -> tuple[str, str]:
    zone, n = parse_location(tx, location, ("shadows", "sector"))
    state, card = at(tx, zone, n)
    if state == "empty":
        tx.fail(Code.SLOT_EMPTY, f"{location} is empty", R["evidence"])
    if state != "revealed":
        tx.fail(Code.SLOT_NOT_REVEALED, f"the card at {location} is face down", R["evidence"])
    if tx.card(card).type != "leader":
        tx.fail(Code.NOT_A_LEADER, f"{card} is not a Leader", "R30")
    return location, card


def discover_evidence(tx: Tx, intent: m.DiscoverEvidence) -> None:
    _loc, card = _leader_at(tx, intent.location)
    if any(ev["leader"] == card for ev in tx.d["evidence"].values()):
        tx.check(False, Code.LEADER_ALREADY_DISCOVERED, f"evidence was already discovered through {card}", "R30")
    hidden = [p for p in ("1", "2", "3") if tx.d["evidence"][p]["state"] == "undiscovered"]
    if not hidden:
        tx.fail(Code.NO_HIDDEN_EVIDENCE, "no undiscovered evidence is left", "R30")
    slot = _evidence_slot(tx, intent.evidence, hidden)
    tx.push_front({"kind": "reveal", "seat": tx.seat, "location": f"evidence.{slot}", "origin": "discover", "source": card})
    tx.declared()
    tx.say(m.EvidenceDiscovered, seat=tx.seat, card=card, where=f"evidence.{slot}", text=intent.note)


def _evidence_slot(tx: Tx, named: str, hidden: list[str]) -> str:
    """Which undiscovered evidence a discovery reveals: the topmost (lowest priority number) by default,
    the one the player names with ``evidence_order=chosen`` (B13)."""
    chosen = tx.opt["evidence_order"] == "chosen"
    choices = ", ".join(f"evidence.{p}" for p in hidden)
    if not named:
        if chosen:
            tx.fail(Code.BAD_LOCATION, f"evidence_order=chosen: name the evidence to reveal (evidence=evidence.P: {choices})", "R30")
        return hidden[0]
    _zone, n = parse_location(tx, named, ("evidence",))
    if str(n) not in hidden:
        tx.fail(Code.BAD_LOCATION, f"{named} is not undiscovered evidence (undiscovered: {choices})", "R30")
    if not chosen and str(n) != hidden[0]:
        tx.fail(Code.BAD_LOCATION, f"with evidence_order=priority_ascending the topmost undiscovered evidence is revealed "
                f"(evidence.{hidden[0]}), not {named}", "R30")
    return str(n)


def collect_evidence(tx: Tx, intent: m.CollectEvidence) -> None:
    loc, card = _leader_at(tx, intent.location)
    slot = next((p for p in ("1", "2", "3") if tx.d["evidence"][p]["leader"] == card), None)
    if slot is None or tx.d["evidence"][slot]["state"] != "discovered":
        tx.fail(Code.EVIDENCE_NOT_DISCOVERED, f"no evidence has been discovered through {card} yet", "R30")
    if tx.d["evidence"][slot]["locked"]:
        tx.check(False, Code.EVIDENCE_LOCKED, f"evidence.{slot} is locked", "R44")
    tx.d["evidence"][slot]["state"] = "collected"
    tx.d["evidence"][slot]["in_end_game"] = False
    tx.declared()
    tx.say(m.EvidenceCollected, seat=tx.seat, card=tx.d["evidence"][slot]["card"], where=f"evidence.{slot}", text=intent.note)
    flow.defeat_conspiracy(tx, loc, card)
    tx.say(m.LeaderDefeated, card=card, where=loc)


def sacrifice(tx: Tx, intent: m.Sacrifice) -> None:
    p = tx.player(tx.seat)
    in_play = next((x for x in p["play"] if x["card"] == intent.card), None)
    where = "play" if in_play else "vigilant" if intent.card in p["vigilant"] else \
        "hand" if tx.opt["sacrifice_from_hand"] and intent.card in p["hand"] else ""
    if not where:
        tx.fail(Code.CARD_NOT_IN_PLAY, f"{intent.card} is not in {tx.seat}'s play area or Vigilant cards", R["sacrifice"])
    c = tx.card(intent.card)
    a = c.ability("sacrifice")
    if a is None or not c.has("sacrifice"):
        tx.fail(Code.NO_SACRIFICE_ABILITY, f"{intent.card} has no Sacrifice ability", R["sacrifice"])
    if where == "play" and in_play is not None:
        p["play"].remove(in_play)
        virtual = in_play["virtual_of"]
    else:
        p[where].remove(intent.card)
        virtual = ""
    if virtual and tx.opt["virtual_defeat_hits_owner"]:
        tx.player(virtual)["coordinated_out"] = ""
        tx.turn["coordinated"][virtual] = ""
    if not virtual or tx.opt["virtual_defeat_hits_owner"]:
        tx.d["defeated_characters"] = sorted([*tx.d["defeated_characters"], intent.card])
    tx.say(m.CardSacrificed, seat=tx.seat, card=intent.card, zone=where)
    if not a.text_only:
        gain_points(tx, "attack", a.attack, c.cls, intent.card)
        gain_points(tx, "recruit", a.recruit, c.cls, intent.card)
        if a.draw:
            tx.push_back({"kind": "draw", "seat": tx.seat, "count": a.draw})
            tx.say(m.CardsRequested, seat=tx.seat, n=a.draw)
    declare(tx, intent.ops, intent.card, a.text_only)


def use_vigilant(tx: Tx, intent: m.UseVigilant) -> None:
    p = tx.player(tx.seat)
    in_play = next((x for x in p["play"] if x["card"] == intent.card), None)
    if intent.card not in p["vigilant"] and in_play is None:
        tx.fail(Code.CARD_NOT_IN_PLAY, f"{intent.card} is not among {tx.seat}'s Vigilant cards or play area", R["vigilant"])
    c = tx.card(intent.card)
    a = c.ability("vigilant")
    if not c.has("vigilant") or a is None:
        tx.fail(Code.NOT_VIGILANT, f"{intent.card} is not Vigilant", R["vigilant"])
    if a.text_only:
        tx.say(m.VigilantUsed, seat=tx.seat, card=intent.card)
        before = p["discard"].count(intent.card)
        declare(tx, intent.ops, intent.card, True)
        if named.face_up(tx, named.EXTINCTION) and p["discard"].count(intent.card) > before:
            tx.fail(Code.MANUAL_CHANGE_INVALID, f"Extinction is face up: {intent.card}, discarded to use it, is defeated "
                    f"instead (defeat:{intent.card}:...)", "R45")
        return
    extinction = named.face_up(tx, named.EXTINCTION)  # R45: Extinction defeats a card discarded to use it
    discarded = ""
    if a.discard_self:
        if intent.card in p["vigilant"]:
            p["vigilant"].remove(intent.card)
            discarded = "vigilant"
        elif in_play is not None:
            p["play"].remove(in_play)
            discarded = "play"
        if not extinction:
            p["discard"] = sorted([*p["discard"], intent.card])
    tx.say(m.VigilantUsed, seat=tx.seat, card=intent.card, discarded=discarded, defeated=a.discard_self and extinction)
    gain_points(tx, "attack", a.attack, c.cls, intent.card)
    gain_points(tx, "recruit", a.recruit, c.cls, intent.card)
    if a.draw:
        tx.push_back({"kind": "draw", "seat": tx.seat, "count": a.draw})
        tx.say(m.CardsRequested, seat=tx.seat, n=a.draw)
    if a.discard_self and extinction:
        tx.d["defeated_characters"] = sorted([*tx.d["defeated_characters"], intent.card])
        tx.say(m.CardDefeated, seat=tx.seat, card=intent.card, text="Extinction: a Vigilant card used is defeated",
               character=True)
    declare(tx, intent.ops, intent.card, False)


def coordinate(tx: Tx, intent: m.Coordinate) -> None:
    solo = tx.solo()
    if solo:
        if tx.seat != tx.current or tx.turn["phase"] != "action":
            tx.fail(Code.WRONG_PHASE, "solo: coordinate in your own action phase", "R46")
    else:
        if tx.d["status"] == "setup" or tx.turn["phase"] == "setup":
            tx.fail(Code.WRONG_PHASE, "coordinate is not possible during setup", "R42")
        if tx.opt["coordinate_window"] == "action_only" and tx.turn["phase"] != "action":
            tx.fail(Code.WRONG_PHASE, "coordinate only in the current player's action phase (coordinate_window)", "R42")
        if tx.seat == tx.current:
            tx.fail(Code.COORDINATE_ON_OWN_TURN, "Coordinate is for other players' turns", "R42")
    p = tx.player(tx.seat)
    if intent.card not in p["hand"]:
        tx.fail(Code.CARD_NOT_IN_HAND, f"{intent.card} is not in {tx.seat}'s hand", "R42")
    if not tx.card(intent.card).has("coordinate"):
        tx.fail(Code.NO_COORDINATE_KEYWORD, f"{intent.card} has no Coordinate keyword", "R42")
    if solo and tx.turn["coordinate_forbidden"] and tx.opt["mulder_solo_forbids"] == "play_and_coordinate":
        tx.check(False, Code.COORDINATE_CARDS_FORBIDDEN, "the solo Mulder Doubt forbids Coordinate cards this turn "
                 "(mulder_solo_forbids=play_and_coordinate)", "R46")
    if solo:
        if tx.turn["solo_coordinated"]:
            tx.check(False, Code.ALREADY_COORDINATED, "the solo coordinate was already used this turn", "R46")
        p["hand"].remove(intent.card)
        p["discard"] = sorted([*p["discard"], intent.card])
        tx.turn["solo_coordinated"] = True
    else:
        if tx.turn["coordinated"][tx.seat]:
            tx.check(False, Code.ALREADY_COORDINATED, f"{tx.seat} already coordinated a card this turn", "R42")
        p["hand"].remove(intent.card)
        p["coordinated_out"] = intent.card
        tx.turn["coordinated"][tx.seat] = intent.card
    tx.push_back({"kind": "draw", "seat": tx.seat, "count": 1})
    tx.say(m.CardCoordinated, seat=tx.seat, card=intent.card, solo=solo)


def give_ally(tx: Tx, intent: m.GiveAlly) -> None:
    if tx.player(intent.seat)["defeated"]:
        tx.fail(Code.INVALID_RECIPIENT, f"{intent.seat} has been defeated", R["ally"])
    item = tx.d["pending"].pop(0)
    card, loc = item["source"], item["location"]
    flow.remove_at(tx, loc, card)
    tx.player(intent.seat)["discard"] = sorted([*tx.player(intent.seat)["discard"], card])
    tx.say(m.AllyGained, seat=intent.seat, card=card, where=loc)  # the pending choice answered


def end_actions(tx: Tx, intent: m.EndActions) -> None:
    for b in BUCKETS:
        tx.turn["attack"][b] = 0
        tx.turn["recruit"][b] = 0
    tx.say(m.ActionsEnded, seat=tx.seat)
    tx.turn["phase"] = "strike"
    tx.turn["strike_queue"] = procedure.strike_queue(tx)
    tx.say(m.StrikePhaseBegan, seat=tx.seat, n=len(tx.turn["strike_queue"]), queue=tuple(tx.turn["strike_queue"]))
    procedure.next_striker(tx)


def cleanup(tx: Tx, intent: m.Cleanup) -> None:
    p = tx.player(tx.seat)
    effects = []
    for x in [*p["play"], *({"card": c} for c in p["vigilant"])]:
        effects += flow.triggered(tx, x["card"], ("on_cleanup",), "play")
    if effects:
        group = flow.next_group(tx)
        tx.push_back(*({**e, "group": group} for e in effects))
    tx.turn["step"] = "cleanup_discard"
    tx.say(m.TurnCleanedUp, seat=tx.seat, text="cleanup began", triggers=flow.as_triggered(effects))


def _settle(tx: Tx, intent: Any) -> None:
    """What follows every accepted decider: the procedures the rules run by themselves (the turn's
    procedure resumed, :func:`.procedure.settle`), and changes made since the last event attached to it."""
    procedure.settle(tx)
    tx.flush()


_TABLE: dict[type[Any], Callable[[Tx, Any], None]] = {
    m.Conspire: conspire, m.PlayCard: play_card, m.PlayVirtual: play_virtual,
    m.Activate: activate, m.ActivateBelief: activate_belief, m.ResolveDoubt: resolve_doubt,
    m.Scan: scan, m.Recruit: recruit, m.RecruitSpecialAgent: recruit_special_agent,
    m.Fight: fight, m.FightPlayer: fight_player, m.DiscoverEvidence: discover_evidence,
    m.CollectEvidence: collect_evidence, m.Sacrifice: sacrifice, m.UseVigilant: use_vigilant,
    m.Coordinate: coordinate, m.GiveAlly: give_ally, m.EndActions: end_actions,
    m.Cleanup: cleanup, m.Draw: answers.draw, m.Reveal: answers.reveal, m.TakeStrike: answers.take_strike,
    m.AvoidStrike: answers.avoid_strike, m.ResolveEffect: answers.resolve_effect, m.ManualEffect: answers.manual_effect,
}

#: every intent judged: the shared checks (§4.0.3), its decider, then the procedures the rules run by themselves
DECIDERS: Deciders[Tx] = Deciders(_TABLE, before=common_checks, after=_settle)
