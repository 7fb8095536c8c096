"""What ``referee show`` prints, written without rich where that prints the same.

rich takes about a fifth of a ``referee show`` to import and draw, for a few boxed tables. Written to a
pipe or a file (no colour, no width: :func:`cli.render.console` tells rich not to wrap there), a
table's drawing is certain: each column as wide as its widest line plus a space each side, the cells
left-aligned (a grid's centred) and padded, the header row and the rows between the box's lines, the
title above it. :func:`write_state` writes that where it is sure — a pipe under the conditions
:func:`cli.lines.write` follows, an output whose encoding is UTF-8, every text of printable ASCII or
the few characters rich counts one cell wide, every title no wider than its table, a board with rows
and columns, not ``--raw`` — and otherwise writes nothing, and the caller draws it with rich
(:func:`cli.render.state`). ``tests/test_startup.py`` holds the two to the same bytes.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from cli.lines import EMOJI, NARROW, output_kind
from referee.i18n import N_, gettext, pgettext
from referee.inputs import visible
from referee.outcome import words as outcome_words

if TYPE_CHECKING:
    from schemas.board import Area, Board
    from schemas.http import StateAnswer

#: characters besides printable ASCII that rich counts one cell wide (checked against rich by a test)
ONE_CELL = NARROW | frozenset("—…")
#: rich's HEAVY_HEAD box, and SQUARE (what it draws a table without a header row in), by part:
#: (left, line, between, right) of the top, the header row's cells, the line under it, a row's
#: cells, the line between rows, the bottom (checked against rich.box by a test)
HEAVY_HEAD = ("┏━┳┓", "┃ ┃┃", "┡━╇┩", "│ ││", "├─┼┤", "└─┴┘")
SQUARE = ("┌─┬┐", "│ ││", "├─┼┤", "│ ││", "├─┼┤", "└─┴┘")

#: a table: its title, its columns' headers and justification, its rows (each cell a list of lines),
#: whether a header row and lines between rows are drawn
Table = tuple[str, list[tuple[str, str]], list[list[list[str]]], bool, bool]


class _Unsure(Exception):
    """Something rich would draw otherwise than this module knows: rich draws it."""


def _text(text: str) -> str:
    shown = visible(text)
    # a backslash is markup's escape (rich.markup.escape doubles one at the end of a text): rich's to draw
    if "\\" in shown or EMOJI.search(shown) or not all(" " <= ch <= "~" or ch in ONE_CELL for ch in shown):
        raise _Unsure
    return shown


def write_state(data: StateAnswer, *, raw: bool = False) -> bool:
    """Write the state as :func:`cli.render.state` draws it, if this module is sure how; False if it
    wrote nothing."""
    out = sys.stdout
    if raw or not (data.boards or data.sections) or output_kind(out) != (False, 100_000):
        return False
    if not (getattr(out, "encoding", None) or "").lower().replace("-", "").startswith("utf"):
        return False
    try:
        text = _state(data)
    except _Unsure:
        return False
    out.write(text)
    return True


def _state(data: StateAnswer) -> str:
    lines = [gettext(N_("{game} match {match} after entry {seq} (as {role})"), game=_text(data.game),
                     match=_text(data.match_id), seq=data.seq, role=_text(data.as_))]
    if data.outcome:
        lines.append(gettext(N_("Game over: {result}"), result=_text(outcome_words(data.outcome, gettext))))
    if data.headline:
        lines.append(_text(data.headline))
    worded = {b.title for b in data.sections}
    for b in data.boards:
        if not (b.layout == "tableau" and b.title in worded):
            lines.extend(_draw(_board(b)))
    for b in data.sections:
        lines.extend(_draw(_board(b)))
    worded_keys = {key for b in data.boards for key in b.covers} | {key for b in data.sections for key in b.covers}
    rest = [k for k in data.state if k not in worded_keys]
    if rest:
        lines.append(gettext(N_("({fields}: --raw shows every field)"),
                             fields=', '.join(_text(k) for k in rest[:8]) + ('…' if len(rest) > 8 else '')))
    if data.state_hash:
        lines.append(gettext(N_("state hash {hash}"), hash=_text(data.state_hash)))
    else:
        lines.append(gettext(N_("(hidden cards are not shown; the state hash is given in the referee's view only)")))
    return "".join(line + "\n" for line in lines)


def _board(b: Board) -> Table:
    """:func:`cli.render.board` (without ``details``) as a :data:`Table`."""
    columns: list[tuple[str, str]] = [("", "left")]
    rows: list[list[list[str]]] = []
    if b.layout == "grid":
        row_names = list(dict.fromkeys(a.row for a in b.areas))
        cols = list(dict.fromkeys(a.col for a in b.areas))
        at = {(a.row, a.col): a for a in b.areas}
        columns += [(_text(c), "center") for c in cols]
        rows = [[[_text(r)], *(_lines(at.get((r, c))) for c in cols)] for r in row_names]
    elif b.layout in ("regions", "map"):
        placed = b.layout == "map"
        listed = map_rows(b)
        labelled = any(label for _at, _a, label in listed)
        columns += [("", "left")] * (1 + placed + labelled)
        rows = [[*([[_text(at)]] if placed else []), [_text(a.id)], *([[_text(label)]] if labelled else []),
                 [_text(", ".join(a.lines) or "·")]] for at, a, label in listed]
    else:
        columns += [(_text(a.id + (f" ({a.label})" if a.label else "")), "left") for a in b.areas]
        if any(a.lines for a in b.areas) or b.layout == "row":
            rows.append([[""], *(_lines(a) for a in b.areas)])
        facts = [dict(a.facts) for a in b.areas]
        names = list(dict.fromkeys(name for a in b.areas for name, _v in a.facts))
        rows += [[[_text(name)], *([_text(f.get(name, "—"))] for f in facts)] for name in names]
    return _text(b.title), columns, rows, b.layout not in ("regions", "map"), b.layout in ("grid", "row")


def map_rows(b: Board) -> list[tuple[str, Area, str]]:
    """A board's areas in the order a reader goes over them, each with the row it starts (or "") and its
    label: a ``map``'s row by row, left to right, the first of each row with its row's number ("row 2"),
    each label followed by the borders of a kind that the lines of a picture would show ("sea:
    saltmarsh"); a map of regions as the game lists them."""
    if b.layout != "map":
        return [("", a, a.label) for a in b.areas]
    across: dict[str, dict[str, list[str]]] = {}
    for link in b.links:
        if link.kind:
            across.setdefault(link.a, {}).setdefault(link.kind, []).append(link.b)
            across.setdefault(link.b, {}).setdefault(link.kind, []).append(link.a)
    out: list[tuple[str, Area, str]] = []
    last = None
    for a in sorted(b.areas, key=lambda a: (a.y, a.x)):
        # a kind of border in the game's words (the game marks them in the context "a border")
        borders = "; ".join(f"{pgettext('a border', kind)}: {', '.join(others)}"
                            for kind, others in across.get(a.id, {}).items())
        out.append((gettext("row {n}", n=a.y) if a.y != last else "", a, "; ".join(x for x in (a.label, borders) if x)))
        last = a.y
    return out


def _lines(area: Area | None) -> list[str]:
    if area is None or not area.lines:
        return ["·"]
    return [_text(line) for line in area.lines]


def _draw(table: Table) -> list[str]:
    """A table's lines as rich draws it to a pipe (see the module's description)."""
    title, columns, rows, header, between = table
    if not rows or not columns:
        raise _Unsure
    body = ([[[h] for h, _j in columns]] if header else []) + rows
    widths = [max(len(line) for row in body for line in row[i]) + 2 for i in range(len(columns))]
    total = sum(widths) + len(widths) + 1
    if len(title) > total:
        raise _Unsure  # rich wraps a title to the table's width
    box = HEAVY_HEAD if header else SQUARE
    drawn = [title] if title else []

    def rule(part: str) -> str:
        return part[0] + part[2].join(part[1] * w for w in widths) + part[3]

    drawn.append(rule(box[0]))
    for index, row in enumerate(body):
        first = index == 0 and header
        cell_edges = box[1] if first else box[3]
        left, mid, right = cell_edges[0], cell_edges[2], cell_edges[3]
        height = max(len(cell) for cell in row)
        for n in range(height):
            cells = []
            for (_h, justify), width, cell in zip(columns, widths, row):
                text = cell[n] if n < len(cell) else ""
                if first:  # a header is aligned to the bottom of its row
                    text = cell[n - (height - len(cell))] if n >= height - len(cell) else ""
                inner = width - 2
                if justify == "center":
                    text = text.rstrip()
                    pad = (inner - len(text)) // 2
                    text = " " * pad + text
                cells.append(" " + text.ljust(inner) + " ")
            drawn.append(left + mid.join(cells) + right)
        if first:
            drawn.append(rule(box[2]))
        elif between and index < len(body) - 1:
            drawn.append(rule(box[4]))
    drawn.append(rule(box[5]))
    return drawn
