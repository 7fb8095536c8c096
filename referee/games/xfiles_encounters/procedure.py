"""The turn's procedure (spec §3): :func:`settle`, which resumes an interrupted phase once nothing is pending
(§3.1), and the steps it runs by itself: the Runners, the Action and Strike phases begun, the next
striker, a fight resumed after a Swift strike, cleanup, the end-of-turn board checks and the passing of
the turn. The procedures they call (placement, strikes, defeats) are in :mod:`.flow`.
"""

from __future__ import annotations

from typing import Any

from . import model as m
from .flow import (
    SLOTS, conclude_fight, defeat_conspiracy, defeat_leader, due_checks, extinction_checks, fresh_turn, keyword, locate,
    move_left, next_group, return_coordinated, strike, triggered,
)
from .txn import Tx


def settle(tx: Tx) -> None:
    """Run the phase procedure on while nothing is pending and the game goes on."""
    for _ in range(200):
        extinction_checks(tx)
        due_checks(tx)
        empty_draws(tx)
        if tx.over() or tx.d.peek("pending"):
            return
        if tx.d.peek("status") == "setup":
            tx.d["status"] = "in_progress"
            tx.turn["phase"] = "conspiracy"
            tx.say(m.TurnBegan, seat=tx.current, n=tx.turn["number"], first=True)
            continue
        step = tx.turn["step"]
        if step == "":
            return
        tx.turn["step"] = ""
        if step == "runners":
            runners(tx)
            tx.turn["step"] = "begin_action"
        elif step == "begin_action":
            begin_action(tx)
        elif step == "fight":
            finish_fight(tx)
        elif step == "strikes":
            next_striker(tx)
        elif step == "cleanup_discard":
            cleanup_discard(tx)
        elif step == "board_checks":
            board_checks(tx)
            tx.turn["step"] = "next_turn"
        elif step == "next_turn":
            next_turn(tx)


def empty_draws(tx: Tx) -> None:
    """A draw for a seat with no cards at all completes with no cards and no input (§4.22)."""
    peek = tx.d.peek  # read only (a change goes through tx.d)
    while peek("pending") and peek("pending")[0]["kind"] == "draw" and not tx.over():
        seat = peek("pending")[0]["seat"]
        p = peek("players")[seat]
        if p["deck"] or p["discard"]:
            return
        tx.d["pending"].pop(0)
        tx.say(m.CardsDrawn, seat=seat, n=0, cards=(), from_pile=False)


def runners(tx: Tx) -> None:
    for s in range(1, 6):
        slot = tx.d["shadows"][str(s)]
        if slot["state"] == "revealed" and keyword(tx, slot, "runner"):
            move_left(tx, s, m.RunnerMoved, card=slot["card"])


def begin_action(tx: Tx) -> None:
    tx.turn["phase"] = "action"
    tx.say(m.ActionPhaseBegan, seat=tx.current, doubt=doubt_check(tx))


def doubt_check(tx: Tx) -> bool:
    """A Doubt in the current player's hand waits to be resolved first (once a turn); whether one now does."""
    p = tx.player(tx.current)
    if "doubt" in p["hand"] and not tx.turn["doubt_resolved"] and not any(i["kind"] == "doubt" for i in tx.pending()):
        tx.push_front({"kind": "doubt", "seat": tx.current})
        return True
    return False


def strike_queue(tx: Tx) -> list[str]:
    """§3.6: the Sector right to left, then Range enemies in the Shadows left to right."""
    peek = tx.d.peek  # read only
    sector = []
    places = peek("sector")
    for i in reversed(range(len(places))):
        c = places[i]
        if c and tx.card(c).type in ("enemy", "end_game"):
            sector.append(f"sector:{c}")
    shadows = []
    slots = peek("shadows")
    for s in SLOTS:
        slot = slots[s]
        if slot["state"] == "revealed" and tx.card(slot["card"]).type == "enemy" and tx.card(slot["card"]).has("range"):
            shadows.append(f"shadows.{s}:{slot['card']}")
    return sector + shadows if tx.opt["range_after_sector"] else shadows + sector


def next_striker(tx: Tx) -> None:
    queue = tx.turn["strike_queue"]
    passed = 0
    while queue:
        entry = queue.pop(0)
        passed += 1
        where, _, card = entry.partition(":")
        still = card in tx.d["sector"] if where == "sector" else (
            tx.d["shadows"][where.split(".")[1]]["card"] == card and tx.d["shadows"][where.split(".")[1]]["state"] == "revealed")
        if not still:
            continue
        c = tx.card(card)
        n = 3 if c.has("triple_strike") else 2 if c.has("double_strike") else 1
        tx.turn["step"] = "strikes"
        strike(tx, tx.current, card, "strike_phase", strikes=n, passed=passed)
        return
    tx.turn["phase"] = "cleanup"
    tx.say(m.TurnCleanedUp, seat=tx.current, text="strike phase over", phase="cleanup", passed=passed)


def finish_fight(tx: Tx) -> None:
    """After a Swift strike (§4.10 effect 3): the fight goes on unless it defeated the fighter."""
    target = tx.turn["fight_target"]
    tx.turn["fight_target"] = ""
    where, _, card = target.partition(":")
    if tx.player(tx.current)["defeated"] or tx.player(tx.current)["skip_next_turn"] and tx.opt["no_death"]:
        tx.say(m.FightFailed, card=card, where=where)
        return
    now = locate(tx, card)
    if not now:
        tx.say(m.FightFailed, card=card, where=where)
        return
    conclude_fight(tx, now, card)




# -- cleanup and the passing of the turn (§3.8) -------------------------------------------------------------


def cleanup_discard(tx: Tx) -> None:
    seat = tx.current
    p = tx.player(seat)
    kept = []
    for x in p["play"]:
        if x.get("virtual_of"):
            continue
        if tx.card(x["card"]).has("vigilant"):
            p["vigilant"].append(x["card"])
            kept.append(x["card"])
        else:
            p["discard"].append(x["card"])
    p["play"] = []
    p["discard"] = sorted([*p["discard"], *p["hand"]])
    p["hand"] = []
    p["vigilant"].sort()
    tx.say(m.TurnCleanedUp, seat=seat, discarded=True, vigilant=tuple(kept))
    return_coordinated(tx)
    tx.push_back({"kind": "draw", "seat": seat, "count": 6})
    tx.say(m.CardsRequested, seat=seat, n=6)
    tx.turn["step"] = "board_checks" if tx.opt["board_checks_after_draw"] else "next_turn"
    if not tx.opt["board_checks_after_draw"]:
        board_checks(tx)




def board_checks(tx: Tx) -> None:
    """§3.8 step 5: Sector right to left — Elude enemies leave, Informants and Leaders are defeated."""
    effects: list[dict[str, Any]] = []
    for i in reversed(range(len(tx.d["sector"]))):
        card = tx.d["sector"][i]
        if not card:
            continue
        c = tx.card(card)
        where = f"sector.{i + 1}"
        if c.type == "enemy" and c.has("elude"):
            tx.d["sector"].pop(i)
            tx.d["defeated_conspiracy"].append(card)
            tx.say(m.CardDefeated, card=card, where=where, text="eludes")
            a = c.ability("elude")
            if a is not None and a.text_only:
                effects.append({"kind": "effect", "seat": tx.current, "source": card, "trigger": "elude"})
            if tx.opt["elude_triggers_on_defeat"]:
                effects += [{k: v for k, v in e.items() if k != "group"} for e in triggered(tx, card, ("on_defeat",), where)]
        elif c.type == "informant":
            defeat_conspiracy(tx, where, card, triggers=False)
        elif c.type == "leader":
            defeat_leader(tx, where, card)
    if effects:
        group = next_group(tx)
        tx.push_front(*({**e, "group": group} for e in effects))


def next_turn(tx: Tx) -> None:
    seats = tx.d["seats"]
    seat = tx.current
    tx.say(m.TurnEnded, seat=seat, n=tx.turn["number"])
    i = seats.index(seat)
    nxt = seat
    skipped = []
    for k in range(1, len(seats) + 1):
        cand = seats[(i + k) % len(seats)]
        p = tx.player(cand)
        if p["defeated"]:
            continue
        if p["skip_next_turn"]:
            p["skip_next_turn"] = False
            skipped.append(cand)
            continue
        nxt = cand
        break
    if tx.player(nxt)["defeated"]:  # everyone left was skipping a turn: the first of them plays after all
        nxt = next(s for s in seats[i + 1:] + seats[: i + 1] if not tx.player(s)["defeated"])
    tx.d["turn"] = fresh_turn(seats, nxt, int(tx.turn["number"]) + 1, "conspiracy")
    tx.say(m.TurnBegan, seat=nxt, n=tx.d["turn"]["number"], skipped=tuple(skipped))
