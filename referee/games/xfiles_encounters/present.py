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
from referee.engine.speech import gettext, ngettext, per_reader, pgettext, worded, worded_or
from schemas.board import Area, Board, Piece

from . import flow
from .data import Card

HIDDEN = "?"


@worded
def _stack() -> dict[str, str]:
    """A segment's label (the stack a face-down card came from) in the reader's words."""
    return {"A": pgettext("a stack", "season A"), "B": pgettext("a stack", "season B"),
            "C": pgettext("a stack", "season C"), "end_game": pgettext("a stack", "End Game"),
            "placed": pgettext("a stack", "placed on top"), "academy": pgettext("a stack", "Academy"),
            "special_agents": pgettext("a stack", "Special Agents")}


#: a card's type as a piece is marked (the viewer's chips; the type's id where this names none)
_KINDS = {"syndicate_agent": "syndicate agent", "end_game": "End Game", "academy_character": "character",
          "special_agent": "special agent", "leader": "lead"}


@worded
def _class() -> dict[str, str]:
    """A class (and the Attack or Recruit of none) in the reader's words, as the events' sentences say it."""
    return {"tech": gettext("tech"), "science": gettext("science"), "intelligence": gettext("intelligence"),
            "leadership": gettext("leadership"), "will": gettext("will"), "none": gettext("none")}


@worded_or(lambda keyword: keyword.replace("_", " "))
def _keyword() -> dict[str, str]:
    """A card's keyword in the reader's words."""
    return {"coordinate": pgettext("a card's keyword", "coordinate"),
            "sacrifice": pgettext("a card's keyword", "sacrifice"), "vigilant": pgettext("a card's keyword", "vigilant"),
            "ambush": pgettext("a card's keyword", "ambush"), "apprehend": pgettext("a card's keyword", "apprehend"),
            "double_strike": pgettext("a card's keyword", "double strike"),
            "triple_strike": pgettext("a card's keyword", "triple strike"),
            "elude": pgettext("a card's keyword", "elude"), "ferocious": pgettext("a card's keyword", "ferocious"),
            "frightening": pgettext("a card's keyword", "frightening"), "lethal": pgettext("a card's keyword", "lethal"),
            "maul": pgettext("a card's keyword", "maul"), "range": pgettext("a card's keyword", "range"),
            "ravage": pgettext("a card's keyword", "ravage"), "runner": pgettext("a card's keyword", "runner"),
            "stationary": pgettext("a card's keyword", "stationary"), "stealth": pgettext("a card's keyword", "stealth"),
            "swift": pgettext("a card's keyword", "swift")}


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
    rest = fact_list(v, [k for k in v if k not in covered], details=DETAILS, words=_words(), values=_values())
    return tuple(b for b in drawn if b.layout == "tableau") + ((rest,) if rest is not None else ())


@per_reader
def _values() -> dict[str, dict[str, str]]:
    """The match's status, its result and the turn's phase as stored, in the reader's words."""
    status = {"setup": pgettext("a match's status", "setup"), "in_progress": pgettext("a match's status", "in_progress"),
              "won": pgettext("a match's status", "won"), "lost": pgettext("a match's status", "lost")}
    phase = {"setup": pgettext("a phase", "setup"), "action": pgettext("a phase", "action"),
             "strike": pgettext("a phase", "strike"), "conspiracy": pgettext("a phase", "conspiracy"),
             "cleanup": pgettext("a phase", "cleanup")}
    return {"status": status, "outcome.result": status, "turn.phase": phase}


@per_reader
def _words() -> dict[str, str]:
    """The turn's and the match's fields (and their paths' starts) in the reader's words, as the engine's
    ``label`` reads them in English (a class as the events' sentences say it)."""
    out = {
        "awaiting": pgettext("a table's label", "awaiting"), "pending": pgettext("a table's label", "pending"),
        "seats": pgettext("a table's label", "seats"), "status": pgettext("a table's label", "status"),
        "outcome.reason": pgettext("a table's label", "outcome reason"),
        "outcome.result": pgettext("a table's label", "outcome result"),
        "outcome.winners": pgettext("a table's label", "outcome winners"),
        "turn.attack_total": pgettext("a table's label", "turn attack total"),
        "turn.avoid_used": pgettext("a table's label", "turn avoid used"),
        "turn.belief_card_activated": pgettext("a table's label", "turn belief card activated"),
        "turn.belief_text_resolved": pgettext("a table's label", "turn belief text resolved"),
        "turn.beliefs_played": pgettext("a table's label", "turn beliefs played"),
        "turn.coordinate_forbidden": pgettext("a table's label", "turn coordinate forbidden"),
        "turn.coordinated": pgettext("a table's label", "turn coordinated"),
        "turn.doubt_resolved": pgettext("a table's label", "turn doubt resolved"),
        "turn.end_game_fights": pgettext("a table's label", "turn end game fights"),
        "turn.grants": pgettext("a table's label", "turn grants"),
        "turn.lessons_resolved": pgettext("a table's label", "turn lessons resolved"),
        "turn.number": pgettext("a table's label", "turn number"), "turn.phase": pgettext("a table's label", "turn phase"),
        "turn.play_log": pgettext("a table's label", "turn play log"),
        "turn.recruit_total": pgettext("a table's label", "turn recruit total"),
        "turn.seat": pgettext("a table's label", "turn seat"),
        "turn.solo_coordinated": pgettext("a table's label", "turn solo coordinated"),
        "turn.strike_queue": pgettext("a table's label", "turn strike queue"),
        "turn.virtual_played": pgettext("a table's label", "turn virtual played"),
    }
    starts = {"attack": pgettext("a table's label", "turn attack"), "recruit": pgettext("a table's label", "turn recruit"),
              "played_classes": pgettext("a table's label", "turn played classes")}
    for key, said in starts.items():
        out[f"turn.{key}"] = said
        for cls in ("none", "intelligence", "leadership", "science", "tech", "will"):
            out[f"turn.{key}.{cls}"] = f"{said} {_class(cls)}"
    return out


# -- the Shadows and the Sector ----------------------------------------------------------------------------


def _threats(cards: Mapping[str, Card], v: dict[str, Any]) -> Board:
    played = (v.get("turn") or {}).get("played_classes") or {}
    damage = v.get("end_game_damage") or {}
    # a Sector card whose reveal is pending is "" (§3.3): its back, with the stack the reveal names
    coming = {str(p.get("location")): str(p.get("origin") or "") for p in v.get("pending") or ()
              if isinstance(p, dict) and p.get("kind") == "reveal"}
    areas = []
    for k, c in enumerate(v.get("sector") or [], 1):
        label = gettext("Sector") if k == 1 else ""
        where = f"sector.{k}"
        areas.append(_card_area(where, label, c, "", cards, played, damage) if c
                     else _back(where, label, coming.get(where, coming.get("sector", "")), ""))
    if not areas:
        areas.append(Area(id="sector", label=gettext("Sector"), lines=(gettext("(empty)"),)))
    costs = v["options"].get("shadows_scan_costs") or ()
    for s in flow.SLOTS:
        slot = v["shadows"][s]
        label = gettext("scan {cost}", cost=costs[int(s) - 1]) if len(costs) >= int(s) else ""
        areas.append(_slot_area(f"shadows.{s}", label, slot, cards, played, damage))
    deck = v.get("conspiracy_deck") or {}
    season = str(v.get("season") or "")
    areas.append(Area(id=gettext("Conspiracy deck"), lines=(
        ngettext("{n} cards", "{n} cards", int(deck.get("count", 0) or 0)),
        *([gettext("last from {stack}", stack=_stack(season))] if season else ()))))
    return Board(title=gettext("Shadows and Sector"), layout="row", areas=tuple(areas),
                 covers=("sector", "shadows", "conspiracy_deck", "season", "end_game_damage", "end_game_strikes"))


def _slot_area(where: str, label: str, slot: dict[str, Any], cards: Mapping[str, Card], played: Mapping[str, Any],
               damage: Mapping[str, Any]) -> Area:
    if slot.get("state") == "empty" or not slot.get("state"):
        return Area(id=where, label=label, lines=(gettext("(empty)"),))
    if slot["state"] == "hidden":
        return _back(where, label, str(slot.get("origin") or ""), str(slot.get("card") or ""))
    extra = [*(("attached", c) for c in slot.get("attached") or ()), *(("beneath", c) for c in slot.get("beneath") or ())]
    return _card_area(where, label, str(slot["card"]), gettext("via X") if slot.get("via_x") else "", cards, played, damage,
                      tuple(extra))


def _back(where: str, label: str, origin: str, card: str) -> Area:
    """A face-down card: its back, with the stack it came from (its identity only where the view knows it)."""
    stack = _stack(origin)
    shown = card if card and card != HIDDEN else ""
    piece = Piece(kind=stack, card=shown or HIDDEN, face_down=True)
    return Area(id=where, label=label, lines=(gettext("face down") + (f" ({stack})" if stack else "") + (f" {shown}" if shown else ""),),
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
    lines = [card, *([", ".join(notes)] if notes else []),
             *(gettext("attached {card}", card=other) if how == "attached" else gettext("beneath {card}", card=other)
               for how, other in extra)]
    return Area(id=where, label=label, lines=tuple(lines), pieces=tuple(pieces))


def _strength(c: Card, played: Mapping[str, Any], damage: Mapping[str, Any]) -> list[str]:
    """What a threat takes to defeat, in words (an End Game: its defense, and the damage dealt to it)."""
    if c.type == "end_game":
        return [gettext("defense {defense}", defense=c.defense),
                gettext("damage {damage}/{health}", damage=int(damage.get(c.id, 0) or 0), health=c.health)]
    if c.type not in ("enemy", "syndicate_agent"):
        return []
    recruit = c.has("apprehend") or c.fight_currency == "recruit"
    if c.fight_star:
        return [gettext("fight {fight}* Recruit (its text)", fight=c.fight) if recruit
                else gettext("fight {fight}* Attack (its text)", fight=c.fight)]
    now = max(c.fight - 2 * sum(int(played.get(cls, 0) or 0) for cls in c.vulnerability), 0)
    fight = (gettext("fight {fight} Recruit", fight=c.fight) if recruit else gettext("fight {fight} Attack", fight=c.fight))
    return [fight + (" " + gettext("({now} this turn)", now=now) if now != c.fight else "")]


def _markers(c: Card) -> list[str]:
    out = [_keyword(k) for k in c.keywords]
    out += [gettext("immune to {cls}", cls=_class(cls)) for cls in c.immunity]
    out += [gettext("vulnerable to {cls}", cls=_class(cls)) for cls in c.vulnerability]
    return out


# -- the Bureau ------------------------------------------------------------------------------------------


def _bureau(cards: Mapping[str, Card], v: dict[str, Any]) -> Board:
    costs = v["options"].get("bureau_scan_costs") or ()
    texts = v["options"].get("bureau_slot_texts") or ()
    areas = []
    for s in flow.SLOTS:
        k = int(s) - 1
        label = ", ".join(x for x in (gettext("scan {cost}", cost=costs[k]) if len(costs) > k else "",
                                       str(texts[k]) if len(texts) > k else "") if x)
        slot = v["bureau"][s]
        if slot.get("state") == "revealed" and slot.get("card") in cards:
            areas.append(_character(f"bureau.{s}", label, cards[slot["card"]]))
        else:
            areas.append(_slot_area(f"bureau.{s}", label, slot, cards, {}, {}))
    academy = v.get("academy_deck") or {}
    agents = v.get("special_agents") or {}
    areas.append(Area(id=gettext("Academy deck"), lines=(ngettext("{n} cards", "{n} cards", int(academy.get("count", 0) or 0)),)))
    areas.append(Area(id=pgettext("a stack", "Special Agents"), lines=(
        ngettext("{n} left", "{n} left", int(agents.get("count", 0) or 0)), gettext("cost {cost}", cost=3))))
    return Board(title=gettext("Bureau"), layout="row", areas=tuple(areas), covers=("bureau", "academy_deck", "special_agents"))


def _character(where: str, label: str, c: Card) -> Area:
    gives = [gettext("+{n} Attack", n=f"{c.attack}{'*' if c.star else ''}") if c.attack else "",
             gettext("+{n} Recruit", n=f"{c.recruit}{'*' if c.star and not c.attack else ''}") if c.recruit else ""]
    notes = [gettext("cost {cost}", cost=c.cost), *([_class(c.cls)] if c.cls != "none" else []), *(g for g in gives if g),
             *(_keyword(k) for k in c.keywords)]
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
        areas.append(Area(id=_stack(label), label=gettext("drawing now") if label == season else "",
                          lines=(ngettext("{n} left", "{n} left", int(g.get("remaining", 0) or 0)),)))
    if v.get("the_end"):
        areas.append(Area(id=gettext("The End"), lines=(gettext("the End Game is revealed"),)))
    defeated = [c for c in v.get("defeated_conspiracy") or () if c != HIDDEN]
    areas.append(Area(id=pgettext("a pile", "defeated"), lines=(
        ngettext("{n} cards", "{n} cards", len(defeated)), *((gettext("top {card}", card=defeated[-1]),) if defeated else ()))))
    areas.append(Area(id=pgettext("a pile", "defeated characters"),
                      lines=(ngettext("{n} cards", "{n} cards", len(v.get("defeated_characters") or [])),)))
    areas.append(Area(id=pgettext("a stack", "Belief"),
                      lines=(ngettext("{n} in the stack", "{n} in the stack", int(v.get("belief_stack", 0) or 0)),)))
    areas.append(Area(id=pgettext("a stack", "Doubt"),
                      lines=(ngettext("{n} in the stack", "{n} in the stack", int(v.get("doubt_stack", 0) or 0)),)))
    strikes = v.get("strike_deck") or {}
    discard = v.get("strike_discard") or []
    areas.append(Area(id=pgettext("a stack", "Strikes"), lines=(
        ngettext("{n} in the deck", "{n} in the deck", int(strikes.get("count", 0) or 0)),
        ngettext("{n} discarded", "{n} discarded", len(discard)))))
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
        said = _evidence_state(state)
        marks = [said, *([gettext("locked")] if e.get("locked") else []),
                 *([gettext("in the End Game")] if e.get("in_end_game") else [])]
        pieces = [Piece(kind="evidence", card=card) if card and card != HIDDEN
                  else Piece(kind="evidence", card=HIDDEN, face_down=True), Piece(name=", ".join(marks))]
        if leader and leader != HIDDEN:
            pieces.append(Piece(kind="lead", card=leader))
        lines = [" ".join(x for x in (said, card if card != HIDDEN else "") if x),
                 *([gettext("lead {card}", card=leader)] if leader and leader != HIDDEN else []), *marks[1:]]
        areas.append(Area(id=f"evidence.{p}", label=gettext("priority {p}", p=p), lines=tuple(lines), pieces=tuple(pieces)))
    clone = v.get("clone_evidence") or []
    if clone:
        areas.append(Area(id=gettext("Clone evidence"), label=ngettext("{n} cards", "{n} cards", len(clone))))
    return Board(title=gettext("Evidence"), layout="row", areas=tuple(areas), covers=("evidence", "clone_evidence"))


@worded
def _evidence_state() -> dict[str, str]:
    """An evidence slot's state in the reader's words."""
    return {"undiscovered": pgettext("evidence", "undiscovered"), "discovered": pgettext("evidence", "discovered"),
            "collected": pgettext("evidence", "collected"), "exposed": pgettext("evidence", "exposed")}


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
        hand_text = ngettext("{n} card", "{n} cards", len(hand)) + (
            f": {_cards(known)}" if known and len(known) == len(hand) else "")
        facts = [(pgettext("a table's label", "damage"), f"{p.get('damage', 0)}/{p.get('health', 0)}"
                  + (" " + pgettext("an agent", "defeated") if p.get("defeated") else "")),
                 (pgettext("a table's label", "hand"), hand_text),
                 (pgettext("a table's label", "in play"), _cards([str(x.get("card")) for x in p.get("play") or ()])),
                 (pgettext("a table's label", "vigilant"), _cards(list(p.get("vigilant") or []))),
                 (pgettext("a table's label", "deck"), str(len(p.get("deck") or []))),
                 (pgettext("a table's label", "discard"), str(len(p.get("discard") or []))),
                 (pgettext("a table's label", "wounds"), _cards(list(p.get("wounds") or []))),
                 (pgettext("a table's label", "scars"), str(len(p.get("scars") or [])))]
        if p.get("coordinated_out"):
            facts.append((pgettext("a table's label", "set aside"), str(p["coordinated_out"])))
        if p.get("climax"):
            facts.append((pgettext("a table's label", "climax"), _cards(list(p["climax"]))))
        if p.get("symptoms"):
            facts.append((pgettext("a table's label", "symptoms"), str(p["symptoms"])))
        if p.get("skip_next_turn"):
            facts.append((pgettext("a table's label", "skips"), gettext("next turn")))
        areas.append(Area(id=str(seat), label=str(p.get("avatar", "")), owner=str(seat), facts=tuple(facts)))
    return Board(title=gettext("Agents"), layout="tableau", areas=tuple(areas), covers=("players",))
