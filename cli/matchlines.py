"""``referee matches`` piped: one tab-separated line per match (no rich, nothing cut short), after a
header line and before a note on the clock column, both starting with ``#`` (a script skips them with
``grep -v '^#'``). A fork's id is indented by two spaces per level under the match it branches from."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.outcome import words
from schemas import MatchInfo, Outcome

COLUMNS = ("id", "game", "players", "entries", "status", "event", "round", "table", "title", "created*")
NOTE = "# created*: a clock reading kept for people; no hash covers it, not evidence\n"
_FLAT = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


def match_lines(rows: Iterable[tuple[MatchInfo, int, Outcome | None]]) -> Iterator[str]:
    """The header, a line per ``(match, depth in the fork tree, outcome)``, and the note."""
    yield "# " + "\t".join(COLUMNS) + "\n"
    for m, depth, result in rows:
        fork = f" (fork at {m.fork_seq})" if m.parent else ""
        status = f"over: {words(result)}" if result is not None else "playing"
        cells = ("  " * depth + m.id, m.game, ", ".join(m.players), str(m.head), status, m.event, m.round, m.table,
                 m.title + fork, m.created_at)
        yield "\t".join(c.translate(_FLAT) for c in cells) + "\n"
    yield NOTE
