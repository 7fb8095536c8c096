"""Helpers a game's ``boards`` hook draws with (see :mod:`schemas.board`), and the one way a view's
values read as text. Pure functions of a role's view: a board can show nothing the view does not."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from functools import cache, lru_cache
from typing import Any

import msgspec

from schemas.board import Area, Board, Link

from .speech import pgettext


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


def leaves(value: Mapping[str, Any], prefix: str = "", out: dict[str, Any] | None = None) -> dict[str, Any]:
    """:func:`flatten` of a mapping at once, as a dict of dotted paths to leaves (faster: the HTML
    viewer flattens every view of a match)."""
    out = {} if out is None else out
    if not value and prefix:
        out[prefix] = {}
    for k, v in value.items():
        path = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            leaves(v, path, out)
        else:
            out[path] = v
    return out


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


@cache
def label(path: str) -> str:
    """A dotted path of a view as a reader's label: ``main_archive.count`` reads "main archive count"."""
    return path.replace("_", " ").replace(".", " ").strip()


def _split(record: Any, labels: Mapping[str, str] | None, details: Collection[str],
           words: Mapping[str, str] | None = None, values: Mapping[str, Mapping[str, str]] | None = None
           ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """A record's leaves as (label, text) facts (the path itself when ``labels`` is None), those under
    a path in ``details`` apart, labelled by their paths. ``words`` gives a reader's word for a path's
    start (``banner_supply``: the word for "banner supply"), said before the rest of a path ``labels`` does
    not name (``banner_supply.bear``: the word, then "bear"); in English the word is the start's own. With
    ``labels`` None a path is its own label unless ``words`` gives one for the whole path. ``values`` gives,
    for a path, the reader's words for the values stored there (a phase: ``actions``)."""
    shown: list[tuple[str, str]] = []
    hidden: list[tuple[str, str]] = []
    prefixes = tuple(d + "." for d in details)
    exact = frozenset(details)
    read: dict[str, str] = {}  # as leaves(record) keeps them: a path given twice is where it came first, as it came last
    for k, v in record.items():
        read.update(_read(str(k), v))
    for path, said in read.items():
        if said == "true" or said == "false":  # the one word :func:`text` says itself: in the reader's words
            said = pgettext("a fact's value", "true") if said == "true" else pgettext("a fact's value", "false")
        elif values and path in values:
            said = values[path].get(said, said)
        if path in exact or path.startswith(prefixes):
            hidden.append((path, said))
        else:
            shown.append(((words or {}).get(path, path) if labels is None else labels.get(path) or _worded(path, words),
                          said))
    return tuple(shown), tuple(hidden)


def _worded(path: str, words: Mapping[str, str] | None) -> str:
    """:func:`label` of ``path``, its longest start that ``words`` gives said in the reader's word."""
    if words:
        if path in words:
            return words[path]
        start, _dot, rest = path.rpartition(".")
        while start:
            word = words.get(start)
            if word is not None:
                return f"{word} {label(rest)}"
            start, _dot, more = start.rpartition(".")
            rest = f"{more}.{rest}"
    return label(path)


#: :func:`_read`'s answers by the key and the ``repr`` of its value (which tells apart what reads apart: a
#: list and a tuple, ``1`` and ``True``, and keeps a mapping's order); emptied when it holds ``_READ_MOST``
_READ: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
_READ_MOST = 1 << 11


def _read(key: str, value: Any) -> tuple[tuple[str, str], ...]:
    """The leaves of one field of a record, as (path, :func:`text`) pairs: a view that changes in one
    field is read again in that field only (the viewer words every step's view of a match; most fields
    stay as they were)."""
    memo = (key, repr(value))
    found = _READ.get(memo)
    if found is None:
        if len(_READ) >= _READ_MOST:
            _READ.clear()
        found = _READ[memo] = tuple((path, text(v)) for path, v in leaves({key: value}).items())
    return found


def seat_tableau(view: Mapping[str, Any], key: str = "players", title: str | None = None, *,
                 labels: Mapping[str, str] | None = None, details: Collection[str] = (),
                 words: Mapping[str, str] | None = None) -> Board | None:
    """What each seat has in front of it, side by side: ``view[key]`` maps each seat to its record,
    whose leaves become the tableau's facts. None when the view has no such map.

    With ``labels`` (paths to a reader's words; other paths read as :func:`label` makes them), the
    facts are in words; the paths in ``details`` (and below them) go to each area's details as they
    are stored; ``words``: a reader's words for the starts of paths ``labels`` does not name (see
    :func:`_split`). ``title``: the board's, in the reader's words (default: "Players")."""
    seats = view.get(key)
    if not isinstance(seats, dict) or not seats or not all(isinstance(v, dict) for v in seats.values()):
        return None
    areas = []
    for seat, record in seats.items():
        shown, hidden = _split(record, labels, details, words)
        areas.append(Area(id=str(seat), facts=shown, details=hidden))
    heading = pgettext("a board's title", "Players") if title is None else title
    return Board(title=heading, layout="tableau", areas=tuple(areas), covers=(key,))


def fact_list(view: Mapping[str, Any], keys: Collection[str] | None = None, title: str | None = None, *,
              labels: Mapping[str, str] | None = None, details: Collection[str] = (),
              words: Mapping[str, str] | None = None, values: Mapping[str, Mapping[str, str]] | None = None
              ) -> Board | None:
    """A section of the view in words: the leaves under ``keys`` (every top-level key when None) as
    labelled facts, the paths in ``details`` behind a reader's "details". None when there is nothing.
    ``title``: the board's, in the reader's words (default: "Turn and match")."""
    picked = {k: v for k, v in view.items() if keys is None or k in keys}
    if not picked:
        return None
    shown, hidden = _split(picked, labels or {}, details, words, values)
    title = pgettext("a board's title", "Turn and match") if title is None else title
    return Board(title=title, layout="list", areas=(Area(id=title, facts=shown, details=hidden),),
                 covers=tuple(picked))


def sections(boards: tuple[Board, ...], view: Mapping[str, Any], words: Mapping[str, str] | None = None,
             values: Mapping[str, Mapping[str, str]] | None = None) -> tuple[Board, ...]:
    """The view in words when a game says nothing more: its tableaux, then every top-level key no
    board draws as a list of facts (``words`` and ``values``: the reader's words for their paths and values,
    see :func:`_split`)."""
    covered = {key for b in boards for key in b.covers}
    rest = fact_list(view, [k for k in view if k not in covered], words=words, values=values)
    return tuple(b for b in boards if b.layout == "tableau") + ((rest,) if rest is not None else ())


def grid_of(points: Iterable[tuple[str, int, int]]) -> dict[str, tuple[int, int]]:
    """Points in a board's own units (``x`` to the right, ``y`` down; a map data's coordinates) as
    columns and rows of a small grid, from 1, keeping the board's shape without its empty space: each
    distinct ``x`` a column and each distinct ``y`` a row, in order; then neighbouring columns that
    share no row are drawn as one, and neighbouring rows that share no column (so a dozen sparse
    columns fit a page and every area keeps its row's and its column's order). Two ids at one point:
    the later one takes the next free column of its row."""
    return dict(_grid(tuple(points)))


@lru_cache(maxsize=64)
def _grid(pts: tuple[tuple[str, int, int], ...]) -> tuple[tuple[str, tuple[int, int]], ...]:
    """:func:`grid_of` (a map's grid is worked out once, not at every drawing of the map)."""
    cols = {x: i for i, x in enumerate(sorted({x for _id, x, _y in pts}), start=1)}
    rows = {y: i for i, y in enumerate(sorted({y for _id, _x, y in pts}), start=1)}
    out: dict[str, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    for aid, x, y in pts:
        spot = (cols[x], rows[y])
        while spot in taken:
            spot = (spot[0] + 1, spot[1])
        taken.add(spot)
        out[aid] = spot
    for axis in (0, 1):
        out = _merged(out, axis)
    return tuple(out.items())


def _merged(at: dict[str, tuple[int, int]], axis: int) -> dict[str, tuple[int, int]]:
    """``at`` with each run of neighbouring columns (``axis`` 0) or rows (1) that share no cell drawn
    as one column or row, renumbered from 1."""
    lines = sorted({spot[axis] for spot in at.values()})
    across = {n: {spot[1 - axis] for spot in at.values() if spot[axis] == n} for n in lines}
    renumber: dict[int, int] = {}
    current, held = 0, set[int]()
    for n in lines:
        if current and not held & across[n]:
            held |= across[n]
        else:
            current, held = current + 1, set(across[n])
        renumber[n] = current
    return {aid: ((renumber[c], r) if axis == 0 else (c, renumber[r])) for aid, (c, r) in at.items()}


def placed(title: str, areas: Iterable[Area], at: Mapping[str, tuple[int, int]], *,
           links: Iterable[Link] = (), covers: tuple[str, ...] = (), kinds: Mapping[str, str] | None = None) -> Board:
    """A ``map`` board: each area at its (column, row) in ``at``; an area ``at`` does not place, or
    one whose cell another already holds, goes to the first free cell of the rows after the last
    (in the order given, as wide as the map). Only ``links`` between areas of the board are kept, each
    once; a link of a kind (a sea lane, not a land border) is listed in both areas' facts too, so a
    reader without the lines (the terminal, a phone) still sees it, labelled by the kind (``kinds``: the
    reader's word for a kind; the kind itself where it gives none)."""
    given = list(areas)
    ids = {a.id for a in given}
    kept: list[Link] = []
    seen: set[tuple[str, str]] = set()
    for link in links:
        pair = (min(link.a, link.b), max(link.a, link.b))
        if link.a != link.b and link.a in ids and link.b in ids and pair not in seen:
            seen.add(pair)
            kept.append(link)
    across: dict[str, dict[str, list[str]]] = {}
    for link in kept:
        if link.kind:
            across.setdefault(link.a, {}).setdefault(link.kind, []).append(link.b)
            across.setdefault(link.b, {}).setdefault(link.kind, []).append(link.a)
    taken: set[tuple[int, int]] = set()
    spots: dict[str, tuple[int, int]] = {}
    for a in given:
        spot = at.get(a.id)
        if spot is not None and spot[0] >= 1 and spot[1] >= 1 and spot not in taken:
            taken.add(spot)
            spots[a.id] = spot
    width = max((c for c, _r in taken), default=0) or math.isqrt(max(len(given) - 1, 0)) + 1
    free = ((c, r) for r in range(max((r for _c, r in taken), default=0) + 1, 1 << 30)
            for c in range(1, width + 1))
    out = []
    for a in given:
        col, row = spots[a.id] if a.id in spots else next(free)
        extra = tuple(((kinds or {}).get(kind, kind), ", ".join(others)) for kind, others in across.get(a.id, {}).items())
        out.append(msgspec.structs.replace(a, x=col, y=row, facts=a.facts + extra))
    return Board(title=title, layout="map", areas=tuple(out), covers=covers, links=tuple(kept))


def in_place_order(areas: Iterable[Area]) -> list[Area]:
    """A map's areas as a reader goes over the table: row by row, left to right."""
    return sorted(areas, key=lambda a: (a.y, a.x))


#: a word of a text that may be an id (the viewer's script splits a text into the same words)
WORD = re.compile(r"[A-Za-z0-9_]+")


def board_strings(boards: Iterable[Board]) -> Iterator[str]:
    """The texts people read on ``boards``: each area's id, label, row, column, lines and facts (labels
    and values), its
    pieces' cards and names (not its ``details``: internal fields, as stored)."""
    for b in boards:
        for a in b.areas:
            yield a.id
            yield a.label
            yield a.row
            yield a.col
            yield from a.lines
            for k, v in a.facts:
                yield k
                yield v
            for p in a.pieces:
                yield p.card
                yield p.name


def names_in(texts: Iterable[str], name_of: Callable[[str], str | None],
             asked: set[str] | None = None) -> dict[str, str]:
    """The printed names of the ids among the words of ``texts`` (the game's ``name_of``; a word it
    names nothing is left out). ``asked`` holds the words asked before (skipped, and added to): texts
    drawn from one role's view, so only ids that view shows are named."""
    asked = set() if asked is None else asked
    out: dict[str, str] = {}
    for t in texts:
        for word in WORD.findall(t):
            if word not in asked:
                asked.add(word)
                name = name_of(word)
                if name and name != word:
                    out[word] = name
    return out


def named(text: str, names: Mapping[str, str]) -> str:
    """``text`` with each word that is a named id replaced by its name."""
    if not names:
        return text
    return WORD.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def in_names(text: str, name_of: Callable[[str], str | None]) -> str:
    """``text`` (a sentence drawn from a role's view) with each word that is an id the game names
    (``name_of``) replaced by its printed name: the log's sentences, ``replay``'s words."""
    def one(m: re.Match[str]) -> str:
        return name_of(m.group(0)) or m.group(0)

    return WORD.sub(one, text)


def named_boards(boards: Iterable[Board], names: Mapping[str, str]) -> tuple[Board, ...]:
    """``boards`` as people read them: every id in an area's id, label, row, column, lines and facts (and in
    a map's links) given as its printed name (``referee show``; the viewer's script does the same, with the id on hover)."""
    out = []
    for b in boards:
        areas = tuple(msgspec.structs.replace(
            a, id=named(a.id, names), label=named(a.label, names), row=named(a.row, names), col=named(a.col, names),
            lines=tuple(named(x, names) for x in a.lines),
            facts=tuple((named(k, names), named(v, names)) for k, v in a.facts)) for a in b.areas)
        links = tuple(msgspec.structs.replace(x, a=named(x.a, names), b=named(x.b, names)) for x in b.links)
        out.append(msgspec.structs.replace(b, areas=areas, links=links))
    return tuple(out)
