"""References as the rules spec writes them (4.1) and declared changes (4.11), parsed and checked for
shape. A shape error is input (refused before adjudication, not logged); whether the thing referred
to is there is the referee's business (a logged verdict).

* cell ``B2``; field object ``B2`` (its territory), ``B2/agent``, ``B2/graffiti``;
* buffer object ``bob.buf2`` (or ``buf2`` where only the actor's own buffer is meant);
* archive ``bob.main`` / ``bob.extra``;
* symbol source ``hand:TR5:s1``, ``buf1:s2``, ``C4/agent:s3``;
* lilac choice ``PL3:s4``;
* declared change items: ``alice.reputation-1``, ``B3.loyalty+2``, ``move:TR6:bob.main_archive:bob.utility``,
  ``turn:B2``, ``untap:B2``, ``symbol_add:B2/agent:s3``, ``symbol_remove:alice.buf1:s2``, ``destroy:C3/agent``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from referee.engine.suggest import did_you_mean

from .txn import Ctx

COUNTERS = ("reputation", "influence", "trust")
_COUNTER = re.compile(r"^([A-Za-z0-9_-]+)\.(reputation|influence|trust)([+-])(\d+)$")
_LOYALTY = re.compile(r"^([A-Za-z][0-9])\.loyalty([+-])(\d+)$")


class RefError(ValueError):
    """A reference that is not well-formed (input, refused before adjudication)."""


def field_object(ctx: Ctx, text: str) -> str:
    """``B2`` / ``B2/territory`` / ``B2/agent`` / ``B2/graffiti`` -> ``B2/<slot>``."""
    cell, _, slot = text.partition("/")
    if not ctx.field.is_cell(cell):
        raise RefError(f"{text!r} is not a field object: expected a cell ({', '.join(ctx.field.cells[:3])}..."
                       f"{ctx.field.cells[-1]}) optionally followed by /agent or /graffiti")
    slot = slot or "territory"
    if slot not in ("territory", "agent", "graffiti"):
        raise RefError(f"{text!r}: expected {cell}, {cell}/agent or {cell}/graffiti")
    return f"{cell}/{slot}"


def buffer_object(ctx: Ctx, text: str, actor: str | None = None) -> str:
    """``alice.buf1`` (or ``buf1`` for the actor's own) -> ``alice.buf1``."""
    seat, dot, slot = text.rpartition(".")
    if not dot:
        if actor is None:
            raise RefError(f"{text!r}: name the buffer's owner, e.g. {ctx.players[1]}.buf1")
        seat = actor
    if seat not in ctx.players:
        raise RefError(f"{text!r}: {seat!r} is not a seat{did_you_mean(seat, ctx.players)} ({', '.join(ctx.players)})")
    if slot not in ctx.slots:
        raise RefError(f"{text!r}: {slot!r} is not a buffer slot ({', '.join(ctx.slots)})")
    return f"{seat}.{slot}"


def any_object(ctx: Ctx, text: str, actor: str | None = None) -> str:
    if "." in text or text.startswith("buf"):
        return buffer_object(ctx, text, actor)
    return field_object(ctx, text)


def cell(ctx: Ctx, text: str) -> str:
    if not ctx.field.is_cell(text):
        raise RefError(f"{text!r} is not a cell of the field ({ctx.field.cells[0]}..{ctx.field.cells[-1]})")
    return text


def symbol(ctx: Ctx, text: str) -> str:
    if text not in ctx.cards.symbols:
        raise RefError(f"{text!r} is not a symbol{did_you_mean(text, ctx.cards.symbols)} ({', '.join(ctx.cards.symbols)})")
    return text


def _names(ctx: Ctx) -> dict[str, str]:
    """Each card's name -> its first id: a card typed by its name is suggested by its id."""
    out: dict[str, str] = {}
    for cid, c in ctx.cards.cards.items():
        out.setdefault(c.name, cid)  # copies share a name: the first id
    return out


def card(ctx: Ctx, text: str) -> str:
    if text not in ctx.cards.cards:
        raise RefError(f"unknown card {text!r}{did_you_mean(text, ctx.cards.cards, names=_names(ctx))} (card set {ctx.cards.id})")
    return text


def archive(ctx: Ctx, text: str) -> tuple[str, str]:
    """``bob.main`` -> (bob, main_archive)."""
    seat, dot, which = text.rpartition(".")
    if not dot or seat not in ctx.players or which not in ("main", "extra"):
        raise RefError(f"{text!r} is not an archive: expected <seat>.main or <seat>.extra (e.g. {ctx.players[1]}.main)")
    return seat, f"{which}_archive"


class Source(NamedTuple):
    kind: str  # hand, buffer, field
    ref: str  # card id (hand), "seat.bufN" (buffer), "B2/agent" (field)
    symbol: str
    text: str


def source(ctx: Ctx, text: str, actor: str) -> Source:
    parts = text.split(":")
    if parts[0] == "hand":
        if len(parts) != 3:
            raise RefError(f"{text!r}: a hand source is hand:CARD:SYMBOL (e.g. hand:TR5:s1)")
        return Source("hand", card(ctx, parts[1]), symbol(ctx, parts[2]), text)
    if len(parts) != 2:
        raise RefError(f"{text!r}: expected hand:CARD:SYMBOL, buf1:SYMBOL or CELL[/agent|/graffiti]:SYMBOL")
    where, sym = parts
    if where.startswith("buf") or "." in where:
        return Source("buffer", buffer_object(ctx, where, actor), symbol(ctx, sym), text)
    return Source("field", field_object(ctx, where), symbol(ctx, sym), text)


def lilac_choice(ctx: Ctx, text: str) -> tuple[str, str]:
    cid, sep, sym = text.partition(":")
    if not sep:
        raise RefError(f"lilac_as {text!r}: expected CARD:SYMBOL (e.g. PL3:s4)")
    card(ctx, cid)
    symbol(ctx, sym)
    return cid, sym


# -- declared changes (4.11) ------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    kind: str  # counter, loyalty, move, turn, untap, symbol_add, symbol_remove, destroy
    text: str
    seat: str = ""
    counter: str = ""
    delta: int = 0
    cell: str = ""
    card: str = ""
    src: str = ""
    dst: str = ""
    ref: str = ""
    symbol: str = ""


def zone(ctx: Ctx, text: str) -> str:
    """A ``move:`` zone: ``<seat>.hand|utility|main_archive|extra_archive|bufN``, ``<cell>``,
    ``<cell>/agent``, ``<cell>/graffiti``, ``<cell>/attached`` -> normalised (cells as ``C/slot``)."""
    if "." in text:
        seat, _, z = text.rpartition(".")
        if seat not in ctx.players:
            raise RefError(f"zone {text!r}: {seat!r} is not a seat{did_you_mean(seat, ctx.players)} ({', '.join(ctx.players)})")
        if z in ("hand", "utility", "main_archive", "extra_archive") or z in ctx.slots:
            return f"{seat}.{z}"
        raise RefError(f"zone {text!r}: expected {seat}.hand, .utility, .main_archive, .extra_archive or a buffer slot")
    c, _, slot = text.partition("/")
    cell(ctx, c)
    slot = slot or "territory"
    if slot not in ("territory", "agent", "graffiti", "attached"):
        raise RefError(f"zone {text!r}: expected {c}, {c}/agent, {c}/graffiti or {c}/attached")
    return f"{c}/{slot}"


def change(ctx: Ctx, text: str) -> Change:
    m = _COUNTER.match(text)
    if m:
        seat, counter, sign, n = m.groups()
        if seat not in ctx.players:
            raise RefError(f"change {text!r}: {seat!r} is not a seat{did_you_mean(seat, ctx.players)} ({', '.join(ctx.players)})")
        return Change("counter", text, seat=seat, counter=counter, delta=int(n) if sign == "+" else -int(n))
    m = _LOYALTY.match(text)
    if m:
        c, sign, n = m.groups()
        cell(ctx, c)
        return Change("loyalty", text, cell=c, delta=int(n) if sign == "+" else -int(n))
    head, _, rest = text.partition(":")
    if head == "move":
        parts = rest.split(":")
        if len(parts) != 3:
            raise RefError(f"change {text!r}: expected move:CARD:FROM:TO")
        return Change("move", text, card=card(ctx, parts[0]), src=zone(ctx, parts[1]), dst=zone(ctx, parts[2]))
    if head in ("turn", "untap"):
        return Change(head, text, cell=cell(ctx, rest))
    if head in ("symbol_add", "symbol_remove"):
        obj, sep, sym = rest.rpartition(":")
        if not sep:
            raise RefError(f"change {text!r}: expected {head}:OBJECT:SYMBOL")
        return Change(head, text, ref=any_object(ctx, obj), symbol=symbol(ctx, sym))
    if head == "destroy":
        return Change("destroy", text, ref=any_object(ctx, rest))
    raise RefError(
        f"change {text!r} is not one of: SEAT.reputation+N / -N (also influence, trust), CELL.loyalty+N / -N, "
        "move:CARD:FROM:TO, turn:CELL, untap:CELL, symbol_add:OBJECT:SYMBOL, symbol_remove:OBJECT:SYMBOL, destroy:OBJECT"
    )
