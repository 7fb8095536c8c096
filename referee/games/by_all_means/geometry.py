"""The field (rules spec 1.3): cells, canonical order, adjacency and arrows read in a player's frame.

Default orientation ``3x4``: columns A..C from the south player's left, rows 1..4 from the south
edge; central cells B2, B3. ``4x3``: columns A..D, rows 1..3, central B2, C2. ``players[0]`` sits
south, ``players[1]`` north; a north player's arrows are mirrored (up = row - 1, right = column - 1).
"""

from __future__ import annotations

from dataclasses import dataclass


_STEPS = {"up": (0, 1), "down": (0, -1), "right": (1, 0), "left": (-1, 0)}
_ARROWS = tuple(_STEPS)


@dataclass(frozen=True)
class Field:
    columns: int
    rows: int

    def __post_init__(self) -> None:
        cells = tuple(f"{chr(65 + c)}{r + 1}" for r in range(self.rows) for c in range(self.columns))
        object.__setattr__(self, "_cells", cells)
        object.__setattr__(self, "_set", frozenset(cells))
        # the geometry never changes: neighbours and arrow targets are worked out once per cell
        object.__setattr__(self, "_neighbours", {c: self._find_neighbours(c) for c in cells})
        object.__setattr__(self, "_targets", {(c, arrow, south): self._find_target(c, arrow, south)
                                              for c in cells for arrow in _ARROWS for south in (True, False)})
        object.__setattr__(self, "_arrow_cells", {})

    @property
    def cells(self) -> tuple[str, ...]:
        """Canonical cell order: A1, B1, C1, A2, ... (row by row from the south edge)."""
        return self._cells  # type: ignore[attr-defined,no-any-return]

    @property
    def central(self) -> tuple[str, ...]:
        return ("B2", "B3") if self.columns == 3 else ("B2", "C2")

    def coords(self, cell: str) -> tuple[int, int]:
        return ord(cell[0]) - 65, int(cell[1:]) - 1

    def name(self, col: int, row: int) -> str | None:
        if 0 <= col < self.columns and 0 <= row < self.rows:
            return f"{chr(65 + col)}{row + 1}"
        return None

    def is_cell(self, text: str) -> bool:
        return text in self._set  # type: ignore[attr-defined]

    def neighbours(self, cell: str) -> tuple[str, ...]:
        """Orthogonal neighbours, in canonical order."""
        found = self._neighbours.get(cell)  # type: ignore[attr-defined]
        return self._find_neighbours(cell) if found is None else found

    def _find_neighbours(self, cell: str) -> tuple[str, ...]:
        c, r = self.coords(cell)
        found = [self.name(c + dc, r + dr) for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1))]
        return tuple(n for n in self.cells if n in found)

    def order(self, cell: str) -> int:
        return self.cells.index(cell)

    def arrow_target(self, cell: str, arrow: str, south: bool) -> str | None:
        """The cell an arrow points at, read in the frame of a player seated south (or north)."""
        targets = self._targets  # type: ignore[attr-defined]
        key = (cell, arrow, south)
        return targets[key] if key in targets else self._find_target(cell, arrow, south)

    def arrow_cells(self, cell: str, arrows: tuple[str, ...], south: bool) -> tuple[str, ...]:
        """The cells a card's arrows from ``cell`` point at (in the frame of a player seated south or
        north), in canonical order."""
        key = (cell, arrows, south)
        found: tuple[str, ...] | None = self._arrow_cells.get(key)  # type: ignore[attr-defined]
        if found is None:
            out = {self.arrow_target(cell, arrow, south) for arrow in arrows}
            found = tuple(c for c in self.cells if c in out)
            self._arrow_cells[key] = found  # type: ignore[attr-defined]
        return found

    def _find_target(self, cell: str, arrow: str, south: bool) -> str | None:
        c, r = self.coords(cell)
        dc, dr = _STEPS[arrow]
        if not south:
            dc, dr = -dc, -dr
        return self.name(c + dc, r + dr)


def field_for(orientation: str) -> Field:
    return Field(3, 4) if orientation == "3x4" else Field(4, 3)
