"""Twilight cards played (§4.24–4.25), getting a jump (§4.26), location and event abilities (§4.27–4.28)."""

from __future__ import annotations

from typing import Any, Literal

from referee.engine.codes import TurnCode
from referee.engine.suggest import did_you_mean

from .codes import Code
from .data import FAVOR_TYPES
from .manual import apply_deltas, check_deltas
from .model import (
    AlibiDelta, BaggageDelta, CardDelta, FavorDelta, AlibiPlaced, BaggagePlaced, EventAbilityUsed, FavorGained, GetAJump, LocationAbilityUsed, PlayDarkCard,
    PlayLightCard, Pushed, SceneMarkerTaken, Step, TimeSpent, TwilightCardPlayed, TwilightShifted, UseEventAbility,
    UseLocationAbility,
)
from .txn import R_ABILITY, R_DARK, R_EVENT, R_JUMP, R_LIGHT, Tx


def _undo(tx: Tx, delta: Any) -> None:
    """What «Отмена» must reverse of the action being decided (:mod:`.cancel`)."""
    if tx.undo is not None:
        tx.undo.append(delta)


def _cost(tx: Tx, card: str, given: int | None, rule: str) -> int:
    data = tx.rules.data.cards[card].cost
    if data is None:
        tx.require(given is not None, Code.REF_MALFORMED, f"{card} has no cost in the data: give cost=<n>", rule)
        assert given is not None
        return given
    tx.require(given is None or given == data, Code.TWILIGHT_WRONG_COST, f"{card} costs {data}, not {given}", rule)
    return data


def _destination(tx: Tx, card: str) -> Literal["bottom", "in_play", "box"]:
    if tx.rules.data.cards[card].persistent:
        return "in_play"
    return "bottom" if tx.rules.options["played_card_destination"] == "bottom_of_origin_deck" else "box"


def play_light_card(tx: Tx, it: PlayLightCard) -> None:
    p = tx.s.players[tx.seat]
    tx.require(it.card in p.hand, Code.HAND_CARD_NOT_IN_HAND, f"{it.card} is not in {tx.seat}'s hand", R_LIGHT)
    tx.require(tx.rules.data.cards[it.card].deck == "light", Code.TWILIGHT_NOT_LIGHT_CARD, f"{it.card} is a dark card", R_LIGHT)
    tx.time(1, R_LIGHT)
    cost = _cost(tx, it.card, it.cost, R_LIGHT)
    _lo, hi = tx.rules.track(p.detective or "")
    shift = cost
    if p.twilight + cost > hi:
        tx.require(tx.rules.options["overpay"] == "clamp", Code.TWILIGHT_CANNOT_PAY,
                   f"a dark shift of {cost} would take {tx.seat}'s marker past the dark end ({p.twilight} + {cost} > {hi})", R_LIGHT)
        shift = hi - p.twilight
    check_deltas(tx, it.deltas)
    to = _destination(tx, it.card)
    tx.emit(TimeSpent(seat=tx.seat, amount=1), TwilightCardPlayed(seat=tx.seat, card=it.card, to=to))
    if shift:
        tx.emit(TwilightShifted(seat=tx.seat, amount=shift))
    if to == "in_play" and tx.undo is not None:  # cancelled, a card kept in play leaves it as a played card does
        gone = "bottom" if tx.rules.options["played_card_destination"] == "bottom_of_origin_deck" else "box"
        tx.undo.append(CardDelta(card=it.card, zone=gone))
    apply_deltas(tx, it.deltas)
    tx.flag("manual_effect", f"light card {it.card}")


def play_dark_card(tx: Tx, it: PlayDarkCard) -> None:
    tx.require(tx.seat != tx.s.active_seat, Code.TWILIGHT_DARK_CARD_TIMING,
               "dark cards are played in another player's turn, not in your own", R_DARK)
    tx.require(tx.seat in tx.s.players, TurnCode.NOT_YOUR_TURN, f"{tx.seat} holds no cards", R_DARK)
    p = tx.s.players[tx.seat]
    tx.require(it.card in p.hand, Code.HAND_CARD_NOT_IN_HAND, f"{it.card} is not in {tx.seat}'s hand", R_DARK)
    card = tx.rules.data.cards[it.card]
    tx.require(card.deck == "dark", Code.TWILIGHT_NOT_DARK_CARD, f"{it.card} is a light card", R_DARK)
    if tx.rules.options["dark_card_timing"] == "owner_turn_only":
        active = tx.s.players[tx.s.active_seat or ""].detective if tx.s.active_seat else None
        tx.require(card.detective == active, Code.TWILIGHT_DARK_CARD_TIMING,
                   f"{it.card} comes from {card.detective}'s dark deck: it is played in {card.detective}'s turn", R_DARK)
    cost = _cost(tx, it.card, it.cost, R_DARK)
    lo, _hi = tx.rules.track(p.detective or "")
    shift = cost
    if p.twilight - cost < lo:
        tx.require(tx.rules.options["overpay"] == "clamp", Code.TWILIGHT_CANNOT_PAY,
                   f"a light shift of {cost} would take {tx.seat}'s marker past the light end ({p.twilight} - {cost} < {lo})", R_DARK)
        shift = p.twilight - lo
    check_deltas(tx, it.deltas)
    tx.emit(TwilightCardPlayed(seat=tx.seat, card=it.card, to=_destination(tx, it.card)))
    if shift:
        tx.emit(TwilightShifted(seat=tx.seat, amount=-shift))
    apply_deltas(tx, it.deltas)
    tx.flag("manual_effect", f"dark card {it.card}")


def get_a_jump(tx: Tx, it: GetAJump) -> None:
    p = tx.s.players[tx.seat]
    scene = tx.s.scene
    tx.require(p.location == scene.location, Code.SCENE_NOT_AT_SCENE, f"{tx.seat} is at {p.location}, the scene is {scene.location}", R_JUMP)
    mine = scene.hero == tx.seat
    tx.require(not mine or tx.rules.options["jump_when_holding"] == "allow", Code.SCENE_ALREADY_YOURS,
               f"{tx.seat}'s hero marker is already on the scene", R_JUMP)
    tx.require(mine or p.hero_markers_free > 0, Code.SCENE_NO_HERO_MARKER, f"{tx.seat} has no free hero marker", R_JUMP)
    tx.time(1, R_JUMP)
    tx.emit(TimeSpent(seat=tx.seat, amount=1))
    if not mine:
        tx.emit(SceneMarkerTaken(seat=tx.seat))


def use_location_ability(tx: Tx, it: UseLocationAbility) -> None:
    rules = tx.rules
    if it.location not in rules.map.locations:
        tx.fail(Code.REF_UNKNOWN_LOCATION, f"no location {it.location!r}{did_you_mean(it.location, rules.map.locations)}", R_ABILITY)
    p = tx.s.players[tx.seat]
    tx.require(p.location == it.location, Code.ABILITY_NOT_HERE, f"{tx.seat} is at {p.location}, not {it.location}", R_ABILITY)
    loc = rules.loc(it.location)
    tx.require(loc.major and loc.ability is not None, Code.ABILITY_NOT_MAJOR_LOCATION, f"{it.location} is a minor location: no ability", R_ABILITY)
    assert loc.ability is not None
    if rules.options["ability_limit"] == "one_per_round":
        tx.require(not p.abilities_used, Code.ABILITY_ALREADY_USED_THIS_ROUND,
                   f"{tx.seat} already used an ability this round ({', '.join(p.abilities_used)})", R_ABILITY)
    else:
        tx.require(it.location not in p.abilities_used, Code.ABILITY_ALREADY_USED_THIS_ROUND,
                   f"{tx.seat} already used {it.location}'s ability this round", R_ABILITY)
    ab = loc.ability
    tx.time(ab.time, R_ABILITY)
    for t, n in sorted(ab.favors.items()):
        tx.require(p.favors.get(t, 0) >= n, Code.FAVOR_INSUFFICIENT, f"needs {n} {t} favor(s), {tx.seat} has {p.favors.get(t, 0)}", R_ABILITY)
    if ab.effect in ("gain_favor", "own_good_baggage"):  # a printed effect: no choice is left to the player
        stray = [f"{k}={v}" for k, v in (("suspect", it.suspect), ("target", it.target)) if v is not None]
        if it.favor_type is not None and it.favor_type != ab.favor_type:
            stray.append(f"favor_type={it.favor_type}")
        if it.deltas:
            stray.append("deltas=")
        tx.require(not stray, Code.ABILITY_INVALID_CHOICE, f"{it.location}'s effect is given ({ab.text or ab.effect}); it "
                   f"takes no {', '.join(stray)}", R_ABILITY)
    if ab.effect == "gain_favor":
        ftype = ab.favor_type or it.favor_type or ""
        tx.require(ftype in FAVOR_TYPES, Code.ABILITY_INVALID_CHOICE, f"favor_type= one of {', '.join(FAVOR_TYPES)}", R_ABILITY)
        tx.require(tx.bank_has(f"{ftype}_favor"), Code.BANK_EMPTY, f"the {ftype} favor bank is empty", R_ABILITY)
    if ab.effect == "own_good_baggage":
        tx.require(p.plot is not None, Code.ABILITY_INVALID_CHOICE, f"{tx.seat} has no plot to put baggage on", R_ABILITY)
    check_deltas(tx, it.deltas)
    if ab.time:
        tx.emit(TimeSpent(seat=tx.seat, amount=ab.time))
    for t, n in sorted(ab.favors.items()):
        tx.emit(FavorGained(seat=tx.seat, favor_type=t, amount=-n))
    if ab.effect == "own_good_baggage":
        tx.require(tx.bank_has("baggage"), Code.BANK_EMPTY, "the baggage bank is empty", R_ABILITY)
    tx.emit(LocationAbilityUsed(seat=tx.seat, location=it.location))
    if ab.effect == "gain_favor":
        ftype = ab.favor_type or it.favor_type or ""
        tx.emit(FavorGained(seat=tx.seat, favor_type=ftype, amount=1))
        _undo(tx, FavorDelta(seat=tx.seat, favor_type=ftype, amount=-1))
    elif ab.effect == "own_good_baggage":
        tx.emit(BaggagePlaced(seat=tx.seat, side="good"))
        _undo(tx, BaggageDelta(seat=tx.seat, side="good", amount=-1))
    elif it.deltas:
        apply_deltas(tx, it.deltas)
        tx.flag("manual_effect", f"ability of {it.location}")
    else:
        tx.emit(Pushed(step=Step(step="effect_declaration", seat=tx.seat, source=f"ability:{it.location}")))


def use_event_ability(tx: Tx, it: UseEventAbility) -> None:
    active = [a for a in tx.s.events.active if a.event == it.event]
    tx.require(bool(active), Code.EVENT_NOT_ACTIVE, f"{it.event} has no ability on the map", R_EVENT)
    a = active[0]
    here = tx.s.players[tx.seat].location
    tx.require(here == a.location, Code.EVENT_NOT_HERE, f"{it.event}'s ability is at {a.location}; {tx.seat} is at {here}", R_EVENT)
    tx.time(a.time, R_EVENT)
    e = tx.rules.data.events[it.event]
    alibi = e.grants is not None and e.grants.effect == "alibi"
    if alibi:
        stray = [f"{k}={v}" for k, v in (("favor_type", it.favor_type), ("target", it.target)) if v is not None]
        tx.require(not stray, Code.ABILITY_INVALID_CHOICE, f"{it.event}'s ability places an alibi on a suspect; it takes no "
                   f"{', '.join(stray)}", R_EVENT)
        s = it.suspect
        tx.require(s is not None and s in tx.s.active_suspects, Code.ALIBI_SUSPECT_NOT_IN_GAME,
                   f"suspect= must be a suspect in this game ({', '.join(tx.s.active_suspects)}), not {s!r}", R_EVENT)
        assert s is not None
        tx.require(tx.s.suspects[s].alive or tx.rules.options["alibi_on_dead"] == "allow", Code.ALIBI_SUSPECT_DEAD,
                   f"{s} has been killed", R_EVENT)
        tx.require(tx.bank_has("alibi"), Code.BANK_EMPTY, "the alibi bank is empty", R_EVENT)
    if a.time:
        tx.emit(TimeSpent(seat=tx.seat, amount=a.time))
    tx.emit(EventAbilityUsed(seat=tx.seat, event=it.event, vanishes=a.uses == "first_only"))
    if alibi and it.suspect is not None:
        tx.emit(AlibiPlaced(suspect=it.suspect))
        _undo(tx, AlibiDelta(suspect=it.suspect, amount=-1))
    elif not alibi:
        tx.emit(Pushed(step=Step(step="effect_declaration", seat=tx.seat, source=f"event:{it.event}")))
