"""Where the viewer and ``referee show`` draw the regions of each bundled board: (column, row) on a small
grid, from 1, so that regions sharing a land border touch (side by side or corner to corner) and a sea
border crosses open water or a neighbour. Presentation only, read by :mod:`.present`: a match's board
data (stored with the match and hashed into it) carries no positions, so placing a region never changes
a match. A board or a region not named here is drawn after the placed ones, in board order."""

from __future__ import annotations

#: board id -> region -> (column, row)
PLACES: dict[str, dict[str, tuple[int, int]]] = {
    "demo": {  # the Ember Coast: the bear's north, the lion's east, the eagle's west, the horse's south coast
        "frostmere": (2, 1), "ironvale": (3, 1), "sunreach": (4, 1),
        "highmoor": (1, 2), "pinehold": (2, 2), "goldfield": (3, 2), "dunmarch": (4, 2),
        "stormcrag": (1, 3), "coppergate": (2, 3), "rivermouth": (3, 3), "jadewood": (4, 3),
        "cliffspire": (1, 4), "saltmarsh": (2, 4), "windsteppe": (3, 4), "stonecairn": (4, 4),
    },
    "TM-1": {
        "lion_2": (1, 1), "lion_1": (2, 1), "bear_1": (3, 1), "bear_2": (4, 1),
        "horse_2": (2, 2), "horse_1": (3, 2), "elephant_2": (4, 2),
        "eagle_2": (1, 3), "eagle_1": (2, 3), "elephant_1": (3, 3),
    },
}
