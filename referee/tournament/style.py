"""The one stylesheet of the tournament's pages (the HTML export and the hall page): the match
viewer's sheet (its palette, header, panels and tables) and the few rules a tournament adds, written
into each page (no external request)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def stylesheet() -> str:
    """The viewer's ``viewer.css`` then ``tournament.css`` (read once; both are package files)."""
    root = files("referee")
    return (root.joinpath("viewer", "viewer.css").read_text(encoding="utf-8")
            + root.joinpath("tournament", "tournament.css").read_text(encoding="utf-8"))
