"""How Copycat's table is drawn (the ``boards`` hook), from one role's view (issue 25 item 2): the street
as a row of its eleven slots in slot order (1, 2, … 11, numerically) with their surcharges, each card
with its colour and price; the headquarters' offices grouped by colour (a row per colour, in the order
of the colours' phases, each row in the board's order; :func:`headquarters` gives the one row in board
order too), each office with its workers in their seats' colours, the uses made of them and its VP
tokens; the supply and office deck as counts; and each seat's tableau (its score, workers, coins and
cards in words, its step flags behind details). A card and an office are given by
their ids: the front ends show their printed names (``name_of``)."""

from __future__ import annotations

from typing import Any

from referee.engine.present import sections as default_sections
from referee.engine.present import seat_tableau
from referee.engine.speech import gettext, ngettext, per_reader, pgettext, worded_or
from schemas.board import Area, Board, Piece

from .data import COLORS
from .effects import surcharge
from .txn import BoundRules


@per_reader
def labels() -> dict[str, str]:
    """A player's fields in the reader's words (the others read as their paths do)."""
    return {"score": pgettext("a table's label", "VP"), "round_vp": pgettext("a table's label", "VP this round"),
            "vp_pending": pgettext("a table's label", "VP pending"), "vp_tokens": pgettext("a table's label", "VP tokens"),
            "workers_available": pgettext("a table's label", "workers"),
            "extra_workers": pgettext("a table's label", "extra workers"),
            "coins_available": pgettext("a table's label", "coins"), "buys_left": pgettext("a table's label", "buys left"),
            "play_area": pgettext("a table's label", "in play"), "temp_discard": pgettext("a table's label", "turned aside"),
            "order_card": pgettext("a table's label", "order card"), "deck": pgettext("a table's label", "deck"),
            "discard": pgettext("a table's label", "discard"), "hand": pgettext("a table's label", "hand"),
            "doctorates": pgettext("a table's label", "doctorates"), "kept": pgettext("a table's label", "kept")}


@per_reader
def words() -> dict[str, str]:
    """The turn's and the match's fields (and their paths' starts) in the reader's words, as :func:`label`
    reads them in English."""
    return {"box": pgettext("a table's label", "box"), "bus": pgettext("a table's label", "bus"),
            "current": pgettext("a table's label", "current"),
            "doctorate_bought": pgettext("a table's label", "doctorate bought"),
            "end_triggers": pgettext("a table's label", "end triggers"), "outcome": pgettext("a table's label", "outcome"),
            "outcome.reason": pgettext("a table's label", "outcome reason"),
            "outcome.scores": pgettext("a table's label", "outcome scores"),
            "outcome.triggers": pgettext("a table's label", "outcome triggers"),
            "outcome.winners": pgettext("a table's label", "outcome winners"),
            "phase": pgettext("a table's label", "phase"), "round": pgettext("a table's label", "round"),
            "turn.acted": pgettext("a table's label", "turn acted"), "turn.buy_now": pgettext("a table's label", "turn buy now"),
            "turn.elbow_permits": pgettext("a table's label", "turn elbow permits"),
            "turn.free_placements": pgettext("a table's label", "turn free placements"),
            "turn.placed": pgettext("a table's label", "turn placed"),
            "turn.placements_left": pgettext("a table's label", "turn placements left"),
            "vp_token_supply": pgettext("a table's label", "vp token supply"),
            "worker_supply": pgettext("a table's label", "worker supply")}


#: a player's step flags and counters behind "details" (``show --raw``, the viewer's details)
DETAILS = ("card_uses", "coins", "coin_doublings", "token_doublings", "done", "drawn_this_round", "laid_down",
           "order_chosen", "passed", "kept_permits", "kept_placements")


def boards(rules: BoundRules, view: dict[str, Any]) -> tuple[Board, ...]:
    out: list[Board] = []
    street = view.get("street")
    if isinstance(street, dict):
        out.append(_street(rules, street))
    out += headquarters(rules, view)
    supply, deck = view.get("supply") or {}, view.get("office_deck") or {}
    bands = [Area(id=gettext("stage {stage}", stage=b["stage"]),
                  lines=(ngettext("{n} cards", "{n} cards", len(b["cards"])),)) for b in supply.get("bands", [])]
    bands += [Area(id=gettext("department {department}", department=b["department"]),
                   lines=(ngettext("{n} office cards", "{n} office cards", len(b["cards"])),))
              for b in deck.get("bands", [])]
    out.append(Board(title=gettext("Supply and office deck"), layout="row", areas=tuple(bands), covers=("supply", "office_deck")))
    tableau = seat_tableau(view, labels=labels(), details=DETAILS)
    if tableau is not None:
        out.append(tableau)
    return tuple(out)


def _street(rules: BoundRules, street: dict[str, Any]) -> Board:
    areas = []
    # in slot order (1, 2, … 11: the view's keys are text, and sort as text)
    for slot, card in sorted(street.items(), key=lambda item: _slot_order(str(item[0]))):
        extra = surcharge(int(slot)) if str(slot).isdigit() else 0
        found = rules.cards.get(card) if isinstance(card, str) else None
        lines: tuple[str, ...] = ()
        pieces: tuple[Piece, ...] = ()
        if found is not None:
            price = (gettext("cost {cost} + {extra}", cost=found.cost, extra=extra) if extra
                     else gettext("cost {cost}", cost=found.cost))
            lines = (str(card), f"{_card_colour(found.color)}, {price}")
            pieces = (Piece(kind=_colour(found.color), card=str(card)), Piece(name=price))
        areas.append(Area(id=gettext("slot {slot}", slot=slot), label=f"+{extra}" if extra else "", lines=lines, pieces=pieces))
    return Board(title=gettext("Street"), layout="row", areas=tuple(areas), covers=("street",))


def headquarters(rules: BoundRules, view: dict[str, Any], *, by_colour: bool = True) -> tuple[Board, ...]:
    """The offices in play, each with its workers, their uses and its VP tokens: a row per colour (the
    colours in the order of their phases, §1.3; the offices of a colour in the board's order), or with
    ``by_colour`` False one row of every office in the board's order. Nothing when the view has no
    offices."""
    offices = view.get("offices")
    if not isinstance(offices, dict):
        return ()
    order = {oid: k for k, oid in enumerate(rules.office_order)}
    placed = sorted(offices, key=lambda oid: (order.get(oid, len(order)), oid))
    areas = {oid: _office(rules, oid, offices[oid], order.get(oid)) for oid in placed}
    covers = ("offices",)
    if not by_colour:
        return (Board(title=gettext("Headquarters"), layout="row", areas=tuple(areas.values()), covers=covers),)
    colour_of = {oid: (rules.offices[oid].color if oid in rules.offices else "") for oid in placed}
    known = [c for c in COLORS if c in colour_of.values()]
    other = sorted({c for c in colour_of.values() if c not in COLORS})
    return tuple(Board(title=gettext("Offices: {colour}", colour=_colour_word(c)), layout="row", covers=covers,
                       areas=tuple(areas[oid] for oid in placed if colour_of[oid] == c)) for c in [*known, *other])


def _office(rules: BoundRules, oid: str, o: Any, position: int | None) -> Area:
    office = rules.offices.get(oid)
    record: dict[str, Any] = o if isinstance(o, dict) else {}
    uses: dict[str, Any] = record.get("uses") or {}
    lines: list[str] = []
    pieces: list[Piece] = []
    for seat in record.get("workers") or ():
        used = int(uses.get(seat, 0) or 0)
        said = _uses().get(used) or ngettext("used {n} times", "used {n} times", used)
        lines.append(gettext("worker {seat} ({uses})", seat=seat, uses=said))
        pieces.append(Piece(kind="worker", name=str(seat), owner=str(seat), notes=(said,)))
    tokens = int(record.get("vp_tokens", 0) or 0)
    if tokens:
        lines.append(ngettext("{n} VP token", "{n} VP tokens", tokens))
        pieces.append(Piece(kind="VP tokens", name=f"{tokens} VP"))
    label = _effect(office.kind, office.n) if office is not None else ""
    details = (("board position", str(position + 1)),) if position is not None else ()
    return Area(id=oid, label=label, lines=tuple(lines), pieces=tuple(pieces), details=details)


@per_reader
def _uses() -> dict[int, str]:
    return {0: gettext("not used"), 1: gettext("used once"), 2: gettext("used twice")}


def sections(drawn: tuple[Board, ...], view: dict[str, Any]) -> tuple[Board, ...]:
    """The seats' tableau and the rest of the view in the reader's words."""
    return default_sections(drawn, view, words(), _values())


@per_reader
def _values() -> dict[str, dict[str, str]]:
    """The phase as stored, in the reader's words (as the events' sentences say it)."""
    return {"phase": {"setup": gettext("setup"), "planning": gettext("planning"), "actions": gettext("actions"),
                      "buying": gettext("buying"), "cleanup": gettext("cleanup"), "game_over": gettext("game_over")}}


def _colour(colour: str) -> str:
    return colour.replace("_", "-")


@worded_or(_colour)
def _colour_word() -> dict[str, str]:
    """An office colour in the reader's words, as a row of offices is titled (a colour the game does not
    know as written, ``no colour`` for none)."""
    return {"purple": pgettext("offices", "purple"), "blue": pgettext("offices", "blue"),
            "yellow": pgettext("offices", "yellow"), "green": pgettext("offices", "green"),
            "yellow_green": pgettext("offices", "yellow-green"), "gray": pgettext("offices", "gray"),
            "red": pgettext("offices", "red"), "": pgettext("offices", "no colour")}


@worded_or(_colour)
def _card_colour() -> dict[str, str]:
    """A card's colour in the reader's words (as the card is: yellow, yellow-green)."""
    return {"purple": pgettext("a card's colour", "purple"), "blue": pgettext("a card's colour", "blue"),
            "yellow": pgettext("a card's colour", "yellow"), "green": pgettext("a card's colour", "green"),
            "yellow_green": pgettext("a card's colour", "yellow-green"), "gray": pgettext("a card's colour", "gray"),
            "red": pgettext("a card's colour", "red")}


def _effect(kind: str, n: int) -> str:
    """An office's effect in a few words (its kind and number, §1.7), in the reader's words."""
    said = _effects().get(kind) or kind.replace("_", " ")
    return said + (f" {n}" if n else "")


@per_reader
def _effects() -> dict[str, str]:
    return {"gain_workers": pgettext("an office's effect", "gain workers"),
            "trash_for_worker": pgettext("an office's effect", "trash for worker"),
            "extra_placement": pgettext("an office's effect", "extra placement"),
            "elbow_placement": pgettext("an office's effect", "elbow placement"),
            "draw_cards": pgettext("an office's effect", "draw cards"),
            "donations": pgettext("an office's effect", "donations"),
            "card_exchange": pgettext("an office's effect", "card exchange"),
            "gain_coins": pgettext("an office's effect", "gain coins"),
            "double_coins": pgettext("an office's effect", "double coins"),
            "trash_for_coins": pgettext("an office's effect", "trash for coins"),
            "buy": pgettext("an office's effect", "buy"), "special_buy": pgettext("an office's effect", "special buy"),
            "gain_vp": pgettext("an office's effect", "gain vp"),
            "double_tokens": pgettext("an office's effect", "double tokens"),
            "coins_to_vp": pgettext("an office's effect", "coins to vp"),
            "coin_or_vp": pgettext("an office's effect", "coin or vp"),
            "reuse_card": pgettext("an office's effect", "reuse card"),
            "reuse_office": pgettext("an office's effect", "reuse office"),
            "copy_card": pgettext("an office's effect", "copy card"),
            "keep_cards": pgettext("an office's effect", "keep cards"), "none": pgettext("an office's effect", "none"),
            "manual": pgettext("an office's effect", "manual")}


def _slot_order(slot: str) -> tuple[int, str]:
    return (int(slot), "") if slot.isdigit() else (1 << 30, slot)


def headline(view: dict[str, Any]) -> str:
    """Where the match stands: the round and phase, whose turn (with placements left in the actions
    phase), the scores, and in the buying phase each player's coins."""
    phase = view.get("phase")
    players: dict[str, Any] = view["players"] if isinstance(view.get("players"), dict) else {}
    if phase == "setup":
        return "setup: the street, doctorates, first office and bus to be laid out"
    parts = [f"round {view.get('round')}", str(phase).replace("_", " ")]
    current = view.get("current")
    if current and phase == "actions":
        turn = view.get("turn") or {}
        parts.append(f"{current} to act ({turn.get('placements_left', 0)} placement"
                     f"{'' if turn.get('placements_left') == 1 else 's'} left)")
    elif current:
        parts.append(f"{current} to act")
    elif phase == "planning":
        waiting = [s for s, p in players.items() if isinstance(p, dict) and not p.get("order_chosen")]
        if waiting:
            parts.append("order cards from " + ", ".join(waiting))
    scores = [f"{s} {p['score']}" for s, p in players.items() if isinstance(p, dict) and "score" in p]
    if scores:
        parts.append("VP " + ", ".join(scores))
    coins = [f"{s} {p['coins_available']}" for s, p in players.items() if isinstance(p, dict) and "coins_available" in p]
    if coins and phase == "buying":  # coins are the buying phase's money, lost at its end (§3.4)
        parts.append("coins " + ", ".join(coins))
    return " · ".join(parts)
