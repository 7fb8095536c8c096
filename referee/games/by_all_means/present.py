"""How By All Means' table is drawn (the ``boards`` hook): the field as a grid of cells, rows from
the far edge down as the far seat sees them, each cell listing its territory, graffiti, agent and
attached cards; then the seats' tableaux. Built from one role's view only."""

from __future__ import annotations

from typing import Any

from referee.engine.present import seat_tableau
from schemas.board import Area, Board

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
            areas.append(Area(id=f"{c}{r}", row=str(r), col=c, lines=tuple(lines)))
    return Board(title="Field", layout="grid", areas=tuple(areas), covers=("field",))


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
