"""How By All Means' table is drawn (the ``boards`` hook): the field as a grid of cells, rows from
the far edge down as the far seat sees them, each cell listing its territory, graffiti, agent and
attached cards (and the same as pieces to draw); then the seats' tableaux. :func:`sections` gives the
players and the turn in a player's words, internal fields (object ids, flags) in the details. Built
from one role's view only."""

from __future__ import annotations

from typing import Any

from referee.engine.present import fact_list, seat_tableau, text
from referee.engine.speech import gettext, per_reader, pgettext
from schemas.board import Area, Board, Piece

_SLOTS = ("territory", "graffiti", "agent")


def boards(view: dict[str, Any]) -> tuple[Board, ...]:
    drawn = [b for b in (field(view), seat_tableau(view)) if b is not None]
    return tuple(drawn)


def field(view: dict[str, Any]) -> Board | None:
    cells = view.get("field")
    if not isinstance(cells, dict) or not cells:
        return None
    cols = sorted({name[0] for name in cells})
    rows = sorted({int(name[1:]) for name in cells}, reverse=True)
    areas = []
    for r in rows:
        for c in cols:
            here = cells.get(f"{c}{r}") or {}
            lines = [piece(_mark(slot), here[slot]) for slot in _SLOTS if isinstance(here.get(slot), dict)]
            lines += [gettext("attached {card}", card=a.get("card", "?")) for a in here.get("attached") or []
                      if isinstance(a, dict)]
            pieces = [drawn(slot, here[slot]) for slot in _SLOTS if isinstance(here.get(slot), dict)]
            pieces += [drawn("attached", a) for a in here.get("attached") or [] if isinstance(a, dict)]
            areas.append(Area(id=f"{c}{r}", row=str(r), col=c, lines=tuple(lines), pieces=tuple(pieces)))
    return Board(title=gettext("Field"), layout="grid", areas=tuple(areas), covers=("field",))


def _mark(slot: str) -> str:
    """What a card in a cell's ``slot`` is called before its id (a territory: nothing), in the reader's words."""
    return {"graffiti": pgettext("a card on the field", "graffiti") + " ",
            "agent": pgettext("a card on the field", "agent") + " "}.get(slot, "")


def piece(mark: str, obj: dict[str, Any]) -> str:
    """A card on the field: its id, who holds it, and what is true of it."""
    text = f"{mark}{obj.get('card', '?')} ({obj.get('controller') or obj.get('owner') or ''}"
    if "loyalty" in obj:
        text += f", {obj['loyalty']}"
    if obj.get("face") == "down":
        text += ", " + gettext("face down")
    if obj.get("turned"):
        text += ", " + gettext("turned")
    if obj.get("shadow"):
        text += ", " + gettext("shadow {shadow}", shadow=obj["shadow"])
    text += ")"
    if obj.get("active_symbols"):
        text += " [" + ",".join(obj["active_symbols"]) + "]"
    return text


def headline(view: dict[str, Any]) -> str:
    """Where the match stands: the turn, who acts and in which step with what actions left, and each
    seat's loyalty total (what decides a full field). The end of the game is said from the outcome."""
    turn: dict[str, Any] = view["turn"] if isinstance(view.get("turn"), dict) else {}
    players: dict[str, Any] = view["players"] if isinstance(view.get("players"), dict) else {}
    parts: list[str] = []
    if view.get("phase") not in (None, "play", "over"):
        parts.append(f"{view['phase']}")
    if turn.get("number"):
        parts.append(f"turn {turn['number']}")
    if turn.get("active") and view.get("phase") != "over":
        left = [f"{turn[k]} {word}" for k, word in (("main_left", "main"), ("extra_left", "extra")) if turn.get(k) is not None]
        parts.append(f"{turn['active']} to act ({turn.get('step', '?')} step" + (f"; {', '.join(left)} left)" if left else ")"))
    loyalty = [f"{seat} {p['loyalty_total']}" for seat, p in players.items()
               if isinstance(p, dict) and p.get("loyalty_total") is not None]
    if loyalty:
        parts.append("loyalty " + ", ".join(loyalty))
    return " · ".join(parts)


def drawn(kind: str, obj: dict[str, Any]) -> Piece:
    """A card on the field as a piece to draw: the card, its controller's colour, its loyalty."""
    notes = []
    if obj.get("turned"):
        notes.append(gettext("turned"))
    if obj.get("shadow"):
        notes.append(gettext("shadow {shadow}", shadow=text(obj["shadow"])))
    if obj.get("active_symbols"):
        notes.append(gettext("symbols {symbols}", symbols=", ".join(str(x) for x in obj["active_symbols"])))
    owner = obj.get("controller") or obj.get("owner") or ""
    if obj.get("owner") and obj.get("controller") and obj["owner"] != obj["controller"]:
        notes.append(gettext("owned by {seat}", seat=obj["owner"]))
    return Piece(kind=kind, card=str(obj.get("card") or "?"), owner=str(owner),
                 value=str(obj["loyalty"]) if "loyalty" in obj else "",
                 face_down=obj.get("face") == "down", notes=tuple(notes))


@per_reader
def _player_words() -> dict[str, str]:
    """A player's fields in the reader's words."""
    return {
        "hand": pgettext("a table's label", "hand"), "hand_count": pgettext("a table's label", "cards in hand"),
        "utility": pgettext("a table's label", "utility pile"), "buffer.buf1": pgettext("a table's label", "buffer 1"),
        "buffer.buf2": pgettext("a table's label", "buffer 2"), "buffer.buf1.card": pgettext("a table's label", "buffer 1"),
        "buffer.buf2.card": pgettext("a table's label", "buffer 2"),
        "buffer.buf1.active_symbols": pgettext("a table's label", "buffer 1 symbols"),
        "buffer.buf2.active_symbols": pgettext("a table's label", "buffer 2 symbols"),
        "main_archive.count": pgettext("a table's label", "main archive (cards)"),
        "extra_archive.count": pgettext("a table's label", "extra archive (cards)"),
        "actions_lost_next_turn.main": pgettext("a table's label", "main actions lost next turn"),
        "actions_lost_next_turn.extra": pgettext("a table's label", "extra actions lost next turn"),
        "agent_count": pgettext("a table's label", "agents"),
        "loyalty_total": pgettext("a table's label", "loyalty on the field"),
        "influence": pgettext("a table's label", "influence"), "reputation": pgettext("a table's label", "reputation"),
        "trust": pgettext("a table's label", "trust"),
    }


_PLAYER_DETAILS = ("unseen", "opening_drawn", "mulligan_done", "buffer.buf1.oid", "buffer.buf2.oid",
                   "buffer.buf1.owner", "buffer.buf2.owner")
@per_reader
def _turn_words() -> dict[str, str]:
    """The turn's fields in the reader's words."""
    return {
        "phase": pgettext("a table's label", "phase"), "turn.number": pgettext("a table's label", "turn"),
        "turn.active": pgettext("a table's label", "whose turn"), "turn.step": pgettext("a table's label", "step"),
        "turn.main_left": pgettext("a table's label", "main actions left"),
        "turn.extra_left": pgettext("a table's label", "extra actions left"),
        "pending": pgettext("a table's label", "waiting for"), "neutral_zone.cards": pgettext("a table's label", "neutral zone"),
        "neutral_zone.symbols": pgettext("a table's label", "neutral symbols"),
        "lot_winner": pgettext("a table's label", "won the lot"), "first_player": pgettext("a table's label", "first player"),
        "territory_count": pgettext("a table's label", "territories on the field"),
        "manual_effects": pgettext("a table's label", "declared effects so far"),
    }


_TURN_DETAILS = ("turn.draw_only_slot", "turn.reactions_used", "turn.combos", "turn.agent_actions", "outcome")


@per_reader
def _turn_values() -> dict[str, dict[str, str]]:
    """The phase and the step as stored, in the reader's words."""
    return {"phase": {"opening": pgettext("a phase", "opening"), "order": pgettext("a phase", "order"),
                      "mulligan": pgettext("a phase", "mulligan"), "play": pgettext("a phase", "play"),
                      "over": pgettext("a phase", "over")},
            "turn.step": {"start": pgettext("a turn's step", "start"), "actions": pgettext("a turn's step", "actions"),
                          "end": pgettext("a turn's step", "end"), "reactions": pgettext("a turn's step", "reactions")}}


def sections(view: dict[str, Any]) -> tuple[Board, ...]:
    """The players and the turn in a player's words, what is internal in the details."""
    players = seat_tableau(view, labels=_player_words(), details=_PLAYER_DETAILS)
    turn = fact_list(view, [k for k in view if k not in ("field", "players")], pgettext("a board's title", "Turn"),
                     labels=_turn_words(), details=_TURN_DETAILS, values=_turn_values())
    return tuple(b for b in (players, turn) if b is not None)
