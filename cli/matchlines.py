"""``referee matches`` piped: one tab-separated line per match (no rich, nothing cut short), after a
header line and before a note on the clock column, both starting with ``#`` (a script skips them with
``grep -v '^#'``). A fork's id is indented by two spaces per level under the match it branches from."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.outcome import words
from referee.store import MatchSummary
from referee.summaries import outcome

COLUMNS = ("id", "game", "players", "entries", "status", "event", "round", "table", "title", "created*")
NOTE = "# created*: a clock reading kept for people; no hash covers it, not evidence\n"
#: a line whose cells hold a tab or a line end: its cells joined with NUL (which no stored text holds), then
#: the NULs turned into tabs and the tabs and line ends inside a cell into spaces at once
_CELLS = str.maketrans({"\t": " ", "\n": " ", "\r": " ", "\0": "\t"})
_TABS = len(COLUMNS) - 1


def match_lines(rows: Iterable[tuple[MatchSummary, int]]) -> Iterator[str]:
    """The header, a line per ``(match's summary, its depth in the fork tree)``, and the note."""
    yield "# " + "\t".join(COLUMNS) + "\n"
    said: dict[bytes, str] = {}  # an outcome's words, once per distinct outcome
    for s, depth in rows:
        fork = f" (fork at {s.fork_seq})" if s.parent else ""
        status = "playing"
        if s.outcome:
            status = said.get(s.outcome) or said.setdefault(s.outcome, f"over: {words(outcome(s))}")
        cells = ("  " * depth + s.match_id, s.game, ", ".join(s.seats), str(s.head), status, s.event, s.round,
                 s.table, s.title + fork, s.created_at)
        line = "\t".join(cells)
        if line.count("\t") != _TABS or "\n" in line or "\r" in line:  # (rare: only such lines are translated)
            line = "\0".join(cells).translate(_CELLS)
        yield line + "\n"
    yield NOTE
