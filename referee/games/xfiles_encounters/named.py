"""The named cards whose effects the rulebook gives (spec §5.6, R45), checked instead of only declared.

* **X** (``mr_x``, an Informant): while face up it may bring one fourth Leader into play — a declared
  ``place:<leader>:box:shadows.N`` citing ``source=mr_x``. A Leader comes into play from outside the game
  only so, once a game; it is marked (``via_x`` on its slot, ``x_leader`` in the state) and, when it is
  defeated with no evidence found through it while every evidence is discovered or collected, nobody
  gains a Doubt (B30; ``flow.defeat_leader``).
* **Body Swap** (``body_swap``, an Event): its text switches the current player's avatar, with its wounds,
  scars and Symptoms, with the next non-defeated player's (``resolve_effect source=body_swap`` does it;
  ops, if given, must be that ``switch_avatars``). Solo, with the card's ``swap_with_box_avatar`` rule
  (§5.1): the avatar is switched with one from the box, a chance outcome (``reveal card=<avatar>`` typed
  or drawn); the old avatar goes to the box with its wounds and scars; with no avatar left in the box
  (a team of five) nothing happens.
* **Extinction** (an End Game): while it is face up, a Vigilant card discarded to use it is defeated
  instead, and a player with no card in hand, deck, discard or play is defeated even with a Vigilant card
  in play (that check runs with the phase procedure, ``flow.extinction_checks``).
* **Infection** (an End Game): Symptoms (``counter:<seat>:symptoms:N``) are tracked only while it is face up.
* **Susanne Modeski** (an Informant): while face up the current player may, in their Action phase,
  recruit a Lone Gunmen card from outside the game paying its cost: exactly
  ``ops=gain:<seat>:<card>:box,points:recruit:-<cost>`` citing ``source=susanne_modeski`` (no Bureau slot
  ability), possible only when the Lone Gunmen are not this game's Academy characters.

Checked this way they are not declared (no audit flag). What else these cards' texts say is not in the
rulebook and stays declared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .codes import Code
from . import flow
from . import model as m
from .txn import BoundRules, Tx

X, SUSANNE, BODY_SWAP, INFECTION = "mr_x", "susanne_modeski", "body_swap", "infection"
EXTINCTION = flow.EXTINCTION  # its check of the players runs with the phase procedure (flow.settle)
CODE = "manual_change_invalid"


def face_up(tx: Tx, card: str) -> bool:
    return bool(flow.locate(tx, card))


# -- X ---------------------------------------------------------------------------------------------------------


def leader_from_box(tx: Tx, card: str) -> None:
    """A Leader is about to come into play from outside the game: only X's fourth Leader may (R45)."""
    if tx.source != X:
        tx.fail(CODE, f"a Leader comes into play from outside the game only as X's fourth Leader (R45): "
                f"cite source=mr_x, not {tx.source or 'nothing'}", "R45")
    if not face_up(tx, X):
        tx.fail(CODE, "X (mr_x) is not face up: it cannot bring a fourth Leader into play", "R45")
    if tx.d["x_leader"]:
        tx.fail(CODE, f"X has already brought its fourth Leader ({tx.d['x_leader']}) into play", "R45")


def mark_x_leader(tx: Tx, card: str) -> None:
    tx.d["x_leader"] = card
    for slot in tx.d["shadows"].values():
        if slot["card"] == card and slot["state"] != "empty":
            slot["via_x"] = True


# -- Body Swap ---------------------------------------------------------------------------------------------------


def next_alive(tx: Tx, seat: str) -> str:
    seats = tx.d["seats"]
    i = seats.index(seat)
    return next((s for s in seats[i + 1:] + seats[:i] if not tx.player(s)["defeated"]), seat)


def box_avatars(tx: Tx) -> list[str]:
    used = {p["avatar"] for p in tx.d["players"].values()}
    return sorted(c.id for c in tx.rules.cards.of_type("avatar") if c.id not in used)


def body_swap(tx: Tx, ops: Sequence[Any]) -> tuple[Any, ...] | None:
    """Body Swap's text (R45), checked: the ops that carry it out (none when it waits for the box's avatar
    or nothing happens), for the caller to apply; None: not checked here, declared as before."""
    cur = tx.current
    if not tx.solo():
        partner = next_alive(tx, cur)
        ok = not ops or (len(ops) == 1 and isinstance(ops[0], m.OpSwitchAvatars)
                         and {ops[0].player, ops[0].with_} == {cur, partner})
        if not ok:
            tx.fail(CODE, f"Body Swap switches {cur}'s avatar with the next player's, {partner}'s (R45): resolve it "
                    f"with no ops or ops=switch_avatars:{cur}:{partner}", "R45")
        return (m.OpSwitchAvatars(player=cur, with_=partner),)
    if "swap_with_box_avatar" not in tx.card(BODY_SWAP).solo_rules:
        return None
    if ops:
        tx.fail(CODE, "solo, Body Swap switches your avatar with one from the box at random (R46): resolve it with "
                "no ops, then reveal card=<avatar>", "R46")
    if box_avatars(tx):  # a team of five: no avatar is left in the box, nothing happens (R46)
        tx.push_front({"kind": "reveal", "seat": cur, "location": "avatar_box", "origin": BODY_SWAP})
    return ()


def swap_with_box(tx: Tx, seat: str, avatar: str, **counted: Any) -> None:
    """Solo Body Swap: ``avatar`` comes from the box; the old one goes there with its wounds and scars."""
    p = tx.player(seat)
    old = p["avatar"]
    p.update({"avatar": avatar, "wounds": [], "scars": [], "symptoms": 0})
    tx.say(m.CardRevealed, seat=seat, card=avatar, where="avatar_box", text=f"{seat}'s {old} goes to the box", **counted)


# -- Extinction, Infection -------------------------------------------------------------------------------------


def symptoms_tracked(tx: Tx) -> bool:
    return face_up(tx, INFECTION)


# -- Susanne Modeski ---------------------------------------------------------------------------------------------


def susanne(tx: Tx, ops: Sequence[Any]) -> None:
    """Susanne Modeski's recruit (R45), checked: the caller applies ``ops`` (not declared)."""
    if not face_up(tx, SUSANNE):
        tx.fail(CODE, "Susanne Modeski is not face up", "R45")
    if tx.seat != tx.current or tx.turn["phase"] != "action":
        tx.fail(Code.WRONG_PHASE, "Susanne Modeski's recruit is the current player's, in their action phase", "R45")
    gains = [o for o in ops if isinstance(o, m.OpGain)]
    card = gains[0].card if len(gains) == 1 else "<card>"
    c = tx.rules.cards.cards.get(card)
    cost = c.cost if c is not None else "<cost>"
    want = f"ops=gain:{tx.current}:{card}:box,points:recruit:-{cost}"
    pays = [o for o in ops if isinstance(o, m.OpPoints)]
    if len(ops) != 2 or not gains or not pays or c is None:
        tx.fail(CODE, f"Susanne Modeski recruits one Lone Gunmen card from outside the game for its cost: {want}", "R45")
    if c.type != "academy_character" or c.character != "lone_gunmen":
        tx.fail(CODE, f"{card} is not a Lone Gunmen card (Susanne Modeski recruits only those)", "R45")
    if "lone_gunmen" in tx.d["academy_deck"]["characters"]:
        tx.fail(CODE, "the Lone Gunmen are this game's Academy characters: none of their cards is outside the game", "R45")
    g, pay = gains[0], pays[0]
    if g.player != tx.current or g.from_ != "box" or pay.kind != "recruit" or pay.amount != -c.cost:
        tx.fail(CODE, f"Susanne Modeski's recruit is {want}", "R45")


# -- offered by ``legal`` ------------------------------------------------------------------------------------------


def manual_intents(rules: BoundRules, st: dict[str, Any], seat: str) -> list[Any]:
    """Concrete declared effects of X and Susanne Modeski when they are face up (``legal`` checks them)."""
    up = {s["card"] for s in st["shadows"].values() if s["state"] == "revealed"} | set(st["sector"])
    out: list[Any] = []
    known = {s["card"] for s in st["shadows"].values()} | set(st["sector"]) | set(st["defeated_conspiracy"])
    if X in up and not st.get("x_leader"):
        leader = next((c.id for c in rules.cards.of_type("leader") if c.id not in known), "")
        if leader:
            out += [m.ManualEffect(source=X, ops=(m.OpPlace(card=leader, from_="box", location=f"shadows.{n}"),))
                    for n in flow.SLOTS]
    if SUSANNE in up and seat == st["turn"]["seat"] and "lone_gunmen" not in st["academy_deck"]["characters"]:
        out += [m.ManualEffect(source=SUSANNE, ops=(m.OpGain(player=seat, card=c.id, from_="box"),
                                                    m.OpPoints(kind="recruit", amount=-c.cost)))
                for c in rules.cards.of_type("academy_character") if c.character == "lone_gunmen"]
    return out
