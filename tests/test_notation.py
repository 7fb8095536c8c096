"""The notation is generated from intent Structs: one rule set for every game."""

from __future__ import annotations

from typing import Literal

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.notation import format_intent, parse_intent, verbs_of
from referee.engine.protocol import InputError


class Effect(msgspec.Struct, frozen=True, kw_only=True):
    primitive: Literal["relocate_agent", "gain"]
    destination: str | None = None


class Placement(msgspec.Struct, frozen=True):
    token: str
    count: int


class Deploy(msgspec.Struct, frozen=True, kw_only=True, tag="deploy"):
    """Deploy things."""

    __positional__ = ("card",)
    card: str
    from_: Literal["hand", "buf1", "buf2"] = msgspec.field(default="hand", name="from")
    cells: tuple[str, ...] = ()
    effect: Effect | None = None
    placements: tuple[Placement, ...] = ()
    amount: int | None = None
    secret: bool = False
    note: str = ""


class Pass(msgspec.Struct, frozen=True, kw_only=True, tag="pass_turn"):
    """Pass."""


Intent = Deploy | Pass


def test_every_form_of_the_notation():
    got = parse_intent(
        Intent,
        'deploy card=TR1 from=buf2 cells=A1,B2 effect.primitive=relocate_agent effect.destination=lion.chancellor '
        'placements=lion_1:2,lion_2:1 amount=3 secret=true note="Burner Phone"',
    )
    assert got == Deploy(
        card="TR1", from_="buf2", cells=("A1", "B2"),
        effect=Effect(primitive="relocate_agent", destination="lion.chancellor"),
        placements=(Placement("lion_1", 2), Placement("lion_2", 1)), amount=3, secret=True, note="Burner Phone",
    )
    assert parse_intent(Intent, format_intent(got)) == got


def test_positional_shorthand_and_defaults():
    assert parse_intent(Intent, "deploy TR9") == Deploy(card="TR9")
    assert format_intent(Deploy(card="TR9")) == "deploy card=TR9"
    assert parse_intent(Intent, "pass_turn") == Pass()


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty intent"),
        ("deplo card=X", "did you mean deploy"),
        ("deploy", "missing argument card"),
        ("deploy card=X from=deck", "argument from: expected one of buf1|buf2|hand, got 'deck'"),
        ("deploy card=X amount=two", "argument amount: expected a whole number"),
        ("deploy card=X secret=maybe", "expected true or false"),
        ("deploy card=X colour=red", "unknown argument 'colour'"),
        ("deploy card=X card=Y", "given twice"),
        ("deploy card=X placements=lion_1", "expected token:count"),
        ("deploy card=X placements=lion_1:many", "expected a whole number"),
        ("deploy card=X effect.primitive=fly", "expected one of"),
        ('deploy card=X note="open', "unbalanced double quote"),
        ("deploy card=X cells=A1,,B2", "empty item"),
        ("pass_turn now", "not key=value"),
    ],
)
def test_syntax_errors_name_the_argument_and_what_was_expected(text, fragment):
    with pytest.raises(InputError) as info:
        parse_intent(Intent, text)
    assert fragment in info.value.message


def test_usage_lines_are_generated():
    usage = verbs_of(Intent)["deploy"].signature()
    assert usage.startswith("deploy card=TEXT [from=buf1|buf2|hand] [cells=str,...]")
    assert "[placements=token:count,...]" in usage and "[effect.primitive=gain|relocate_agent]" in usage


words = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126, exclude_characters=',:"\\#='), min_size=1, max_size=8)


@given(
    card=words,
    cells=st.lists(words, max_size=4),
    placements=st.lists(st.tuples(words, st.integers(-50, 50)), max_size=3),
    note=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=20),
    amount=st.none() | st.integers(-1000, 1000),
)
def test_format_then_parse_round_trips(card, cells, placements, note, amount):
    intent = Deploy(card=card, cells=tuple(cells), placements=tuple(Placement(t, c) for t, c in placements),
                    note=note, amount=amount)
    assert parse_intent(Intent, format_intent(intent)) == intent
