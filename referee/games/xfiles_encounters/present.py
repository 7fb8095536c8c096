"""The mat drawn as boards (``boards``), from one role's view alone, as the table looks (issue 25 item 2):

* the Shadows and the Sector: the Sector's cards from its left end, then the Shadows' slots 1-5 (cards
  enter at slot 5 from the Conspiracy deck and move left), each card with its strength (the Attack, or
  Recruit, that fights it; an End Game's defense and damage) and its markers (keywords, immunities,
  what is attached or beneath); a face-down card as its back, with the stack it came from;
* the Bureau's slots 1-5 with their scan costs, each character by name with its cost, then the Academy
  and the Special Agents;
* the scheme: the Conspiracy deck's stacks (seasons A-C, the End Game), the defeated pile, the Belief,
  Doubt and Strike stacks;
* the evidence slots by priority: state, card and its Lead once discovered;
* each agent's area: avatar, damage against health, hand (its cards where the view shows them, else the
  count), cards in play, deck and discard counts, wounds and scars.

A card is given by its id (the front ends show its printed name, ``name_of``); its printed values come
from the match's card data, which is public. Nothing here reads past the view: a hidden card is ``""``
or ``"?"`` there, and is drawn as a back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.engine.present import fact_list
from referee.engine.speech import gettext
from schemas.board import Area, Board, Piece

from . import flow
from .data import Card

HIDDEN = "?"
#: a segment's label (the stack a face-down card came from) in words
_STACKS = {"A": "season A", "B": "season B", "C": "season C", "end_game": "End Game", "placed": "placed on top",
           "academy": "Academy", "special_agents": "Special Agents"}
_KINDS = {"syndicate_agent": "syndicate agent", "end_game": "End Game", "academy_character": "character",
          "special_agent": "special agent", "leader": "lead"}


def boards(cards: Mapping[str, Card], v: dict[str, Any]) -> tuple[Board, ...]:
    if "shadows" not in v:
        return ()
    return (_threats(cards, v), _bureau(cards, v), _scheme(v), _evidence(v), _agents(v))


#: the fields a reader opens on request only: the match's options, the draws' cursors, the audit's count
#: and the turn procedure's bookkeeping
DETAILS = ("options", "draws", "audit", "revealed_before", "turn.step", "turn.groups", "turn.fight_target")


def sections(drawn: tuple[Board, ...], v: dict[str, Any]) -> tuple[Board, ...]:
    """The view in words beside the mat: the agents' tableau, then every field the boards leave out (the
    turn, what waits), the options, draws and bookkeeping behind "details"."""
    covered = {key for b in drawn for key in b.covers}
    rest = fact_list(v, [k for k in v if k not in covered], details=DETAILS)
    return tuple(b for b in drawn if b.layout == "tableau") + ((rest,) if rest is not None else ())


# -- the Shadows and the Sector ----------------------------------------------------------------------------


def _threats(cards: Mapping[str, Card], v: dict[str, Any]) -> Board:
    played = (v.get("turn") or {}).get("played_classes") or {}
    damage = v.get("end_game_damage") or {}
    # a Sector card whose reveal is pending is "" (§3.3): its back, with the stack the reveal names
    coming = {str(p.get("location")): str(p.get("origin") or "") for p in v.get("pending") or ()
              if isinstance(p, dict) and p.get("kind") == "reveal"}
    areas = []
    for k, c in enumerate(v.get("sector") or [], 1):
        label = "Sector" if k == 1 else ""
        where = f"sector.{k}"
        areas.append(_card_area(where, label, c, "", cards, played, damage) if c
                     else _back(where, label, coming.get(where, coming.get("sector", "")), ""))
    if not areas:
        areas.append(Area(id="sector", label="Sector", lines=("(empty)",)))
    costs = v["options"].get("shadows_scan_costs") or ()
    for s in flow.SLOTS:
        slot = v["shadows"][s]
        label = f"scan {costs[int(s) - 1]}" if len(costs) >= int(s) else ""
        areas.append(_slot_area(f"shadows.{s}", label, slot, cards, played, damage))
    deck = v.get("conspiracy_deck") or {}
    season = str(v.get("season") or "")
    areas.append(Area(id="Conspiracy deck", lines=(
        f"{deck.get('count', 0)} cards", *([f"last from {_STACKS.get(season, season)}"] if season else ()))))
    return Board(title=gettext("Shadows and Sector"), layout="row", areas=tuple(areas),
                 covers=("sector", "shadows", "conspiracy_deck", "season", "end_game_damage", "end_game_strikes"))


def _slot_area(where: str, label: str, slot: dict[str, Any], cards: Mapping[str, Card], played: Mapping[str, Any],
               damage: Mapping[str, Any]) -> Area:
    if slot.get("state") == "empty" or not slot.get("state"):
        return Area(id=where, label=label, lines=("(empty)",))
    if slot["state"] == "hidden":
        return _back(where, label, str(slot.get("origin") or ""), str(slot.get("card") or ""))
    extra = [*(("attached", c) for c in slot.get("attached") or ()), *(("beneath", c) for c in slot.get("beneath") or ())]
    return _card_area(where, label, str(slot["card"]), "via X" if slot.get("via_x") else "", cards, played, damage,
                      tuple(extra))


def _back(where: str, label: str, origin: str, card: str) -> Area:
    """A face-down card: its back, with the stack it came from (its identity only where the view knows it)."""
    stack = _STACKS.get(origin, origin)
    shown = card if card and card != HIDDEN else ""
    piece = Piece(kind=stack, card=shown or HIDDEN, face_down=True)
    return Area(id=where, label=label, lines=("face down" + (f" ({stack})" if stack else "") + (f" {shown}" if shown else ""),),
                pieces=(piece,))


def _card_area(where: str, label: str, card: str, mark: str, cards: Mapping[str, Card], played: Mapping[str, Any],
               damage: Mapping[str, Any], extra: tuple[tuple[str, str], ...] = ()) -> Area:
    c = cards.get(card)
    if c is None:  # a card this view cannot identify
        return _back(where, label, "", "")
    strength = _strength(c, played, damage)
    notes = [*strength, *_markers(c), *([mark] if mark else [])]
    # the strength and the markers as pieces of their own (chips): what a reader looks for, on a phone too
    pieces = [Piece(kind=_KINDS.get(c.type, c.type), card=card)]
    pieces += [Piece(name=w) for w in strength]
    pieces += [Piece(name=", ".join(notes[len(strength):]))] if notes[len(strength):] else []
    pieces += [Piece(kind=how, card=other) for how, other in extra]
    lines = [card, *([", ".join(notes)] if notes else []), *(f"{how} {other}" for how, other in extra)]
    return Area(id=where, label=label, lines=tuple(lines), pieces=tuple(pieces))


def _strength(c: Card, played: Mapping[str, Any], damage: Mapping[str, Any]) -> list[str]:
    """What a threat takes to defeat, in words (an End Game: its defense, and the damage dealt to it)."""
    if c.type == "end_game":
        return [f"defense {c.defense}", f"damage {int(damage.get(c.id, 0) or 0)}/{c.health}"]
    if c.type not in ("enemy", "syndicate_agent"):
        return []
    currency = "Recruit" if c.has("apprehend") or c.fight_currency == "recruit" else "Attack"
    if c.fight_star:
        return [f"fight {c.fight}* {currency} (its text)"]
    now = max(c.fight - 2 * sum(int(played.get(cls, 0) or 0) for cls in c.vulnerability), 0)
    return [f"fight {c.fight} {currency}" + (f" ({now} this turn)" if now != c.fight else "")]


def _markers(c: Card) -> list[str]:
    out = [k.replace("_", " ") for k in c.keywords]
    out += [f"immune to {cls}" for cls in c.immunity]
    out += [f"vulnerable to {cls}" for cls in c.vulnerability]
    return out


# -- the Bureau ------------------------------------------------------------------------------------------


def _bureau(cards: Mapping[str, Card], v: dict[str, Any]) -> Board:
    costs = v["options"].get("bureau_scan_costs") or ()
    texts = v["options"].get("bureau_slot_texts") or ()
    areas = []
    for s in flow.SLOTS:
        k = int(s) - 1
        label = ", ".join(x for x in (f"scan {costs[k]}" if len(costs) > k else "",
                                       str(texts[k]) if len(texts) > k else "") if x)
        slot = v["bureau"][s]
        if slot.get("state") == "revealed" and slot.get("card") in cards:
            areas.append(_character(f"bureau.{s}", label, cards[slot["card"]]))
        else:
            areas.append(_slot_area(f"bureau.{s}", label, slot, cards, {}, {}))
    academy = v.get("academy_deck") or {}
    agents = v.get("special_agents") or {}
    areas.append(Area(id="Academy deck", lines=(f"{academy.get('count', 0)} cards",)))
    areas.append(Area(id="Special Agents", lines=(f"{agents.get('count', 0)} left", "cost 3")))
    return Board(title=gettext("Bureau"), layout="row", areas=tuple(areas), covers=("bureau", "academy_deck", "special_agents"))


def _character(where: str, label: str, c: Card) -> Area:
    gives = [f"+{c.attack}{'*' if c.star else ''} Attack" if c.attack else "",
             f"+{c.recruit}{'*' if c.star and not c.attack else ''} Recruit" if c.recruit else ""]
    notes = [f"cost {c.cost}", *([c.cls] if c.cls != "none" else []), *(g for g in gives if g),
             *(k.replace("_", " ") for k in c.keywords)]
    pieces = (Piece(kind=_KINDS.get(c.type, c.type), card=c.id), Piece(name=notes[0]),
              *((Piece(name=", ".join(notes[1:])),) if notes[1:] else ()))
    return Area(id=where, label=label, lines=(c.id, ", ".join(notes)), pieces=pieces)


# -- the scheme: the Conspiracy deck's stacks, the defeated pile, the Belief, Doubt and Strike stacks ---------


def _scheme(v: dict[str, Any]) -> Board:
    deck = v.get("conspiracy_deck") or {}
    season = str(v.get("season") or "")
    areas = []
    for g in deck.get("segments") or ():
        label = str(g.get("label", ""))
        areas.append(Area(id=_STACKS.get(label, label), label="drawing now" if label == season else "",
                          lines=(f"{g.get('remaining', 0)} left",)))
    if v.get("the_end"):
        areas.append(Area(id="The End", lines=("the End Game is revealed",)))
    defeated = [c for c in v.get("defeated_conspiracy") or () if c != HIDDEN]
    areas.append(Area(id="defeated", lines=(f"{len(defeated)} cards", *((f"top {defeated[-1]}",) if defeated else ()))))
    areas.append(Area(id="defeated characters", lines=(f"{len(v.get('defeated_characters') or [])} cards",)))
    areas.append(Area(id="Belief", lines=(f"{v.get('belief_stack', 0)} in the stack",)))
    areas.append(Area(id="Doubt", lines=(f"{v.get('doubt_stack', 0)} in the stack",)))
    strikes = v.get("strike_deck") or {}
    discard = v.get("strike_discard") or []
    areas.append(Area(id="Strikes", lines=(f"{strikes.get('count', 0)} in the deck", f"{len(discard)} discarded")))
    return Board(title=gettext("Conspiracy and stacks"), layout="row", areas=tuple(areas),
                 covers=("defeated_conspiracy", "defeated_characters", "belief_stack", "doubt_stack", "strike_deck", "strike_discard",
                         "the_end"))


# -- the evidence ----------------------------------------------------------------------------------------


def _evidence(v: dict[str, Any]) -> Board:
    areas = []
    for p, e in sorted((v.get("evidence") or {}).items()):
        state = str(e.get("state", ""))
        card = str(e.get("card") or "")
        leader = str(e.get("leader") or "")
        marks = [state, *(["locked"] if e.get("locked") else []), *(["in the End Game"] if e.get("in_end_game") else [])]
        pieces = [Piece(kind="evidence", card=card) if card and card != HIDDEN
                  else Piece(kind="evidence", card=HIDDEN, face_down=True), Piece(name=", ".join(marks))]
        if leader and leader != HIDDEN:
            pieces.append(Piece(kind="lead", card=leader))
        lines = [" ".join(x for x in (state, card if card != HIDDEN else "") if x),
                 *([f"lead {leader}"] if leader and leader != HIDDEN else []), *marks[1:]]
        areas.append(Area(id=f"evidence.{p}", label=f"priority {p}", lines=tuple(lines), pieces=tuple(pieces)))
    clone = v.get("clone_evidence") or []
    if clone:
        areas.append(Area(id="Clone evidence", label=f"{len(clone)} cards"))
    return Board(title=gettext("Evidence"), layout="row", areas=tuple(areas), covers=("evidence", "clone_evidence"))


# -- the agents ------------------------------------------------------------------------------------------


def _cards(ids: list[str]) -> str:
    """Cards as a reader counts them: ``field_agent x3, strike_team`` (in the view's order; plain ASCII,
    so ``show`` to a pipe keeps its fast path, :mod:`cli.boards`)."""
    counts = Counter(ids)
    return ", ".join(c + (f" x{counts[c]}" if counts[c] > 1 else "") for c in dict.fromkeys(ids)) or "—"


def _agents(v: dict[str, Any]) -> Board:
    players: dict[str, Any] = v.get("players") or {}
    areas = []
    for seat in [s for s in v.get("seats") or () if s in players] or sorted(players):
        p = players[seat]
        hand = list(p.get("hand") or [])
        known = [c for c in hand if c != HIDDEN]
        hand_text = f"{len(hand)} card{'' if len(hand) == 1 else 's'}" + (
            f": {_cards(known)}" if known and len(known) == len(hand) else "")
        facts = [("damage", f"{p.get('damage', 0)}/{p.get('health', 0)}" + (" defeated" if p.get("defeated") else "")),
                 ("hand", hand_text),
                 ("in play", _cards([str(x.get("card")) for x in p.get("play") or ()])),
                 ("vigilant", _cards(list(p.get("vigilant") or []))),
                 ("deck", str(len(p.get("deck") or []))),
                 ("discard", str(len(p.get("discard") or []))),
                 ("wounds", _cards(list(p.get("wounds") or []))),
                 ("scars", str(len(p.get("scars") or [])))]
        if p.get("coordinated_out"):
            facts.append(("set aside", str(p["coordinated_out"])))
        if p.get("climax"):
            facts.append(("climax", _cards(list(p["climax"]))))
        if p.get("symptoms"):
            facts.append(("symptoms", str(p["symptoms"])))
        if p.get("skip_next_turn"):
            facts.append(("skips", "next turn"))
        areas.append(Area(id=str(seat), label=str(p.get("avatar", "")), owner=str(seat), facts=tuple(facts)))
    return Board(title=gettext("Agents"), layout="tableau", areas=tuple(areas), covers=("players",))
