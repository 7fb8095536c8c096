"""``referee show`` written to a pipe without rich (:mod:`cli.boards`) prints what rich draws, byte for
byte: every game's states along a seeded random game, as the referee and as each seat, and random
boards of every layout with the texts that change how rich draws (markup brackets, backslashes, wide
and accented characters, emoji codes, long titles, empty cells, multi-line cells); where it is not
sure it writes nothing and rich draws."""

from __future__ import annotations

import io
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import boards, render
from conftest import examples
from referee.engine.notation import format_intent
from referee.service import Referee
from referee.store.memory import MemoryStore
from schemas import Outcome
from schemas.board import Area, Board
from schemas.http import StateAnswer


class _Pipe(io.StringIO):
    encoding = "utf-8"

    def isatty(self):
        return False


@pytest.fixture(autouse=True)
def _pipe_settings(monkeypatch):
    for name in ("COLUMNS", "LINES", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE",
                 "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)


def _both(data: StateAnswer, raw: bool = False) -> tuple[str, str | None]:
    """(what rich prints, what cli.boards writes or None where it writes nothing)."""
    saved = sys.stdout
    try:
        sys.stdout = rich_out = _Pipe()
        render.state(data, raw=raw)
        sys.stdout = plain_out = _Pipe()
        wrote = boards.write_state(data, raw=raw)
    finally:
        sys.stdout = saved
    if not wrote:
        assert plain_out.getvalue() == ""
        return rich_out.getvalue(), None
    return rich_out.getvalue(), plain_out.getvalue()


GAMES = [("by_all_means", 2), ("copycat", 2), ("war_of_shadows", 2), ("android", 3), ("xfiles_encounters", 2)]


@pytest.mark.parametrize("game_id,players", GAMES)
def test_every_games_states_print_as_rich_prints_them(game_id, players):
    referee = Referee(MemoryStore())
    seats = [f"p{i}" for i in range(players)]
    match_id = referee.new_match(game_id, seats, seed=7).id
    loaded = referee.load(match_id)
    rng = random.Random(7)
    plain = 0
    for move in range(60):
        if move % 6 == 0:
            for seat in (None, *seats):
                data = referee.show(match_id, seat=seat)
                rich_text, written = _both(data)
                if written is not None:
                    assert written == rich_text, (game_id, move, seat)
                    plain += 1
        _, state = referee.state_at(loaded)
        pick = loaded.rules.random_intent(state, rng) if loaded.rules.outcome(state) is None else None
        if pick is None:
            break
        referee.submit(match_id, pick[0], format_intent(pick[1]))
    assert plain > 0  # the common case takes the plain path


def test_raw_and_boardless_states_are_left_to_rich():
    data = StateAnswer(match_id="m", game="g", seq=1, as_="referee", state_hash="ab", outcome=None, state={"x": 1})
    assert _both(data)[1] is None
    board = Board(title="T", layout="tableau", areas=(Area(id="a", facts=(("n", "1"),)),))
    with_board = StateAnswer(match_id="m", game="g", seq=1, as_="referee", state_hash="ab", outcome=None,
                             state={"x": 1}, sections=(board,))
    assert _both(with_board)[1] is not None
    assert _both(with_board, raw=True)[1] is None


#: words the plain path writes (markup brackets, the one-cell characters, spaces), many times over, and
#: the ones it leaves to rich (a backslash, wide and accented characters, an emoji code, a tab)
_PLAIN = ["", "a", "alice", "T14 (alice, 3)", "[bold]x[/bold]", "[x", "—", "·", "✓", "…", "  pad  ", "x ", " y",
          "a b c", "[/]", "100%", "ok", "[red]"]
_WORDS = st.sampled_from(_PLAIN * 12 + ["a\\", "\\[red]", "\\", "王", "é", ":smile:", "a\tb"])
_TEXT = st.lists(_WORDS, min_size=0, max_size=3).map(" ".join)


@st.composite
def _board(draw):
    layout = draw(st.sampled_from(["grid", "regions", "tableau", "row", "list"]))
    n = draw(st.sampled_from([0, 1, 2, 3, 4] + [1, 2, 3] * 4))
    areas = []
    for i in range(n):
        areas.append(Area(
            id=draw(_TEXT) or f"a{i}", label=draw(st.sampled_from(["", "", "home", "[dim]"])),
            row=draw(st.sampled_from(["1", "2", "[x"])), col=draw(st.sampled_from(["A", "B", " C "])),
            lines=tuple(draw(st.lists(_TEXT, max_size=3))),
            facts=tuple(draw(st.lists(st.tuples(st.sampled_from(["n", "hand", "[b]"] * 4 + ["王"]), _TEXT), max_size=3))),
        ))
    title = draw(st.one_of(_TEXT, _TEXT, _TEXT, st.text(alphabet="ab ", max_size=40)))
    return Board(title=title, layout=layout, areas=tuple(areas))


@settings(max_examples=examples(300), deadline=None)
@given(boards_=st.lists(_board(), min_size=1, max_size=3), sections=st.lists(_board(), max_size=2),
       headline=_TEXT, over=st.booleans(), hashed=st.booleans(),
       keys=st.lists(st.sampled_from(["a", "b", "[c]", "turn", "x1", "x2", "x3", "x4", "王"]), max_size=9, unique=True))
def test_random_boards_print_as_rich_prints_them(boards_, sections, headline, over, hashed, keys):
    data = StateAnswer(
        match_id="1de99f82b09c", game="pile", seq=3, as_="alice", state_hash="0" * 64 if hashed else "",
        outcome=Outcome(winners=("alice",), reason="R-END") if over else None, headline=headline,
        state={k: 1 for k in keys}, boards=tuple(boards_), sections=tuple(sections),
    )
    rich_text, written = _both(data)
    if written is not None:
        assert written == rich_text


def test_the_characters_counted_one_cell_and_the_boxes_are_richs():
    from rich import box
    from rich.cells import cell_len

    assert all(cell_len(ch) == 1 for ch in boards.ONE_CELL)

    def parts(b):
        return (b.top_left + b.top + b.top_divider + b.top_right,
                b.head_left + " " + b.head_vertical + b.head_right,
                b.head_row_left + b.head_row_horizontal + b.head_row_cross + b.head_row_right,
                b.mid_left + " " + b.mid_vertical + b.mid_right,
                b.row_left + b.row_horizontal + b.row_cross + b.row_right,
                b.bottom_left + b.bottom + b.bottom_divider + b.bottom_right)

    assert parts(box.HEAVY_HEAD) == boards.HEAVY_HEAD
    assert parts(box.HEAVY_HEAD.get_plain_headed_box()) == boards.SQUARE
    assert box.HEAVY_HEAD.foot_left + box.HEAVY_HEAD.foot_vertical + box.HEAVY_HEAD.foot_right == "│││"


def _one(board: Board, **kw) -> StateAnswer:
    return StateAnswer(match_id="1de99f82b09c", game="pile", seq=3, as_="alice", state_hash="", outcome=None,
                       state={"pile": 3}, boards=(board,), **kw)


@pytest.mark.parametrize("board", [
    Board(title="Field", layout="grid", areas=(
        Area(id="a", row="1", col=" A ", lines=("[bold]x[/bold]", "T14 (alice, 3)")),
        Area(id="b", row="1", col="B", lines=("x ",)), Area(id="c", row="2", col="B"))),
    Board(title="Map", layout="regions", areas=(Area(id="north", label="home", lines=("bear 4", "[x")),
                                                Area(id="south"))),
    Board(title="Seats", layout="tableau", areas=(
        Area(id="alice", label="first", lines=("a", "b", "c"), facts=(("hand", "3"), ("[b]", "—"))),
        Area(id="bob", facts=(("score", "  pad  "),)))),
    Board(title="Market", layout="row", areas=(Area(id="slot 1", lines=("·",)), Area(id="slot 2"))),
    Board(title="x" * 9, layout="list", areas=(Area(id="a", facts=(("n", "1"),)),)),  # as wide as its table
])
def test_the_common_boards_take_the_plain_path(board):
    rich_text, written = _both(_one(board, headline="[bold]alice[/bold] to play…"))
    assert written == rich_text


@pytest.mark.parametrize("board", [
    Board(title="x x x x x x", layout="list", areas=(Area(id="a", facts=(("n", "1"),)),)),  # wider than its table
    Board(title="Seats", layout="tableau", areas=(Area(id="élodie", facts=(("n", "1"),)),)),
    Board(title="Seats", layout="tableau", areas=(Area(id="a", facts=(("note", ":smile:"),)),)),
    Board(title="Seats", layout="tableau", areas=(Area(id="a", facts=(("note", "a\\b"),)),)),
    Board(title="Seats", layout="tableau", areas=()),
])
def test_what_rich_draws_otherwise_is_left_to_rich(board):
    assert _both(_one(board))[1] is None
