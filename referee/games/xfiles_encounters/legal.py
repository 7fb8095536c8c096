"""The intents a seat could submit now (``referee legal``, hints, fuzzing) and a random one of them.

Candidates are built from the state and each is adjudicated; only accepted ones are listed. Declared
effects (§4.0.5) are offered as the project offers them for every game: open-ended ones with no changes
(``resolve_effect source=X``, ``activate card=X``); ``manual_effect``, which needs a change, with the
change that changes nothing (``ops=points:attack:0``), for each source that could have text to declare
(the seat's avatar, a face-up card with a text-only ability); avoiding and cancelling a strike with every
source that may (§4.19, §4.20), declared ones included. The named cards whose effects are checked (§5.6:
X, Susanne Modeski) are offered with their concrete changes.

``random_intent`` picks like a player who wants the game to end: it leaves out the no-change declared
effects and favours fighting, recruiting and answering the referee, so random games finish.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from referee.engine.chance import Chance
from referee.engine.protocol import Accepted, Rejected

from . import flow
from . import model as m
from . import named

if TYPE_CHECKING:
    from .txn import BoundRules

#: the change that changes nothing: a manual effect offered as a template to fill in
NO_CHANGE = (m.OpPoints(kind="attack", amount=0),)


def _text_only(rules: BoundRules, card: str) -> bool:
    return card in rules.cards and any(a.text_only for a in rules.cards[card].abilities)


def _own_sources(rules: BoundRules, st: dict[str, Any], seat: str) -> list[str]:
    """The seat's cards that may be cited as a source: in play, Vigilant, in hand, climax cards."""
    p = st["players"][seat]
    return sorted({x["card"] for x in p["play"]} | set(p["vigilant"]) | set(p["hand"]) | set(p["climax"]))


def _face_up(st: dict[str, Any]) -> list[str]:
    cards = [s["card"] for zone in ("shadows", "bureau") for s in st[zone].values() if s["state"] == "revealed"]
    return sorted(set(cards) | {c for c in st["sector"] if c})


def _strike_answers(rules: BoundRules, st: dict[str, Any], seat: str, front: dict[str, Any]) -> list[Any]:
    out: list[Any] = [m.TakeStrike()]
    if front["kind"] != "strike":
        return out
    own = _own_sources(rules, st, seat)
    avoid = [s for s in own if any("avoid" in a.grants for a in rules.cards[s].abilities) or _text_only(rules, s)]
    out += [m.AvoidStrike(source=s) for s in [*avoid, f"avatar.{seat}"]]
    cancel = [s for s in own if any("cancel" in a.grants for a in rules.cards[s].abilities)
              or "grants_cancel" in rules.cards[s].solo_rules or _text_only(rules, s)]
    if f"cancel:{seat}" in st["turn"]["grants"]:
        cancel.append(f"avatar.{seat}")
    out += [m.TakeStrike(cancel=s) for s in cancel]
    if rules.config.chance != "digital":  # Fear cancels itself (solo, after a Belief): the card is typed in
        out += [m.TakeStrike(card=c.id, cancel=c.id) for c in rules.cards.of_type("strike")
                if "self_cancel_if_belief" in c.solo_rules]
    return out


def _answers(rules: BoundRules, st: dict[str, Any], seat: str) -> list[Any]:
    front = st["pending"][0]
    if (front["seat"] or st["turn"]["seat"]) != seat:
        return []
    kind = front["kind"]
    if kind == "draw":
        return [m.Draw()]
    if kind == "reveal":
        return [m.Reveal()]
    if kind in ("strike", "end_game_strike"):
        return _strike_answers(rules, st, seat, front)
    if kind == "ally":
        return [m.GiveAlly(seat=s) for s in st["seats"] if not st["players"][s]["defeated"]]
    if kind == "effect":
        group = front["group"]
        items = [i for i in st["pending"] if i["kind"] == "effect" and i["group"] == group][:3]
        return [m.ResolveEffect(source=i["source"]) for i in items]
    if kind == "doubt":
        return [m.ResolveDoubt()]
    return []


def _manual(rules: BoundRules, st: dict[str, Any], seat: str) -> list[Any]:
    """Declared effects any seat may state while nothing is pending (§4.25)."""
    if st["status"] == "setup":
        return []
    sources = [f"avatar.{seat}", *(c for c in _face_up(st) if _text_only(rules, c))]
    return [*named.manual_intents(rules, st, seat), *(m.ManualEffect(source=s, ops=NO_CHANGE) for s in sources)]


def _actions(rules: BoundRules, st: dict[str, Any], seat: str) -> list[Any]:
    p = st["players"][seat]
    turn = st["turn"]
    out: list[Any] = [m.PlayCard(card=c) for c in sorted(set(p["hand"]))]
    played = sorted({x["card"] for x in p["play"]})
    out += [m.Activate(card=c) for c in played if rules.cards[c].ability("on_activate")]
    out += [m.Sacrifice(card=c) for c in sorted({*played, *p["vigilant"]}) if rules.cards[c].has("sacrifice")]
    out += [m.UseVigilant(card=c) for c in sorted({*p["vigilant"], *played}) if rules.cards[c].has("vigilant")]
    if any(x["card"] == "belief" for x in p["play"]):
        out += [m.ActivateBelief(), m.ActivateBelief(text="lessons")]
    if any(turn["attack"].values()) or any(turn["recruit"].values()):
        for zone in ("shadows", "bureau"):
            for s in flow.SLOTS:
                slot = st[zone][s]
                if slot["state"] == "hidden":
                    out.append(m.Scan(location=f"{zone}.{s}"))
                elif slot["state"] == "revealed":
                    kind = rules.cards[slot["card"]].type
                    if zone == "bureau" and kind == "academy_character":
                        out.append(m.Recruit(location=f"bureau.{s}"))
                    elif kind in ("enemy", "syndicate_agent", "end_game"):
                        out.append(_fight(rules, f"{zone}.{s}", slot["card"], p))
        for i, c in enumerate(st["sector"]):
            if c and rules.cards[c].type in ("enemy", "syndicate_agent", "end_game"):
                out.append(_fight(rules, f"sector.{i + 1}", c, p))
        out.append(m.RecruitSpecialAgent())
        out += [m.FightPlayer(seat=g.split(":", 1)[1]) for g in sorted(set(turn["grants"])) if g.startswith("fight_player:")]
    leaders = [f"shadows.{s}" for s in flow.SLOTS if st["shadows"][s]["state"] == "revealed"
               and rules.cards[st["shadows"][s]["card"]].type == "leader"]
    leaders += [f"sector.{i + 1}" for i, c in enumerate(st["sector"]) if c and rules.cards[c].type == "leader"]
    hidden = [f"evidence.{e}" for e in ("1", "2", "3") if st["evidence"][e]["state"] == "undiscovered"]
    for where in leaders:
        if st["options"]["evidence_order"] == "chosen":
            out += [m.DiscoverEvidence(location=where, evidence=e) for e in hidden]
        else:
            out.append(m.DiscoverEvidence(location=where))
        out.append(m.CollectEvidence(location=where))
    out += [m.PlayVirtual(seat=s) for s, c in turn["coordinated"].items() if c]
    out.append(m.EndActions())
    return out


def candidates(rules: BoundRules, state: m.State, seat: str) -> list[Any]:
    st: dict[str, Any] = msgspec.to_builtins(state)
    if st["status"] in ("won", "lost") or st["players"][seat]["defeated"]:
        return []
    if st["pending"]:
        return _answers(rules, st, seat)
    out = _manual(rules, st, seat)
    if seat != st["turn"]["seat"]:
        hand = sorted(set(st["players"][seat]["hand"]))
        return [*(m.Coordinate(card=c) for c in hand if rules.cards[c].has("coordinate")), *out]
    phase = st["turn"]["phase"]
    if phase == "conspiracy":
        return [m.Conspire(), *out]
    if phase == "cleanup":
        return [m.Cleanup(), *out]
    if phase != "action":
        return out
    hand = sorted(set(st["players"][seat]["hand"]))
    solo = [m.Coordinate(card=c) for c in hand if rules.cards[c].has("coordinate")]
    return [*_actions(rules, st, seat), *solo, *out]


def _fight(rules: BoundRules, where: str, card: str, p: dict[str, Any]) -> m.Fight:
    c = rules.cards[card]
    return m.Fight(target=where, discard=p["hand"][0] if c.has("frightening") and p["hand"] else "",
                   cost=2 if c.fight_star else None)


def legal(rules: BoundRules, state: m.State, seat: str) -> list[Any]:
    """The candidates the rules accept now (chance fields left for the referee in a digital match)."""
    from .draws import fill

    out = []
    digital = rules.config.chance == "digital"
    probe = Chance(0, f"legal:{state.turn.number}:{len(state.pending)}:{len(state.strike_deck.cards)}:"
                      f"{len(state.strike_discard)}:{sum(len(p.hand) + len(p.deck) for p in state.players.values())}")
    for intent in candidates(rules, state, seat):
        filled = intent
        chancy = bool(rules.chance_fields(intent)) and bool(state.pending)
        if chancy and not (isinstance(intent, m.TakeStrike) and intent.card is not None):
            filled = fill(rules, state, seat, intent, probe)
            if isinstance(filled, Rejected):
                continue
        verdict = rules.decide(state, seat, filled, None)
        if isinstance(verdict, Accepted):
            out.append(intent if digital and chancy else filled)
    return list({msgspec.json.encode(i): i for i in out}.values())


#: how much more often random play picks what moves a game on
_FAVOURED = (m.Fight, m.Recruit, m.TakeStrike, m.Draw, m.Reveal)


def random_intent(rules: BoundRules, state: m.State, rng: Any) -> tuple[str, Any] | None:
    """A legal (seat, intent) picked like a player who wants the game to end: no declared effect that
    changes nothing, and fights, recruits and the referee's questions favoured."""
    options = [(s, i) for s in rules.players for i in legal(rules, state, s)
               if not (isinstance(i, m.ManualEffect) and i.ops == NO_CHANGE)]
    if not options:
        return None
    weights = [5 if isinstance(i, _FAVOURED) else 1 for _, i in options]
    pick: tuple[str, Any] = rng.choices(options, weights)[0]
    return pick
