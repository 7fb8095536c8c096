"""Input checks made before adjudication (rules spec 4.1, "Input errors"): unknown card ids, seats,
cells, symbols, buffer slots, and malformed sources, lilac choices and declared changes. Such an
intent is refused without being logged; everything well-formed is adjudicated and logged."""

from __future__ import annotations

from typing import Any

from referee.engine.suggest import did_you_mean

from . import refs
from .model import (
    ActivateAbility,
    AgentAttackAgent,
    AgentAttackPlayer,
    AgentDraw,
    Choose,
    ChooseOrder,
    DeclareEffect,
    DeployAgent,
    DeployGraffiti,
    DeployTerritory,
    DiscardForEffect,
    PlayDigits,
    PlayNeutral,
    PlayPlot,
    PlaySymbols,
    RecordLot,
    ReformArchives,
    ShuffleArchive,
)
from .txn import Ctx

CARD_FIELDS = ("card", "cards", "hand", "drawn", "return_", "lilac", "to_buffer")


def check_input(ctx: Ctx, intent: Any) -> str | None:
    verb = type(intent).__struct_config__.tag
    try:
        _check(ctx, intent)
    except refs.RefError as exc:
        return f"{verb}: {exc}"
    return None


def _seat(ctx: Ctx, name: str, value: str | None) -> None:
    if value is not None and value not in ctx.players:
        raise refs.RefError(f"{name}={value}: not a seat of this match{did_you_mean(value, ctx.players)} ({', '.join(ctx.players)})")


def _slot(ctx: Ctx, name: str, value: str) -> None:
    if value != "hand" and value not in ctx.slots:
        raise refs.RefError(f"{name}={value}: expected hand or a buffer slot ({', '.join(ctx.slots)})")


def _check(ctx: Ctx, i: Any) -> None:
    for name in CARD_FIELDS:
        value = getattr(i, name, None)
        if value is None:
            continue
        for cid in (value,) if isinstance(value, str) else value:
            try:
                refs.card(ctx, cid)
            except refs.RefError as exc:
                shown = "return" if name == "return_" else name
                raise refs.RefError(f"{shown}: {exc}") from None
    if isinstance(i, (ShuffleArchive, ReformArchives)):
        _seat(ctx, "owner", i.owner)
    elif isinstance(i, RecordLot):
        _seat(ctx, "winner", i.winner)
    elif isinstance(i, ChooseOrder):
        _seat(ctx, "first", i.first)
    elif isinstance(i, PlayDigits):
        for slot in i.buffer:
            if slot not in ctx.slots:
                raise refs.RefError(f"buffer={slot}: expected buffer slots ({', '.join(ctx.slots)})")
        for name in ("move_from", "move_to"):
            value = getattr(i, name)
            if value is not None:
                refs.field_object(ctx, value)
        if i.symbol is not None:
            refs.symbol(ctx, i.symbol)
        for x in i.lilac_as:
            refs.lilac_choice(ctx, x)
    elif isinstance(i, PlaySymbols):
        for u in i.use:
            refs.source(ctx, u, ctx.players[0])
        if i.archive is not None:
            refs.archive(ctx, i.archive)
        if i.target is not None:
            if ctx.field.is_cell(i.target.split("/")[0]):
                refs.field_object(ctx, i.target)
            else:
                refs.buffer_object(ctx, i.target, ctx.players[0])
        for name in ("opp", "own"):
            if getattr(i, name) is not None:
                refs.cell(ctx, getattr(i, name))
        for x in i.lilac_as:
            refs.lilac_choice(ctx, x)
    elif isinstance(i, PlayNeutral):
        refs.source(ctx, i.with_, ctx.players[0])
        for x in i.lilac_as:
            refs.lilac_choice(ctx, x)
    elif isinstance(i, (DeployAgent, DeployTerritory, DeployGraffiti, PlayPlot)):
        _slot(ctx, "from", i.from_)
        for name in ("cell", "replace", "move_agent", "attach"):
            value = getattr(i, name, None)
            if value is not None:
                refs.cell(ctx, value)
        for x in getattr(i, "lilac_as", ()):
            refs.lilac_choice(ctx, x)
        for c in getattr(i, "changes", ()):
            refs.change(ctx, c)
    elif isinstance(i, (AgentDraw, AgentAttackPlayer)):
        refs.cell(ctx, i.agent)
    elif isinstance(i, AgentAttackAgent):
        refs.cell(ctx, i.agent)
        refs.cell(ctx, i.target)
    elif isinstance(i, ActivateAbility):
        refs.any_object(ctx, i.object, ctx.players[0])
        for c in i.changes:
            refs.change(ctx, c)
    elif isinstance(i, DiscardForEffect):
        if i.from_ != "hand":
            if i.from_.startswith("buf"):
                refs.buffer_object(ctx, i.from_, ctx.players[0])
            else:
                refs.field_object(ctx, i.from_)
        for c in i.changes:
            refs.change(ctx, c)
    elif isinstance(i, DeclareEffect):
        if i.source not in ctx.cards.cards:
            try:
                refs.any_object(ctx, i.source, ctx.players[0])
            except refs.RefError:
                raise refs.RefError(
                    f"source={i.source}: expected a card id or an object (CELL, CELL/agent, CELL/graffiti, SEAT.bufN)"
                ) from None
        for c in i.changes:
            refs.change(ctx, c)
    elif isinstance(i, Choose):
        if i.target is not None:
            refs.cell(ctx, i.target)
