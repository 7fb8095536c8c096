"""The procedures the rules run by themselves (spec §3): placement and pushing in the Shadows, entering
the Sector, reveals, The End, strikes, player defeat, fights resumed and the End Game's damage, the end
of the game. The turn's procedure that runs them (:func:`.procedure.settle`, cleanup, the passing of the
turn) is in :mod:`.procedure`.
"""

from __future__ import annotations

from typing import Any

from . import model as m
from .state import TURN_FLAGS as TURN_FLAGS, fresh_turn as fresh_turn
from .txn import Tx, drew, pending_item, reshuffled

SLOTS = ("1", "2", "3", "4", "5")
#: the End Game whose text defeats a player with no card left (R45; :mod:`.named` has the other named cards)
EXTINCTION = "extinction"


def empty_slot() -> dict[str, Any]:
    return {"state": "empty", "card": "", "origin": "", "attached": [], "beneath": [], "revealed_before": False,
            "via_x": False}


# -- the end of the game (§6) --------------------------------------------------------------------------------


def lose(tx: Tx, reason: str) -> None:
    if tx.over():
        return
    tx.d["status"] = "lost"
    tx.d["outcome"] = {"result": "lost", "reason": reason, "winners": []}
    tx.d["pending"] = []
    tx.say(m.GameLost, text=reason)


def win(tx: Tx) -> None:
    if tx.over():
        return
    tx.d["status"] = "won"
    tx.d["outcome"] = {"result": "won", "reason": "end_game_defeated", "winners": list(tx.d["seats"])}
    tx.d["pending"] = []
    tx.say(m.GameWon, text="end_game_defeated")


# -- the Shadows row (§3.3) ----------------------------------------------------------------------------------


def slot_card(slot: dict[str, Any]) -> dict[str, Any]:
    """The moving part of a slot (attached cards stay where they are)."""
    return {k: slot[k] for k in ("state", "card", "origin", "beneath", "revealed_before", "via_x")}


def is_end_game(tx: Tx, obj: dict[str, Any]) -> bool:
    if obj["state"] == "revealed":
        return tx.card(obj["card"]).type == "end_game"
    return bool(obj["state"] == "hidden" and (obj["origin"] == "end_game" or obj["card"] == "clone"))


def keyword(tx: Tx, obj: dict[str, Any], kw: str) -> bool:
    """A face-up card's keyword (hidden cards' keywords do not act unless the option says so, B08)."""
    if not obj["card"]:
        return False
    if obj["state"] != "revealed" and not tx.opt["hidden_keywords_active"]:
        return False
    return tx.card(obj["card"]).has(kw)


def _way(tx: Tx, obj: dict[str, Any], s: int) -> tuple[list[int], int]:
    """Where a card entering ``shadows.s`` goes: the slots whose occupants it pushes on, in order (each
    occupant pushes on the next), and the place the last of them comes to rest (0: the Sector). A
    Stationary occupant is passed over unless an End Game card pushes it."""
    pushed: list[int] = []
    cur = obj
    while s > 0:
        slot = tx.d["shadows"][str(s)]
        if slot["state"] == "empty":
            break
        occ = slot_card(slot)
        if not (keyword(tx, occ, "stationary") and not is_end_game(tx, cur)):
            pushed.append(s)
            cur = occ
        s -= 1
    return pushed, s


def _to(s: int) -> str:
    return f"shadows.{s}" if s > 0 else "sector"


def make_room(tx: Tx, obj: dict[str, Any], s: int) -> str:
    """The cards in the way of ``obj`` entering ``shadows.s`` pushed on, the farthest first, each said as
    it moves (so every card is in one place at every event); where ``obj`` itself then goes."""
    pushed, rest = _way(tx, obj, s)
    for i in reversed(range(len(pushed))):
        here = pushed[i]
        there = pushed[i + 1] if i + 1 < len(pushed) else rest
        occ = take(tx, here)
        put(tx, occ, _to(there), m.CardPushed if there > 0 else m.CardEnteredSector,
            card=occ["card"] if occ["state"] == "revealed" else "", where=f"shadows.{here}")
    return _to(pushed[0] if pushed else rest)


def place(tx: Tx, obj: dict[str, Any], s: int, kind: type[m.Fact] | None, **public: Any) -> None:
    """Put a card into ``shadows.s``, pushing the occupants on (s = 0: the Sector), said by ``kind`` with
    where it went (``to``)."""
    put(tx, obj, make_room(tx, obj, s), kind, **public)


def put(tx: Tx, obj: dict[str, Any], to: str, kind: type[m.Fact] | None, front: bool = False, **public: Any) -> None:
    """``obj`` comes to rest at ``to`` (an empty Shadows slot, or the Sector), said by ``kind`` (None: part
    of a declared effect, said with it)."""
    if to == "sector":
        enter_sector(tx, obj, kind, front=front, **public)
        return
    tx.d["shadows"][to.split(".")[1]].update(obj)
    if kind is not None:
        tx.say(kind, to=to, **public)


def take(tx: Tx, s: int) -> dict[str, Any]:
    slot = tx.d["shadows"][str(s)]
    obj = slot_card(slot)
    slot.update({k: v for k, v in empty_slot().items() if k != "attached"})
    return obj


def move_left(tx: Tx, s: int, kind: type[m.Fact], **public: Any) -> None:
    """The card at ``shadows.s`` moves one place left (the cards in its way pushed on first), said by ``kind``."""
    obj = slot_card(tx.d["shadows"][str(s)])
    to = make_room(tx, obj, s - 1)
    put(tx, take(tx, s), to, kind, where=f"shadows.{s}", **public)


def enter_sector(tx: Tx, obj: dict[str, Any], kind: type[m.Fact] | None, front: bool = False,
                 **public: Any) -> None:
    """``obj`` enters the Sector (from where it was, or new), said by ``kind``: a face-down card waits to be
    revealed there (last), a face-up Ravage enemy strikes."""
    left = tx.opt["sector_entry_side"] == "left"
    ident = obj["card"] if obj["state"] == "revealed" else ""
    if left:
        tx.d["sector"].insert(0, ident)
    else:
        tx.d["sector"].append(ident)
    if obj["revealed_before"] and obj["card"] and obj["card"] not in tx.d["revealed_before"]:
        tx.d["revealed_before"].append(obj["card"])
    for c in obj["beneath"]:
        tx.d["defeated_conspiracy"].append(c)
    if obj["state"] != "revealed":
        tx.push_back({"kind": "reveal", "location": "sector", "origin": obj["origin"] or "placed",
                      "source": obj["card"]})  # a known face-down card (the Clone) keeps its identity
    if kind is not None:
        tx.say(kind, to="sector", **public)
    if obj["state"] == "revealed":
        ravage(tx, obj["card"], front)


def ravage(tx: Tx, card: str, front: bool = False) -> None:
    c = tx.card(card)
    if c.type == "enemy" and c.has("ravage") and card in tx.d["sector"]:
        n = (3 if c.has("triple_strike") else 2 if c.has("double_strike") else 1) if tx.opt["ravage_multi_strike"] else 1
        strike(tx, tx.current, card, "ravage", strikes=n, front=front)


def sector_index_of_pending(tx: Tx) -> int:
    """The Sector entry the front Sector reveal is for: the oldest unrevealed entry."""
    blanks = [i for i, c in enumerate(tx.d["sector"]) if c == ""]
    if not blanks:
        return -1
    return blanks[-1] if tx.opt["sector_entry_side"] == "left" else blanks[0]


# -- reveals (§3.4) ------------------------------------------------------------------------------------------


def as_triggered(effects: list[dict[str, Any]]) -> tuple[m.Triggered, ...]:
    """Pending effects as the texts an event says they trigger."""
    return tuple(m.Triggered(source=e["source"], trigger=e["trigger"], location=e.get("location", ""), seat=e["seat"])
                 for e in effects)


def triggered(tx: Tx, card: str, triggers: tuple[str, ...], location: str) -> list[dict[str, Any]]:
    """Pending effects for the text-only abilities of ``card`` with those triggers."""
    out = []
    for a in tx.card(card).abilities:
        if a.trigger in triggers and a.text_only and tx.opt["require_effect_resolution"]:
            out.append({"kind": "effect", "seat": tx.current, "source": card, "location": location, "trigger": a.trigger})
    return out


def reveal_texts(tx: Tx, card: str, location: str, first: bool) -> list[dict[str, Any]]:
    """The texts a card turning face up at ``location`` triggers (§3.4): they wait first, one group."""
    c = tx.card(card)
    triggers: tuple[str, ...] = ("on_reveal",) if (first or tx.opt["on_reveal_repeats"]) else ()
    if first:
        triggers += ("on_first_reveal",)
    zone = location.split(".")[0]
    if zone == "shadows":
        triggers += ("on_reveal_in_shadows",)
    effects: list[dict[str, Any]] = []
    if c.type == "event":
        effects = [{"kind": "effect", "seat": tx.current, "source": card, "location": location, "trigger": "event"}]
    elif c.type not in ("leader",):
        effects = triggered(tx, card, triggers, location)
    if c.type == "syndicate_agent" and tx.d["the_end"]:
        effects += triggered(tx, card, ("at_end",), location)
    return effects


def reveal_waits(tx: Tx, card: str, location: str, effects: list[dict[str, Any]]) -> dict[str, Any]:
    """What waits, first, once a card is revealed at ``location``: the texts it triggers (one group), an
    Ally revealed in the Shadows to be given, the Clone's set-aside evidence to be revealed (§5.6.1 step
    3); as the reveal says it (``triggers``, ``ally``, ``clone``)."""
    if effects:
        group = next_group(tx)
        tx.push_front(*({**e, "group": group} for e in effects))
    c = tx.card(card)
    ally = c.type == "ally" and location.startswith("shadows.")
    if ally:
        tx.push_front({"kind": "ally", "seat": tx.current, "source": card, "location": location})
    clone = card == "clone"
    if clone:
        tx.push_front(*({"kind": "reveal", "seat": tx.current, "location": f"clone_evidence.{i}", "origin": "clone"}
                        for i, e in enumerate(tx.d["clone_evidence"]) if not e["card"]))
    return {"triggers": as_triggered(effects), "ally": ally, "clone": clone}


def revealed(tx: Tx, card: str, location: str) -> None:
    """What a card turned face up at ``location`` does next, once the reveal is said (§3.4)."""
    c = tx.card(card)
    zone = location.split(".")[0]
    if c.type == "enemy" and zone == "shadows" and c.has("ambush"):
        obj = take(tx, int(location.split(".")[1]))
        enter_sector(tx, obj, m.CardPushed, front=True, card=card, where=location, text="ambush")
    elif c.type == "syndicate_agent" and zone == "bureau" and c.has("ambush") and tx.opt["ambush_in_bureau"]:
        n = location.split(".")[1]  # B31's other reading: the Ambush reaches the Sector; the slot is refilled
        obj = {**slot_card(tx.d["bureau"][n]), "state": "revealed", "card": card}
        remove_at(tx, location, card)
        enter_sector(tx, obj, m.CardPushed, front=True, card=card, where=location, text="ambush")
        refill(tx, n)
    elif c.type == "enemy" and zone == "sector":
        ravage(tx, card, front=True)
    elif c.type == "ally" and zone != "shadows":
        remove_at(tx, location, card)
        tx.d["defeated_characters"].append(card)
        tx.d["defeated_characters"].sort()
        tx.say(m.CardDefeated, card=card, where=location, text="an Ally revealed in the Sector is lost", character=True)
    elif c.type == "leader" and tx.d["the_end"]:
        defeat_leader(tx, location, card)
    elif c.type == "end_game" and not tx.d["the_end"]:
        the_end(tx, card)


def next_group(tx: Tx) -> int:
    n = int(tx.turn.get("groups", 0)) + 1
    tx.turn["groups"] = n
    return n


def remove_at(tx: Tx, location: str, card: str) -> None:
    """Take ``card`` out of a board location (a slot empties; a Sector entry is removed)."""
    zone, _, idx = location.partition(".")
    if zone in ("shadows", "bureau"):
        slot = tx.d[zone][idx]
        if slot["card"] == card:
            for c in slot["beneath"]:
                tx.d["defeated_conspiracy"].append(c)
            slot.update({k: v for k, v in empty_slot().items() if k != "attached"})
            return
    if card in tx.d["sector"]:
        tx.d["sector"].remove(card)


def locate(tx: Tx, card: str) -> str:
    """Where a face-up conspiracy card is now (``shadows.N``, ``sector.N``, ``bureau.N``), or ""."""
    peek = tx.d.peek  # read only: a field no decision changed is not copied for it
    for zone in ("shadows", "bureau"):
        slots = peek(zone)
        for s in SLOTS:
            slot = slots[s]
            if slot["card"] == card and slot["state"] == "revealed":
                return f"{zone}.{s}"
    sector = peek("sector")
    if card in sector:
        return f"sector.{sector.index(card) + 1}"
    return ""


def defeat_conspiracy(tx: Tx, location: str, card: str, *, triggers: bool = True) -> None:
    """An enemy, Syndicate Agent, Informant, Leader or Event is defeated: top of the defeated pile."""
    remove_at(tx, location, card)
    first = card not in tx.d["defeated_conspiracy"]
    tx.d["defeated_conspiracy"].append(card)
    effects = []
    if triggers:
        trig: tuple[str, ...] = ("on_defeat", "on_first_defeat") if first else ("on_defeat",)
        effects = triggered(tx, card, trig, "defeated_conspiracy")
        if effects:
            group = next_group(tx)
            tx.push_front(*({**e, "group": group} for e in effects))
    tx.say(m.EnemyDefeated if tx.card(card).type in ("enemy", "syndicate_agent") else m.CardDefeated,
           card=card, where=location, triggers=as_triggered(effects))
    if location.startswith("bureau."):
        refill(tx, location.split(".")[1])


def refill(tx: Tx, s: str) -> None:
    slot = tx.d["bureau"][s]
    if tx.d["academy_deck"]["count"] > 0:
        tx.d["academy_deck"]["count"] -= 1
        slot.update({"state": "hidden", "card": "", "origin": "academy", "beneath": [], "revealed_before": False})
        tx.say(m.BureauSlotRefilled, where=f"bureau.{s}")


def defeat_leader(tx: Tx, location: str, card: str) -> None:
    """A Leader is defeated; without evidence discovered through it each player gains a Doubt (R30)."""
    linked = any(ev["leader"] == card for ev in tx.d["evidence"].values())
    defeat_conspiracy(tx, location, card, triggers=False)
    tx.say(m.LeaderDefeated, card=card, where=location)
    # X's fourth Leader, not needed because every evidence was found: no penalty (R45, B30)
    spared = card == tx.d["x_leader"] and all(ev["state"] in ("discovered", "collected")
                                              for ev in tx.d["evidence"].values())
    if not linked and not spared:
        doubt_each(tx)


def doubt_each(tx: Tx) -> None:
    seats = tx.d["seats"]
    i = seats.index(tx.current)
    for seat in seats[i:] + seats[:i]:
        if not tx.player(seat)["defeated"]:
            gain_doubt(tx, seat)


def gain_doubt(tx: Tx, seat: str) -> None:
    if tx.d["doubt_stack"] > 0:
        tx.d["doubt_stack"] -= 1
        tx.player(seat)["discard"] = sorted([*tx.player(seat)["discard"], "doubt"])
        tx.say(m.DoubtGained, seat=seat)


def gain_belief(tx: Tx, seat: str) -> None:
    if tx.d["belief_stack"] > 0:
        tx.d["belief_stack"] -= 1
        tx.player(seat)["discard"] = sorted([*tx.player(seat)["discard"], "belief"])
        tx.say(m.BeliefGained, seat=seat)


# -- The End (§3.10) -----------------------------------------------------------------------------------------


def the_end(tx: Tx, card: str) -> None:
    tx.d["the_end"] = True
    tx.say(m.TheEndBegan, card=card)
    for i in reversed(range(len(tx.d["sector"]))):
        c = tx.d["sector"][i]
        if c and tx.card(c).type == "leader":
            defeat_leader(tx, f"sector.{i + 1}", c)
    for s in SLOTS:
        slot = tx.d["shadows"][s]
        if slot["state"] == "revealed" and tx.card(slot["card"]).type == "leader":
            defeat_leader(tx, f"shadows.{s}", slot["card"])
    reveals = []
    for p in ("1", "2", "3"):
        ev = tx.d["evidence"][p]
        if ev["state"] == "undiscovered":
            reveals.append({"kind": "reveal", "seat": tx.current, "location": f"evidence.{p}", "origin": "the_end"})
        if ev["state"] != "collected":
            ev["in_end_game"] = True
    effects = []
    for s in SLOTS:
        slot = tx.d["bureau"][s]
        if slot["state"] == "revealed" and tx.card(slot["card"]).type == "syndicate_agent":
            effects += triggered(tx, slot["card"], ("at_end",), f"bureau.{s}")
    for p in ("1", "2", "3"):
        ev = tx.d["evidence"][p]
        if ev["in_end_game"] and ev["card"]:
            effects += triggered(tx, ev["card"], ("at_end",), f"evidence.{p}")
    group = next_group(tx)
    tx.push_front(*reveals, *({**e, "group": group} for e in effects))
    tx.say(m.EvidenceExposed, seat=tx.current, n=len(reveals), reveals=tuple(r["location"].split(".")[1] for r in reveals),
           triggers=as_triggered(effects))
    if card == "replication":
        place_clone(tx)


def place_clone(tx: Tx) -> None:
    where = locate(tx, "replication")
    clone = {"state": "hidden", "card": "clone", "origin": "placed", "beneath": [], "revealed_before": False,
             "via_x": False}
    s = int(where.split(".")[1]) if where.startswith("shadows.") else 0
    to = make_room(tx, clone, s + 1) if s < 5 else "conspiracy_deck"
    tx.d["clone_evidence"] = [{"priority": int(p), "card": ""} for p in ("1", "2", "3")
                              if tx.d["evidence"][p]["in_end_game"]]
    n = len(tx.d["clone_evidence"])
    if s < 5:
        put(tx, clone, to, m.ClonePlaced, card="clone", n=n)
        return
    tx.d["conspiracy_deck"]["segments"].insert(0, {"label": "placed", "seasons": [], "remaining": 1,
                                                   "quota": {}, "seen": {}, "cards": ["clone"]})
    tx.say(m.ClonePlaced, card="clone", n=n, to=to)


# -- strikes (§3.6, §3.7) ------------------------------------------------------------------------------------


def strike_count(tx: Tx) -> int:
    deck = tx.d.peek("strike_deck")
    return len(deck["cards"]) - int(deck["blind"])


def strikes_left(tx: Tx) -> bool:
    return strike_count(tx) > 0 or bool(tx.d["strike_discard"])


def strike(tx: Tx, seat: str, source: str, reason: str, strikes: int = 1, strike_no: int = 1, front: bool = True,
           passed: int = 0) -> None:
    item = {"kind": "strike", "seat": seat, "source": source, "strike_no": strike_no, "strikes": strikes, "reason": reason}
    if front:
        tx.push_front(item)
    else:
        tx.push_back(item)
    tx.say(m.StrikeDue, seat=seat, card=source if not source.startswith("player:") else "", text=reason, source=source,
           strikes=strikes, strike_no=strike_no, last=not front, passed=passed)


def due_checks(tx: Tx) -> None:
    """A strike at the front of the queue: the game is lost with no Strike card anywhere (§3.7 step 1);
    an ``on_strike_instead`` text replaces it (step 2)."""
    while tx.d.peek("pending") and not tx.over():
        front = tx.d.peek("pending")[0]  # read only (a change goes through tx.d)
        if front["kind"] not in ("strike", "end_game_strike"):
            return
        if not strikes_left(tx):
            lose(tx, "strikes_exhausted")
            return
        src = front["source"]
        if front["kind"] == "strike" and src in tx.rules.cards:
            a = tx.card(src).ability("on_strike_instead")
            if a is not None and a.text_only:
                tx.d["pending"][0] = pending_item(kind="effect", seat=tx.current, source=src, trigger="on_strike_instead",
                                                  group=next_group(tx))
                continue
        return


def _reshuffle_strikes(tx: Tx) -> bool:
    """The Strike discard becomes the new Strike deck when the deck has no card left to draw; whether it did."""
    if strike_count(tx) <= 0 and tx.d["strike_discard"]:
        tx.d["strike_deck"] = {"cards": sorted(tx.d["strike_discard"]), "blind": 0}
        tx.d["strike_discard"] = []
        reshuffled(tx.d, "strike_deck")
        return True
    return False


def reshuffle_strikes(tx: Tx) -> None:
    if _reshuffle_strikes(tx):
        tx.say(m.StrikeDeckReshuffled)


def take_from_strike_deck(tx: Tx, card: str) -> bool:
    """``card`` drawn from the Strike deck; whether the deck, run out, was reshuffled at once after it
    (B26's other reading, ``strike_reshuffle_timing`` on_empty): the draw says so."""
    tx.d["strike_deck"]["cards"].remove(card)
    drew(tx.d, "strike_deck")
    return bool(tx.opt["strike_reshuffle_timing"] == "on_empty" and _reshuffle_strikes(tx))


def blind_scar(tx: Tx, seat: str) -> bool:
    """The top Strike card goes face down under the avatar, unseen; False if there is none."""
    reshuffle_strikes(tx)
    if strike_count(tx) <= 0:
        return False
    tx.d["strike_deck"]["blind"] += 1
    drew(tx.d, "strike_deck")  # its top card, unseen: the next draw is the card under it
    tx.player(seat)["scars"].append("")
    tx.say(m.ScarAdded, seat=seat)
    return True


def damage(tx: Tx, seat: str) -> int:
    p = tx.player(seat)
    return sum(tx.card(w).damage for w in p["wounds"]) + len(p["scars"])


def check_defeat(tx: Tx, seat: str, lethal: bool = False) -> None:
    p = tx.player(seat)
    if p["defeated"] or tx.over():
        return
    if lethal or damage(tx, seat) >= tx.card(p["avatar"]).health:
        defeat_player(tx, seat, by_damage=not lethal)


def extinction_checks(tx: Tx) -> None:
    """While Extinction is face up, a player with no card in hand, deck, discard or play is defeated."""
    if tx.over() or tx.d.peek("status") != "in_progress" or not locate(tx, EXTINCTION):
        return
    for seat in tx.alive():
        p = tx.player(seat)
        if not (p["hand"] or p["deck"] or p["discard"] or any(not x["virtual_of"] for x in p["play"])):
            defeat_player(tx, seat)  # Extinction: no cards left
            if tx.over():
                return


def defeat_player(tx: Tx, seat: str, by_damage: bool = False) -> None:
    """§3.11: before The End the team loses; after it the player leaves the game. When the current player's
    turn ends with it, the cards coordinated to them go back first, and the defeat says the turn ends."""
    p = tx.player(seat)
    if by_damage and tx.opt["no_death"] and not tx.d["the_end"]:
        ends = seat == tx.current
        if ends:
            return_coordinated(tx)
        p["scars"] = [*p["scars"], *p["wounds"]]
        p["wounds"] = []
        p["skip_next_turn"] = True
        if ends:
            end_turn_now(tx)
        tx.say(m.PlayerDefeated, seat=seat, text="saved (no_death): wounds become scars, next turn skipped",
               saved=True, turn_ends=ends)
        return
    if not tx.d["the_end"]:
        p["defeated"] = True
        tx.say(m.PlayerDefeated, seat=seat)
        lose(tx, "player_defeated")
        return
    ends = seat == tx.current and any(not tx.player(s)["defeated"] for s in tx.d["seats"] if s != seat)
    if ends:
        return_coordinated(tx)
    p["defeated"] = True
    own = [c for zone in ("hand", "deck", "discard", "vigilant") for c in p[zone]]
    own += [x["card"] for x in p["play"] if not x.get("virtual_of")]
    for zone in ("hand", "deck", "discard", "vigilant"):
        p[zone] = []
    p["play"] = []
    if p["coordinated_out"]:
        own.append(p["coordinated_out"])
        p["coordinated_out"] = ""
        tx.turn["coordinated"][seat] = ""
    for c in own:
        defeat_own_card(tx, c)
    p["climax"] = []
    back = tx.opt["defeated_player_strikes_to"] == "strike_discard"
    if back:
        tx.d["strike_discard"] = sorted([*tx.d["strike_discard"], *p["wounds"], *(s for s in p["scars"] if s)])
    p["wounds"], p["scars"] = [], []
    tx.d["pending"] = [i for i in tx.pending() if i["seat"] != seat or i["kind"] == "effect"]
    if ends:
        end_turn_now(tx)
    types = [tx.card(c).type for c in own]
    tx.say(m.PlayerDefeated, seat=seat, out=True, cards=tuple(c for c, t in zip(own, types) if t not in OWN_STACKS),
           beliefs=types.count("belief"), doubts=types.count("doubt"), strikes_back=back, turn_ends=ends)
    if not tx.alive():
        lose(tx, "team_defeated")


#: the types of a defeated player's own cards that go elsewhere than the defeated characters: Beliefs and
#: Doubts back to their stacks, climax cards out of the game
OWN_STACKS = ("belief", "doubt", "climax")


def defeat_own_card(tx: Tx, card: str) -> None:
    ctype = tx.card(card).type
    if ctype == "belief":
        tx.d["belief_stack"] += 1
    elif ctype == "doubt":
        tx.d["doubt_stack"] += 1
    elif ctype == "climax":
        pass
    else:
        tx.d["defeated_characters"] = sorted([*tx.d["defeated_characters"], card])


def end_turn_now(tx: Tx) -> None:
    """The current player's turn ends at once (defeated after The End, or saved by no_death): what waits
    for them and every strike go, virtual copies leave play, the Strike phase's queue empties and the
    turn goes on to the end-of-turn board checks. (The cards coordinated to them go back first.)"""
    tx.d["pending"] = [i for i in tx.pending() if i["seat"] != tx.current and i["kind"] != "strike"]
    for s in tx.d["seats"]:
        p = tx.player(s)
        p["play"] = [x for x in p["play"] if not x.get("virtual_of")]
    tx.turn["strike_queue"] = []
    tx.turn["step"] = "board_checks"


# -- fights and the End Game's damage (§3.9) -----------------------------------------------------------------


def conclude_fight(tx: Tx, where: str, card: str) -> None:
    if tx.card(card).type == "end_game":
        tx.push_front({"kind": "end_game_strike", "seat": tx.current, "source": card, "location": where})
        tx.say(m.StrikeDue, seat=tx.current, card=card, text="end_game_strike", source=card, end_game=True,
               location=where)
        return
    defeat_conspiracy(tx, where, card)


def end_game_damaged(tx: Tx, card: str, n: int) -> None:
    dmg = tx.d["end_game_damage"]
    dmg[card] = int(dmg.get(card, 0)) + n
    tx.say(m.EndGameDamaged, card=card, n=n)
    if dmg[card] >= tx.card(card).health:
        where = locate(tx, card)
        if where:
            remove_at(tx, where, card)
        tx.d["defeated_conspiracy"].append(card)
        tx.say(m.EndGameDefeated, card=card, where=where)
        check_won(tx)


def check_won(tx: Tx) -> None:
    """Won when every End Game card that has come into play is defeated (the Clone too, §5.6.1)."""
    eg = {c.id for c in tx.rules.cards.of_type("end_game")}
    came = {c for c in tx.d["defeated_conspiracy"] if c in eg}
    came |= {c for c in tx.d["sector"] if c in eg}
    for s in SLOTS:
        slot = tx.d["shadows"][s]
        if slot["card"] in eg:
            came.add(slot["card"])
    if any("clone" in g.get("cards", []) for g in tx.d["conspiracy_deck"]["segments"]):
        came.add("clone")
    if not tx.opt["clone_must_be_defeated"]:
        came.discard("clone")
    if came and all(c in tx.d["defeated_conspiracy"] for c in came):
        win(tx)


def return_coordinated(tx: Tx) -> None:
    for helper, card in list(tx.turn["coordinated"].items()):
        if card:
            hp = tx.player(helper)
            if not hp["defeated"]:
                hp["discard"] = sorted([*hp["discard"], card])
            hp["coordinated_out"] = ""
            tx.turn["coordinated"][helper] = ""
            tx.say(m.CoordinatedCardReturned, seat=helper, card=card)
