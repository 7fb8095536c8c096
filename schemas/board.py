"""How a game draws its table for people: boards of areas, built by the game from a role's view.

A :class:`Board` is one part of the table: a ``grid`` of cells (By All Means' field, War of Shadows'
council), a map of ``regions``, a ``tableau`` of what each seat has in front of it, or a shared
``row`` of slots (a market, a street). Its areas hold what is there as short lines of text and, for a
tableau, named facts. The CLI's ``show`` and the HTML step-through draw any game's boards alike; the
game decides what they show, from the view of the role being shown (never from the hidden truth).
"""

from __future__ import annotations

from typing import Literal

import msgspec

Layout = Literal["grid", "regions", "tableau", "row"]


class Area(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One place drawn as a unit: a grid's cell, a map's region, a seat's tableau, a row's slot."""

    id: str
    #: what it is, shown small beside its id (a region's home, a slot's price)
    label: str = ""
    #: a grid cell's row and column labels
    row: str = ""
    col: str = ""
    #: what is there, a line per piece ("T14 (alice, 3)", "bear 4")
    lines: tuple[str, ...] = ()
    #: named facts (a tableau's counters: ("reputation", "4")), drawn as rows across the areas
    facts: tuple[tuple[str, str], ...] = ()


class Board(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One part of the table, drawn as its ``layout`` says."""

    title: str
    layout: Layout
    areas: tuple[Area, ...] = ()
    #: the view's top-level keys this board draws: a reader's list of the other facts leaves them out
    covers: tuple[str, ...] = ()
