"""How a game draws its table for people: boards of areas, built by the game from a role's view.

A :class:`Board` is one part of the table: a ``grid`` of cells (By All Means' field, War of Shadows'
council), a map of ``regions``, a ``tableau`` of what each seat has in front of it, or a shared
``row`` of slots (a market, a street). Its areas hold what is there as short lines of text and, for a
tableau, named facts. The CLI's ``show`` and the HTML step-through draw any game's boards alike; the
game decides what they show, from the view of the role being shown (never from the hidden truth).

An area may also carry :class:`Piece` values: what is there as things to draw (a card with its owner's
colour and loyalty, an agent token, a stack of banners), so a viewer can draw a picture of any game's
table without knowing its fields. A ``list`` board is a section of labelled facts in words; an area's
``details`` are the facts a reader opens on request (object ids, cursors, derived flags).

A ``map`` board places its areas where they lie on the table: each area's ``x`` (column) and ``y``
(row) on a small grid, 1-based, and the board's ``links`` name the borders between areas (a land
border, a sea lane, a space elevator's cable), drawn as lines where the viewer has room and listed in
the areas' facts by the game. Every field of a position is optional: a board that places nothing is
drawn as before.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Layout = Literal["grid", "regions", "tableau", "row", "list", "map"]


class Piece(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One thing in an area, to be drawn: a card (``card`` is its id; the viewer shows its name beside
    it), or a token or marker (``name``). ``owner`` is the seat or side whose colour it is drawn in."""

    #: what it is in the game's words ("territory", "agent", "banners", "held by")
    kind: str = ""
    #: a card's id as the role sees it ("?" for a card it may not identify), "" for a token
    card: str = ""
    #: a token's or marker's name (shown when there is no card)
    name: str = ""
    #: the seat or side it belongs to (its colour)
    owner: str = ""
    #: the number on it (loyalty, a count of banners)
    value: str = ""
    #: drawn as a card's back
    face_down: bool = False
    #: what else is true of it ("turned", "shadow 2", "jade, jade")
    notes: tuple[str, ...] = ()


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
    #: the seat or side that holds the area (a region's controller), drawn in its colour
    owner: str = ""
    #: what is there as things to draw (a viewer's picture; ``lines`` say the same in text)
    pieces: tuple[Piece, ...] = ()
    #: facts shown on request only: internal fields (object ids, cursors, derived flags)
    details: tuple[tuple[str, str], ...] = ()
    #: where a ``map`` board places it: column and row on the board's grid, from 1 (0: not placed)
    x: int = 0
    y: int = 0


class Link(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A border between two areas of a ``map`` board, drawn as a line between them."""

    a: str
    b: str
    #: what kind of border, in the game's words ("" a land border; "sea"; "beanstalk")
    kind: str = ""


class Board(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One part of the table, drawn as its ``layout`` says."""

    title: str
    layout: Layout
    areas: tuple[Area, ...] = ()
    #: the view's top-level keys this board draws: a reader's list of the other facts leaves them out
    covers: tuple[str, ...] = ()
    #: a ``map`` board's borders between its areas
    links: tuple[Link, ...] = ()
