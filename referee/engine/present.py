"""Helpers a game's ``boards`` hook draws with (see :mod:`schemas.board`), and the one way a view's
values read as text. Pure functions of a role's view: a board can show nothing the view does not."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from schemas.board import Area, Board


def flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Dotted paths to the leaves of a view, in order (lists are leaves: zones compare as wholes; an
    empty mapping is a leaf of its own)."""
    if isinstance(value, dict):
        if not value and prefix:
            yield prefix, {}
        for k, v in value.items():
            yield from flatten(v, f"{prefix}.{k}" if prefix else str(k))
    else:
        yield prefix, value


def text(value: Any) -> str:
    """A view's value as a person reads it: ``true``, ``—`` for nothing, lists as ``a, b``, maps as
    ``k=v``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None or value == []:
        return "—"
    if isinstance(value, list):
        return ", ".join(text(v) for v in value)
    if isinstance(value, dict):
        return " ".join(f"{k}={text(v)}" for k, v in value.items()) or "—"
    return str(value)


def seat_tableau(view: Mapping[str, Any], key: str = "players", title: str = "Players") -> Board | None:
    """What each seat has in front of it, side by side: ``view[key]`` maps each seat to its record,
    whose leaves become the tableau's facts. None when the view has no such map."""
    seats = view.get(key)
    if not isinstance(seats, dict) or not seats or not all(isinstance(v, dict) for v in seats.values()):
        return None
    areas = tuple(Area(id=str(seat), facts=tuple((path, text(v)) for path, v in flatten(record)))
                  for seat, record in seats.items())
    return Board(title=title, layout="tableau", areas=areas, covers=(key,))
