"""What a seat may see (rules spec 1.4, "Hidden information"), scenario positions, and redaction.

* ``view(None)`` is the referee's full state with the derived values (``revealed``, ``reckless``,
  ``double``, ``efficiency``, ``resilience``, ``agent_count``, ``hand_count``, ``loyalty_total``,
  ``territory_count``). A seat's view drops the other seat's ``hand`` (``hand_count`` stays), every
  ``unseen`` pool and archive order, and shows ``"?"`` for a face-down graffiti it does not control
  (and for another seat's buffer cards with option ``buffer_public=false``). Any other name (the
  spectator) sees what every seat may see.
* ``apply_position`` replaces dotted paths of the full state after setup, then checks the
  invariants of 1.4.
* ``redact`` gives an intent or event as a seat may see it: the private fields of another seat's
  draws become ``"?"``, and so do archive orders for everyone.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from referee.engine.position import Placed, PositionShape
from referee.engine.protocol import ConfigError
from referee.engine.speech import N_

from . import refs
from .fold import FIELD_SLOTS
from .model import CardMoved, CounterChanged, DeployGraffiti, Event, Intent, PlaySymbols, State
from .txn import Ctx, agent_count, efficiency, is_double, reckless, resilience, revealed
from .codes import Code

HIDDEN = "?"
DERIVED = ("revealed", "reckless", "double", "efficiency", "resilience", "agent_count", "hand_count",
           "loyalty_total", "territory_count")
_BOOKKEEPING = ("inf", "inf_taken", "impacts")

# The model declares fields alphabetically (for a fast canonical encoding); people read them in this
# order. Fields not named here (derived ones) follow in the order they were added.
_CARD = ("oid", "card", "owner", "controller")
_READING = {
    "state": ("phase", "lot_winner", "first_player", "turn", "pending", "neutral_zone", "manual_effects",
              "outcome", "field", "players"),
    "turn": ("number", "active", "step", "main_left", "extra_left", "draw_only_slot", "reactions_used", "combos",
             "agent_actions"),
    "pending": ("kind", "decider", "actor", "resume", "to_buffer", "lilac_as", "spent", "cells", "seats", "effect",
                "target", "culled"),
    "outcome": ("winners", "reason"),
    "cell": ("territory", "graffiti", "agent", "attached"),
    "territory": (*_CARD, "loyalty", "active_symbols"),
    "graffiti": (*_CARD, "face", "active_symbols"),
    "agent": (*_CARD, "turned", "entered_turn", "active_symbols", "shadow"),
    "player": ("reputation", "influence", "trust", "hand", "utility", "buffer", "main_archive", "extra_archive",
               "unseen", "actions_lost_next_turn", "opening_drawn", "mulligan_done"),
    "archive": ("count", "cards"),
    "lost": ("main", "extra"),
    "planned": ("oid", "card", "owner", "active_symbols"),
}


def _read(d: dict[str, Any] | None, kind: str) -> Any:
    if d is None:
        return None
    order = _READING[kind]
    return {**{k: d[k] for k in order if k in d}, **{k: v for k, v in d.items() if k not in order}}


def _reading_order(data: dict[str, Any]) -> dict[str, Any]:
    data["turn"] = _read(data["turn"], "turn")
    data["pending"] = _read(data["pending"], "pending")
    data["outcome"] = _read(data["outcome"], "outcome")
    for c, cell in data["field"].items():
        for slot in ("territory", "graffiti", "agent"):
            cell[slot] = _read(cell[slot], slot)
        data["field"][c] = _read(cell, "cell")
    for s, p in data["players"].items():
        for a in ("main_archive", "extra_archive"):
            p[a] = _read(p[a], "archive")
        p["actions_lost_next_turn"] = _read(p["actions_lost_next_turn"], "lost")
        p["buffer"] = {slot: _read(b, "planned") for slot, b in p["buffer"].items()}
        data["players"][s] = _read(p, "player")
    return _read(data, "state")  # type: ignore[no-any-return]


def view(ctx: Ctx, state: State, seat: str | None) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(state)
    del data["next_oid"], data["field_used"], data["turn"]["opponent_acted"]
    territories = 0
    for c in ctx.field.cells:
        cell = data["field"][c]
        for slot in FIELD_SLOTS:
            obj = cell[slot]
            if obj is None:
                continue
            for k in _BOOKKEEPING:
                obj.pop(k, None)
        if cell["territory"] is not None:
            territories += 1
        a = cell["agent"]
        if a is not None:
            a.pop("shadow_owner", None)
            a["revealed"] = revealed(state, c)
            a["reckless"] = reckless(ctx, state, c)
            a["double"] = is_double(ctx, state, c)
            a["efficiency"] = efficiency(ctx, state, c)
            a["resilience"] = resilience(ctx, state, c)
        g = cell["graffiti"]
        if g is not None and seat is not None and g["face"] == "down" and g["controller"] != seat:
            g["card"] = HIDDEN
    data["territory_count"] = territories
    # the neutral zone as the spec's lists: card ids and symbols, sorted
    data["neutral_zone"] = {"cards": sorted(c.card for c in state.neutral_zone.cards),
                            "symbols": sorted(state.neutral_zone.symbols)}
    for s, p in data["players"].items():
        p["hand_count"] = len(p["hand"])
        p["agent_count"] = agent_count(ctx, state, s)
        p["loyalty_total"] = sum(
            t.loyalty
            for t in (state.field[c].territory for c in ctx.field.cells)
            if t is not None and t.controller == s
        )
        if not ctx.exact or seat is not None:
            p["main_archive"].pop("cards", None)
            p["extra_archive"].pop("cards", None)
        if seat is not None:
            del p["unseen"]
            if s != seat:
                del p["hand"]
                if not ctx.opts["buffer_public"]:
                    for slot, b in p["buffer"].items():
                        if b is not None:
                            p["buffer"][slot] = {"oid": b["oid"], "card": HIDDEN, "owner": b["owner"]}
    return _reading_order(data)


def hidden_ids(ctx: Ctx, state: State, seat: str | None) -> frozenset[str]:
    """Card ids ``seat`` cannot see anywhere right now (in a hidden zone and in no zone it sees)."""
    if seat is None:
        return frozenset()
    hidden: set[str] = set()
    visible: set[str] = set()
    for s, p in state.players.items():
        hidden.update(p.unseen)
        (visible if s == seat else hidden).update(p.hand)
        visible.update(p.utility)
        for b in p.buffer.values():
            if b is not None:
                (visible if ctx.opts["buffer_public"] or s == seat else hidden).add(b.card)
    for c in ctx.field.cells:
        cell = state.field[c]
        for obj in (cell.territory, cell.agent):
            if obj is not None:
                visible.add(obj.card)
        if cell.agent is not None and cell.agent.shadow:
            visible.add(cell.agent.shadow)
        g = cell.graffiti
        if g is not None:
            (hidden if g.face == "down" and g.controller != seat else visible).add(g.card)
        visible.update(a.card for a in cell.attached)
    visible.update(nc.card for nc in state.neutral_zone.cards)
    return frozenset(hidden - visible)


# -- redaction of intents and events ---------------------------------------------------------------


def _blank(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(HIDDEN for _ in value)
    if value is None:
        return None
    return HIDDEN


def _zone_kind(ctx: Ctx, zone: str) -> str:
    if "/" in zone or zone == "neutral":
        return "field"
    z = zone.rpartition(".")[2]
    return "archive" if z in ("main_archive", "extra_archive") else ("buffer" if z in ctx.slots else z)


def _secret_move(ctx: Ctx, src: str, dst: str) -> str | None:
    """For a card moving between zones: None if public, else the seat who may see it ("" = nobody)."""
    kinds = (_zone_kind(ctx, src), _zone_kind(ctx, dst))
    if set(kinds) <= {"hand", "archive"}:
        if "hand" in kinds:
            hand = src if kinds[0] == "hand" else dst
            return hand.rpartition(".")[0]
        return ""
    return None


def redact(ctx: Ctx, item: Intent | Event, actor: str | None, seat: str | None) -> Intent | Event:
    if seat is None or item is None:
        return item
    cls = type(item)
    changes: dict[str, Any] = {}
    for name in getattr(cls, "__secret__", ()):
        changes[name] = _blank(getattr(item, name))
    if actor != seat:
        for name in getattr(cls, "__private__", ()):
            changes[name] = _blank(getattr(item, name))
        if isinstance(item, DeployGraffiti) and item.card in ctx.cards.cards and ctx.card(item.card).type == "graffiti_agent":
            changes["card"] = HIDDEN
        if isinstance(item, PlaySymbols) and item.cards and _is_private_draw(ctx, item):
            changes["cards"] = _blank(item.cards)
    if isinstance(item, CardMoved):
        who = _secret_move(ctx, item.src, item.dst)
        if item.dst.endswith("/graffiti") and item.face == "down":
            who = item.controller or item.owner
        if who is not None and who != seat:
            changes["card"] = HIDDEN
    if isinstance(item, CounterChanged) and actor != seat and item.cause.endswith("'s price"):
        # the price of a graffiti agent laid face down names it: hidden like the card (whatever the card)
        cid = item.cause[: -len("'s price")]
        if cid in ctx.cards.cards and ctx.card(cid).type == "graffiti_agent":
            changes["cause"] = f"{HIDDEN}'s price"
    changed = getattr(item, "changes", None)
    if isinstance(changed, tuple) and actor != seat and changed:
        changes["changes"] = tuple(_redact_change(ctx, c, seat) for c in changed)
    return replace(item, **changes) if changes else item


def _is_private_draw(ctx: Ctx, item: PlaySymbols) -> bool:
    symbols = [u.rsplit(":", 1)[-1] for u in item.use]
    if len(symbols) != 2:
        return True
    combo = ctx.table.get((min(symbols), max(symbols)))
    return combo is None or combo.effect != "info_leak"


def _redact_change(ctx: Ctx, text: str, seat: str) -> str:
    if not text.startswith("move:"):
        return text
    try:
        item = refs.change(ctx, text)
    except refs.RefError:
        return text
    who = _secret_move(ctx, item.src, item.dst)
    if who is None or who == seat:
        return text
    return f"move:{HIDDEN}:{text.split(':', 2)[2]}"


# -- positions ------------------------------------------------------------------------------------------


def _fail(template: str, /, **values: Any) -> ConfigError:
    """A position refused: ``template`` (marked ``N_``, starting ``position:``) said with ``values``."""
    return ConfigError.said(Code.POSITION_INVALID, template, **values)


#: what a position path may name (spec 1.5): every field of the state but the derived ones
POSITION_SHAPE = PositionShape(derived=tuple(f"**.{name}" for name in DERIVED))
_ARCHIVE_ZONES = ("unseen", "main_archive", "extra_archive")


def position_value(path: str, value: Any, data: dict[str, Any]) -> Any:
    """A neutral-zone card may be given by its id alone."""
    if path == "neutral_zone.cards" and isinstance(value, list):
        return [_neutral_card(data, c) for c in value]
    return value


def complete_position(ctx: Ctx, state: State, placed: Placed) -> State:
    """Object ids given, archives dealt from a listed ``unseen``, and the invariants of spec 1.5."""
    touched = {seat for seat in ctx.players if any(f"players.{seat}.{zone}" in placed for zone in _ARCHIVE_ZONES)}
    return _normalise(ctx, state, touched)


def _neutral_card(data: dict[str, Any], item: Any) -> Any:
    """A neutral-zone card given by id: a hand card of the pending decision's actor."""
    if not isinstance(item, str):
        return item
    pending = data.get("pending") or {}
    owner = pending.get("actor") or data["turn"].get("active") or ""
    return {"oid": 0, "card": item, "owner": owner, "origin": "hand"}


def _check_card(ctx: Ctx, cid: str, where: str) -> None:
    if cid not in ctx.cards.cards:
        raise _fail(N_("position: {where}: unknown card {card!r}"), where=where, card=cid)


def _normalise(ctx: Ctx, s: State, touched: set[str]) -> State:
    seats = set(ctx.players)
    nxt = s.next_oid
    field = dict(s.field)
    for c in ctx.field.cells:
        if c not in field:
            raise _fail(N_("position: field.{cell} is missing"), cell=c)
    if set(field) != set(ctx.field.cells):
        raise _fail(N_("position: field cells must be {cells}"), cells=", ".join(ctx.field.cells))
    for c in ctx.field.cells:
        cell = field[c]
        objs = {}
        for slot in FIELD_SLOTS:
            obj = getattr(cell, slot)
            if obj is None:
                continue
            where = f"field.{c}.{slot}"
            _check_card(ctx, obj.card, where)
            if obj.owner not in seats or obj.controller not in seats:
                raise _fail(N_("position: {where}: owner and controller must be seats ({seats})"), where=where,
                            seats=", ".join(ctx.players))
            card = ctx.card(obj.card)
            fits = {"territory": ("territory",), "agent": ("agent", "graffiti_agent"), "graffiti": ("graffiti", "graffiti_agent")}
            if card.type not in fits[slot]:
                raise _fail(N_("position: {where}: {card} is a {type}"), where=where, card=obj.card, type=card.type)
            if obj.oid == 0:
                obj = replace(obj, oid=nxt)
                nxt += 1
                face_down = slot == "graffiti" and getattr(obj, "face", "up") == "down"
                if card.influence and not face_down and (ctx.opts["object_influence"] == "all_field_cards" or card.type == "territory"):
                    obj = replace(obj, inf=card.influence, inf_taken=max(0, -card.influence))
            if slot == "agent" and obj.shadow is not None:
                _check_card(ctx, obj.shadow, f"{where}.shadow")
                if obj.shadow_owner is None:
                    obj = replace(obj, shadow_owner=obj.controller)
            objs[slot] = obj
        if "graffiti" in objs and "territory" not in objs:
            raise _fail(N_("position: field.{cell}: a graffiti needs a territory on its cell"), cell=c)
        attached = []
        for a in cell.attached:
            _check_card(ctx, a.card, f"field.{c}.attached")
            if a.oid == 0:
                a = replace(a, oid=nxt)
                nxt += 1
            attached.append(a)
        field[c] = replace(cell, **objs, attached=tuple(attached))
    players = {}
    if set(s.players) != seats:
        raise _fail(N_("position: players must be {seats}"), seats=", ".join(ctx.players))
    for seat in ctx.players:
        p = s.players[seat]
        for zone in ("hand", "utility", "unseen"):
            for cid in getattr(p, zone):
                _check_card(ctx, cid, f"players.{seat}.{zone}")
        for counter in ("reputation", "influence", "trust"):
            if getattr(p, counter) < 0:
                raise _fail(N_("position: players.{seat}.{counter} must be 0 or more"), seat=seat, counter=counter)
        buf = {}
        for slot, b in p.buffer.items():
            if slot not in ctx.slots:
                raise _fail(N_("position: players.{seat}.buffer.{slot}: buffer slots are {slots}"), seat=seat, slot=slot,
                            slots=", ".join(ctx.slots))
            if b is not None:
                _check_card(ctx, b.card, f"players.{seat}.buffer.{slot}")
                if b.oid == 0:
                    b = replace(b, oid=nxt)
                    nxt += 1
            buf[slot] = b
        p = replace(p, hand=tuple(sorted(p.hand)), utility=tuple(sorted(p.utility)), unseen=tuple(sorted(p.unseen)), buffer=buf)
        if ctx.exact:
            if seat in touched and len(p.main_archive.cards) != p.main_archive.count:
                pool = list(p.unseen)
                main = tuple(pool[: p.main_archive.count])
                p = replace(p, main_archive=replace(p.main_archive, cards=main),
                            extra_archive=replace(p.extra_archive, cards=tuple(pool[p.main_archive.count:])))
            if len(p.main_archive.cards) != p.main_archive.count or len(p.extra_archive.cards) != p.extra_archive.count:
                raise _fail(N_("position: players.{seat}: archive cards and counts disagree"), seat=seat)
            p = replace(p, unseen=tuple(sorted((*p.main_archive.cards, *p.extra_archive.cards))))
        if len(p.unseen) != p.main_archive.count + p.extra_archive.count:
            raise _fail(N_("position: players.{seat}.unseen has {n} cards but the archives hold {main} + {extra}"),
                        seat=seat, n=len(p.unseen), main=p.main_archive.count, extra=p.extra_archive.count)
        players[seat] = p
    neutral = []
    for nc in s.neutral_zone.cards:
        _check_card(ctx, nc.card, "neutral_zone.cards")
        if nc.oid == 0:
            nc = replace(nc, oid=nxt)
            nxt += 1
        neutral.append(nc)
    s = replace(s, neutral_zone=replace(s.neutral_zone, cards=tuple(neutral)))
    new = replace(s, field=field, players=players, next_oid=nxt,
                  field_used=s.field_used or any(field[c].territory is not None for c in ctx.field.cells))
    limit = ctx.opts["agent_limit"] + (1 if new.pending is not None and new.pending.kind == "agent_limit" else 0)
    for seat in ctx.players:
        if agent_count(ctx, new, seat) > limit:
            raise _fail(N_("position: {seat} controls {n} face-up agents; at most {limit}"), seat=seat,
                        n=agent_count(ctx, new, seat), limit=limit)
    if (new.neutral_zone.cards or new.neutral_zone.symbols) and new.pending is None:
        raise _fail(N_("position: the neutral zone must be empty unless a decision is pending"))
    if new.phase == "play" and new.turn.active not in seats:
        raise _fail(N_("position: turn.active must be a seat in phase play"))
    if new.pending is not None and new.pending.decider not in seats:
        raise _fail(N_("position: pending.decider must be a seat"))
    for name in ("lot_winner", "first_player"):
        value = getattr(new, name)
        if value is not None and value not in seats:
            raise _fail(N_("position: {path} must be a seat"), path=name)
    return new
