"""A paired table of a tournament by its round and number (a result, a report or a withdrawal names one),
or NotFound saying which rounds have been paired, in the reader's language."""

from __future__ import annotations

from ..errors import NotFound
from ..i18n import N_
from .codes import TournamentCode
from .events import Table
from .fold import Tournament


def paired_table(state: Tournament, round_: int, table: int) -> Table:
    """Round ``round_``'s table ``table``; NotFound if that round has no such table or was not paired."""
    t = state.table(round_, table)
    if t is not None:
        return t
    if 1 <= round_ <= state.current:
        raise NotFound.said(TournamentCode.NO_TABLE, N_("round {round} has no table {table}"), round=round_, table=table)
    template = (N_("round {round} has not been paired (no round has been yet)") if state.current == 0 else
                N_("round {round} has not been paired (only round 1 has)") if state.current == 1 else
                N_("round {round} has not been paired (rounds 1..{current} have)"))
    raise NotFound.said(TournamentCode.NO_TABLE, template, round=round_, current=state.current)
