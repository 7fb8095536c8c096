"""A match created as the continuation of a finished one (``new_match(continue_from=...)``, ``referee new
--continue-from``), for any game: refused for a game without a ``carry_over`` hook, a match not over, or
another game's match. X-Files' series (the one game that continues) is tested in test_xfiles_encounters."""

from __future__ import annotations

import pytest

from referee.errors import BadInput
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.games import GAMES
from support.pile import PILE


def test_a_game_without_continuation_a_match_not_over_and_another_game_are_refused():
    r = Referee(MemoryStore(), games=(*GAMES, PILE))
    m = r.new_match("pile", ["alice", "bob"], options={"stones": 2}, seed=3)
    with pytest.raises(BadInput, match="is not over") as err:
        r.new_match("pile", ["alice", "bob"], continue_from=m.id)
    assert err.value.code == "match/bad_continuation"
    while r.result(m.id) is None:
        legal = r.legal(m.id).legal
        seat = next(s for s in ("alice", "bob") if legal[s])
        r.submit(m.id, seat, "take 2" if "take count=2" in legal[seat] else legal[seat][0])
    with pytest.raises(BadInput, match="cannot be continued"):
        r.new_match("pile", ["alice", "bob"], continue_from=m.id)
    with pytest.raises(BadInput, match="is a pile match, not by_all_means"):
        r.new_match("by_all_means", ["alice", "bob"], continue_from=m.id)
    assert len(r.store.list_matches()) == 1  # nothing was written
