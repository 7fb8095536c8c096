"""How By All Means' table is drawn (the ``boards`` hook): the field as a grid of cells, rows from
the far edge down as the far seat sees them, each cell listing its territory, graffiti, agent and
attached cards (and the same as pieces to draw); then the seats' tableaux. :func:`sections` gives the
players and the turn in a player's words, internal fields (object ids, flags) in the details. Built
from one role's view only."""

from __future__ import annotations

from typing import Any

from referee.engine.present import fact_list, seat_tableau, text
from referee.engine.speech import gettext, pgettext
from schemas.board import Area, Board, Piece

_SLOTS = (("territory", ""), ("graffiti", "graffiti "), ("agent", "agent "))


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
            lines = [piece(mark, here[slot]) for slot, mark in _SLOTS if isinstance(here.get(slot), dict)]
            lines += [f"attached {a.get('card', '?')}" for a in here.get("attached") or [] if isinstance(a, dict)]
            pieces = [drawn(slot, here[slot]) for slot, _mark in _SLOTS if isinstance(here.get(slot), dict)]
            pieces += [drawn("attached", a) for a in here.get("attached") or [] if isinstance(a, dict)]
            areas.append(Area(id=f"{c}{r}", row=str(r), col=c, lines=tuple(lines), pieces=tuple(pieces)))
    return Board(title=gettext("Field"), layout="grid", areas=tuple(areas), covers=("field",))


def piece(mark: str, obj: dict[str, Any]) -> str:
    """A card on the field: its id, who holds it, and what is true of it."""
    text = f"{mark}{obj.get('card', '?')} ({obj.get('controller') or obj.get('owner') or ''}"
    if "loyalty" in obj:
        text += f", {obj['loyalty']}"
    if obj.get("face") == "down":
        text += ", face down"
    if obj.get("turned"):
        text += ", turned"
    if obj.get("shadow"):
        text += f", shadow {obj['shadow']}"
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
        notes.append("turned")
    if obj.get("shadow"):
        notes.append(f"shadow {text(obj['shadow'])}")
    if obj.get("active_symbols"):
        notes.append("symbols " + ", ".join(str(x) for x in obj["active_symbols"]))
    owner = obj.get("controller") or obj.get("owner") or ""
    if obj.get("owner") and obj.get("controller") and obj["owner"] != obj["controller"]:
        notes.append(f"owned by {obj['owner']}")
    return Piece(kind=kind, card=str(obj.get("card") or "?"), owner=str(owner),
                 value=str(obj["loyalty"]) if "loyalty" in obj else "",
                 face_down=obj.get("face") == "down", notes=tuple(notes))


_PLAYER_WORDS = {
    "hand": "hand", "hand_count": "cards in hand", "utility": "utility pile", "buffer.buf1": "buffer 1",
    "buffer.buf2": "buffer 2", "buffer.buf1.card": "buffer 1", "buffer.buf2.card": "buffer 2",
    "buffer.buf1.active_symbols": "buffer 1 symbols", "buffer.buf2.active_symbols": "buffer 2 symbols", "main_archive.count": "main archive (cards)",
    "extra_archive.count": "extra archive (cards)", "actions_lost_next_turn.main": "main actions lost next turn",
    "actions_lost_next_turn.extra": "extra actions lost next turn", "agent_count": "agents",
    "loyalty_total": "loyalty on the field",
}
_PLAYER_DETAILS = ("unseen", "opening_drawn", "mulligan_done", "buffer.buf1.oid", "buffer.buf2.oid",
                   "buffer.buf1.owner", "buffer.buf2.owner")
_TURN_WORDS = {
    "phase": "phase", "turn.number": "turn", "turn.active": "whose turn", "turn.step": "step",
    "turn.main_left": "main actions left", "turn.extra_left": "extra actions left",
    "pending": "waiting for", "neutral_zone.cards": "neutral zone", "neutral_zone.symbols": "neutral symbols",
    "lot_winner": "won the lot", "first_player": "first player", "territory_count": "territories on the field",
    "manual_effects": "declared effects so far",
}
_TURN_DETAILS = ("turn.draw_only_slot", "turn.reactions_used", "turn.combos", "turn.agent_actions", "outcome")


def sections(view: dict[str, Any]) -> tuple[Board, ...]:
    """The players and the turn in a player's words, what is internal in the details."""
    players = seat_tableau(view, labels=_PLAYER_WORDS, details=_PLAYER_DETAILS)
    turn = fact_list(view, [k for k in view if k not in ("field", "players")], pgettext("a board's title", "Turn"),
                     labels=_TURN_WORDS, details=_TURN_DETAILS)
    return tuple(b for b in (players, turn) if b is not None)
